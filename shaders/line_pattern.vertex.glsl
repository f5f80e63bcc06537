// line-pattern: lines extruded as in include/line_extrude.glsl, carrying the distance along the line so
// the fragment shader can repeat the image along it, scaled to the line's width.

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
uniform vec4 u_globe_line;         // a globe's texture (variant LINE_GLOBE, include/line_globe.glsl)
uniform vec3 u_globe_tile;         // a globe's texture: the tile's widest lines, Mercator y at its top, per unit
uniform vec2 u_units_to_pixels;
uniform float u_device_pixel_ratio;

out vec2 v_normal;
out vec2 v_width2;
#ifdef LINE_GLOBE
out float v_globe_y;
#endif
out float v_gamma_scale;
out float v_linesofar;
out float v_blur;
out float v_opacity;
out vec4 v_pattern;
out float v_pixel_ratio;

#include "include/line_extrude.glsl"

void main() {
    extrudeLine();
    v_linesofar = lineDistance();
    v_blur = a_blur;
    v_opacity = a_opacity;
    v_pattern = a_pattern;
    v_pixel_ratio = a_pixel_ratio;
}
