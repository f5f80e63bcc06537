// line-gradient: lines extruded as in line.vertex.glsl, colored from the line-gradient ramp by
// their progress along the whole line.
// a_pos_normal: x * 2 + round flag, y * 2 + up flag (tile units).
// a_data: extrude.x * 63 + 128, extrude.y * 63 + 128, direction + 1, and the distance (unused here).
#define EXTRUDE_SCALE 0.015873016

in vec2 a_pos_normal;
in vec4 a_data;
in float a_lineprogress;   // how far along the whole line (0...1)
in float a_opacity;
in float a_width;
in float a_gapwidth;
in float a_offset;
in float a_blur;

uniform mat4 u_matrix;
uniform float u_ratio;            // 1 / (tile units per pixel)
uniform vec2 u_units_to_pixels;   // clip units to pixels
uniform float u_device_pixel_ratio;

out vec2 v_normal;
out vec2 v_width2;
out float v_gamma_scale;
out float v_lineprogress;
out float v_opacity;
out float v_blur;

void main() {
    float antialiasing = 1.0 / u_device_pixel_ratio / 2.0;
    vec2 extrude = a_data.xy - 128.0;
    float direction = mod(a_data.z, 4.0) - 1.0;

    vec2 pos = floor(a_pos_normal * 0.5);
    vec2 normal = a_pos_normal - 2.0 * pos;
    normal.y = normal.y * 2.0 - 1.0;
    v_normal = normal;

    float gapwidth = a_gapwidth / 2.0;
    float halfwidth = a_width / 2.0;
    float offset = -1.0 * a_offset;
    float inset = gapwidth + (gapwidth > 0.0 ? antialiasing : 0.0);
    float outset = gapwidth + halfwidth * (gapwidth > 0.0 ? 2.0 : 1.0) + (halfwidth == 0.0 ? 0.0 : antialiasing);

    vec2 dist = outset * extrude * EXTRUDE_SCALE;
    float u = 0.5 * direction;
    float t = 1.0 - abs(u);
    vec2 offset2 = offset * extrude * EXTRUDE_SCALE * normal.y * mat2(t, -u, u, t);

    vec4 projected_extrude = u_matrix * vec4(dist / u_ratio, 0.0, 0.0);
    gl_Position = u_matrix * vec4(pos + offset2 / u_ratio, 0.0, 1.0) + projected_extrude;

    // How much perspective squishes or stretches the extrusion, so the antialiasing stays one pixel.
    float without_perspective = length(dist);
    float with_perspective = length(projected_extrude.xy / gl_Position.w * u_units_to_pixels);
    v_gamma_scale = without_perspective / max(with_perspective, 1e-6);
    v_width2 = vec2(outset, inset);
    v_lineprogress = a_lineprogress;
    v_opacity = a_opacity;
    v_blur = a_blur;
}
