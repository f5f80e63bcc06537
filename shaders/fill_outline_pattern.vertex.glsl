// The antialiasing outline of a patterned fill (fill-antialias with fill-pattern): the fill's
// 1-pixel edge lines (see fill_outline) in the pattern's colors, placed as fill_pattern places them.
in vec2 a_pos;
in vec4 a_pattern;       // the image in the atlas: top-left xy, bottom-right zw (texels)
in float a_pixel_ratio;  // image texels per CSS pixel
in float a_opacity;

uniform mat4 u_matrix;
uniform vec2 u_world;               // framebuffer size in pixels
uniform vec2 u_pixel_coord_upper;   // the tile's top-left corner in pixels at the integer zoom, / 65536
uniform vec2 u_pixel_coord_lower;   // ... and modulo 65536
uniform float u_tile_units_to_pixels;

out vec2 v_pattern_pos;
out vec2 v_pos;
out vec4 v_pattern;
out float v_opacity;

#include "include/line_pixel_center.glsl"

vec2 pattern_pos(vec2 size, vec2 pos) {
    vec2 offset = mod(mod(mod(u_pixel_coord_upper, size) * 256.0, size) * 256.0 + u_pixel_coord_lower, size);
    return (u_tile_units_to_pixels * pos + offset) / size;
}

void main() {
    vec2 size = max((a_pattern.zw - a_pattern.xy) / a_pixel_ratio, vec2(1e-6));
    gl_Position = u_matrix * vec4(a_pos, 0.0, 1.0);
    v_pattern_pos = pattern_pos(size, a_pos);
    v_pos = (gl_Position.xy / gl_Position.w + 1.0) / 2.0 * u_world;
    gl_Position = lineOffPixelCenter(gl_Position, v_pos, u_world);
    v_pattern = a_pattern;
    v_opacity = a_opacity;
}
