// Circles: four corners per point, packed as a_pos = center * 2 + (extrude + 1) / 2.
in vec2 a_pos;
in vec4 a_color;          // premultiplied
in float a_radius;
in float a_blur;
in float a_opacity;
in vec4 a_stroke_color;   // premultiplied
in float a_stroke_width;
in float a_stroke_opacity;
// Over terrain, the ground's height at the center (meters); else 0. It is added apart from the
// flat position so that a flat map's arithmetic stays exactly what it was.
in float a_ele;

uniform mat4 u_matrix;
uniform bool u_scale_with_map;
uniform bool u_pitch_with_map;
uniform vec2 u_extrude_scale;
uniform float u_device_pixel_ratio;
uniform float u_camera_to_center_distance;

out vec3 v_data;
out vec4 v_color;
out vec4 v_stroke_color;
out float v_radius;
out float v_blur;
out float v_stroke_width;

void main() {
    vec2 extrude = vec2(mod(a_pos, 2.0) * 2.0 - 1.0);
    vec2 center = floor(a_pos * 0.5);
    float size = a_radius + a_stroke_width;
    if (u_pitch_with_map) {
        vec2 corner = center;
        if (u_scale_with_map) {
            corner += extrude * size * u_extrude_scale;
        } else {
            vec4 projected_center = u_matrix * vec4(center, 0.0, 1.0) + u_matrix[2] * a_ele;
            corner += extrude * size * u_extrude_scale * (projected_center.w / u_camera_to_center_distance);
        }
        gl_Position = u_matrix * vec4(corner, 0.0, 1.0) + u_matrix[2] * a_ele;
    } else {
        gl_Position = u_matrix * vec4(center, 0.0, 1.0) + u_matrix[2] * a_ele;
        if (u_scale_with_map) {
            gl_Position.xy += extrude * size * u_extrude_scale * u_camera_to_center_distance;
        } else {
            gl_Position.xy += extrude * size * u_extrude_scale * gl_Position.w;
        }
    }
    float antialiasblur = 1.0 / u_device_pixel_ratio / max(size, 1e-6);
    v_data = vec3(extrude, antialiasblur);
    v_color = a_color * a_opacity;
    v_stroke_color = a_stroke_color * a_stroke_opacity;
    v_radius = a_radius;
    v_blur = a_blur;
    v_stroke_width = a_stroke_width;
}
