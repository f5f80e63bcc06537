// Lines in the flat texture a globe samples, as GL JS draws them on the sphere (shared by the line,
// line_gradient and line_pattern fragment shaders; include/line_extrude.glsl is the vertex side).
// GL JS draws a line as wide on the sphere's surface as the style says, everywhere: in the Mercator
// texture that is widened by cos(center latitude) / cos(latitude), as the sphere shrinks the map by
// cos(latitude) and is scaled to Mercator's scale at the center. A long segment spans many latitudes, so the vertex shader extrudes by the
// most the tile needs (u_globe_tile.x) and each fragment finds its own width here.
// These are the program variant LINE_GLOBE; without it (the flat map) nothing here changes a line.
// u_globe_line: x, texture pixels per camera pixel; y, the
// globeness (the widening is blended by it); z, the cosine of the camera center's latitude (the
// sphere is scaled to Mercator's scale there). u_globe_tile: x, the widening the tile's lines are
// extruded by; y, z: the tile's Mercator y at its top and per tile unit (for v_globe_y).
uniform vec4 u_globe_line;
uniform vec3 u_globe_tile;
#ifdef LINE_GLOBE
in float v_globe_y;   // the fragment's Mercator y (0...1, north to south)
#endif

#define GLOBE_PI 3.14159265358979

// Rescales the fragment's place across the line (normal) and its antialiasing (gamma_scale) from the
// extrusion by u_globe_tile.x to the width the line has at the fragment's latitude.
void globeLineFragment(inout vec2 normal, inout float gamma_scale) {
#ifdef LINE_GLOBE
    float t = exp(GLOBE_PI - v_globe_y * 2.0 * GLOBE_PI);
    float cos_latitude = 2.0 * t / (t * t + 1.0);
    float thickness = u_globe_line.x * mix(1.0, u_globe_line.z / max(cos_latitude, 1e-6), u_globe_line.y);
    float k = thickness / u_globe_tile.x;
    normal /= k;
    gamma_scale /= k;
#endif
}
