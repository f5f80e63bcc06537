// line-gradient: lines extruded as in include/line_extrude.glsl, colored from the line-gradient ramp by
// their progress along the whole line (and cut into dashes with line-dasharray, as line's are).

in vec2 a_pos_normal;
in vec4 a_data;
in float a_lineprogress;   // how far along the whole line (0...1)
in float a_opacity;
in float a_width;
in float a_gapwidth;
in float a_offset;
in float a_blur;
in float a_floorwidth;   // line-width at the integer zoom: dash patterns scale with it
in vec2 a_lineclip;      // the part of the whole line this piece covers (start, end)

uniform mat4 u_matrix;
uniform float u_ratio;            // 1 / (tile units per pixel)
uniform vec4 u_globe_line;         // a globe's texture (variant LINE_GLOBE, include/line_globe.glsl)
uniform vec3 u_globe_tile;         // a globe's texture: the tile's widest lines, Mercator y at its top, per unit
uniform vec2 u_units_to_pixels;   // clip units to pixels
uniform float u_device_pixel_ratio;

out vec2 v_normal;
out vec2 v_width2;
#ifdef LINE_GLOBE
out float v_globe_y;
#endif
out float v_gamma_scale;
out float v_lineprogress;
out float v_opacity;
out float v_blur;
out float v_linesofar;
out float v_floorwidth;
flat out vec2 v_lineclip;

#include "include/line_extrude.glsl"

// With line metrics MapLibre measures dashes by progress along the whole line, scaled to the
// largest distance a vertex stores (2^15 - 1), not by distance along this tile's piece.
#define PROGRESS_DISTANCE 32767.0

void main() {
    extrudeLine();
    v_lineprogress = a_lineprogress;
    v_opacity = a_opacity;
    v_blur = a_blur;
    v_linesofar = floor(a_lineprogress * PROGRESS_DISTANCE * 0.5) * 2.0;
    v_floorwidth = max(a_floorwidth, 1e-6);
    v_lineclip = a_lineclip;
}
