// Polygons filled with a repeating image (fill-pattern). The image repeats every display size
// (its texels over its pixel ratio) in pixels at the integer zoom: a still snapshot shows the
// cross-fade finished, on the integer zoom's image.
in vec2 a_pos;
in vec4 a_pattern;       // the image in the atlas: top-left xy, bottom-right zw (texels)
in float a_pixel_ratio;  // image texels per CSS pixel
in float a_opacity;

uniform mat4 u_matrix;
uniform vec2 u_pixel_coord_upper;   // the tile's top-left corner in pixels at the integer zoom, / 65536
uniform vec2 u_pixel_coord_lower;   // ... and modulo 65536 (split so floats keep the precision)
uniform float u_tile_units_to_pixels;

out vec2 v_pos;
out vec4 v_pattern;
out float v_opacity;

// Position in pattern repetitions. The tile's offset is reduced modulo the pattern size in steps,
// so world-sized pixel coordinates do not lose the pattern's phase.
vec2 pattern_pos(vec2 size, vec2 pos) {
    vec2 offset = mod(mod(mod(u_pixel_coord_upper, size) * 256.0, size) * 256.0 + u_pixel_coord_lower, size);
    return (u_tile_units_to_pixels * pos + offset) / size;
}

void main() {
    vec2 size = max((a_pattern.zw - a_pattern.xy) / a_pixel_ratio, vec2(1e-6));
    gl_Position = u_matrix * vec4(a_pos, 0.0, 1.0);
    v_pos = pattern_pos(size, a_pos);
    v_pattern = a_pattern;
    v_opacity = a_opacity;
}
