// line-pattern: lines extruded as in line.vertex.glsl, carrying the distance along the line so
// the fragment shader can repeat the image along it, scaled to the line's width.
#define EXTRUDE_SCALE 0.015873016

in vec2 a_pos_normal;
in vec4 a_data;
in float a_opacity;
in float a_width;
in float a_gapwidth;
in float a_offset;
in float a_blur;
in vec4 a_pattern;       // the image in the atlas: top-left xy, bottom-right zw (texels)
in float a_pixel_ratio;

uniform mat4 u_matrix;
uniform float u_ratio;
uniform vec2 u_units_to_pixels;
uniform float u_device_pixel_ratio;

out vec2 v_normal;
out vec2 v_width2;
out float v_gamma_scale;
out float v_linesofar;
out float v_blur;
out float v_opacity;
out vec4 v_pattern;
out float v_pixel_ratio;

void main() {
    float antialiasing = 1.0 / u_device_pixel_ratio / 2.0;
    vec2 extrude = a_data.xy - 128.0;
    float direction = mod(a_data.z, 4.0) - 1.0;
    v_linesofar = (floor(a_data.z / 4.0) + a_data.w * 64.0) * 2.0;

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

    float without_perspective = length(dist);
    float with_perspective = length(projected_extrude.xy / gl_Position.w * u_units_to_pixels);
    v_gamma_scale = without_perspective / max(with_perspective, 1e-6);
    v_width2 = vec2(outset, inset);
    v_blur = a_blur;
    v_opacity = a_opacity;
    v_pattern = a_pattern;
    v_pixel_ratio = a_pixel_ratio;
}
