// background-pattern: the tiles covering the view, each filled with the image repeating every
// display size in pixels at the integer zoom (see fill_pattern).
in vec2 a_pos;

uniform mat4 u_matrix;
uniform vec2 u_pattern_size;        // the image's display size in CSS pixels
uniform vec2 u_pixel_coord_upper;
uniform vec2 u_pixel_coord_lower;
uniform float u_tile_units_to_pixels;

out vec2 v_pos;

vec2 pattern_pos(vec2 size, vec2 pos) {
    vec2 offset = mod(mod(mod(u_pixel_coord_upper, size) * 256.0, size) * 256.0 + u_pixel_coord_lower, size);
    return (u_tile_units_to_pixels * pos + offset) / size;
}

void main() {
    gl_Position = u_matrix * vec4(a_pos, 0.0, 1.0);
    v_pos = pattern_pos(u_pattern_size, a_pos);
}
