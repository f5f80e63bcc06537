// Lines, extruded from their centerline in the vertex shader (MapLibre's line layout).

in vec2 a_pos_normal;
in vec4 a_data;
in vec4 a_color;      // premultiplied
in float a_opacity;
in float a_width;
in float a_gapwidth;
in float a_offset;
in float a_blur;
in float a_floorwidth;   // line-width at the integer zoom: dash patterns scale with it
in vec3 a_dash;          // a data-driven line-dasharray's pattern: atlas row center and rows either side (texels), length

uniform mat4 u_matrix;
uniform float u_ratio;            // 1 / (tile units per pixel)
uniform vec4 u_globe_line;         // a globe's texture (variant LINE_GLOBE, include/line_globe.glsl)
uniform vec3 u_globe_tile;         // a globe's texture: the tile's widest lines, Mercator y at its top, per unit
uniform vec2 u_units_to_pixels;   // clip units to pixels
uniform float u_device_pixel_ratio;
uniform float u_dash_atlas_height;   // rows in the dash atlas (LINE_DASHED_PER_FEATURE)

out vec2 v_normal;
out vec2 v_width2;
#ifdef LINE_GLOBE
out float v_globe_y;
#endif
out float v_gamma_scale;
out float v_linesofar;
out vec4 v_color;
out float v_blur;
out float v_floorwidth;
out vec3 v_dash;

#include "include/line_extrude.glsl"

void main() {
    extrudeLine();
    v_linesofar = lineDistance();
    v_color = a_color * a_opacity;
    v_blur = a_blur;
    v_floorwidth = max(a_floorwidth, 1e-6);
#ifdef LINE_DASHED_PER_FEATURE
    v_dash = vec3(a_dash.x / u_dash_atlas_height, -a_dash.y / u_dash_atlas_height, max(a_dash.z, 1e-6));
#endif
}
