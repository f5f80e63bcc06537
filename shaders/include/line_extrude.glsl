// MapLibre's line extrusion, shared by line, line_gradient and line_pattern (tools/gen-shaders.py
// puts this file where a vertex shader says #include). The including shader declares what it
// reads: a_pos_normal, a_data, a_width, a_gapwidth, a_offset, u_matrix, u_ratio,
// u_units_to_pixels, u_device_pixel_ratio, u_globe_line, u_globe_tile; and what it sets: v_normal,
// v_width2, v_gamma_scale, v_globe_y.
// a_pos_normal: x * 2 + round flag, y * 2 + up flag (tile units).
// a_data: extrude.x * 63 + 128, extrude.y * 63 + 128, direction + 1 | distance low bits << 2, distance high bits.
#define EXTRUDE_SCALE 0.015873016

// Sets gl_Position (the vertex moved out from the centerline by the width and offset), v_normal,
// v_width2 (outset, inset) and v_gamma_scale.
void extrudeLine() {
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

#ifdef LINE_GLOBE
    // In a globe's texture, as wide as the tile's lines get there (include/line_globe.glsl).
    float thickness = u_globe_tile.x;
    vec4 projected_extrude = u_matrix * vec4(dist / u_ratio * thickness, 0.0, 0.0);
    gl_Position = u_matrix * vec4(pos + offset2 / u_ratio * thickness, 0.0, 1.0) + projected_extrude;
    v_globe_y = u_globe_tile.y + u_globe_tile.z * (pos.y + (offset2.y + dist.y) / u_ratio * thickness);
#else
    vec4 projected_extrude = u_matrix * vec4(dist / u_ratio, 0.0, 0.0);
    gl_Position = u_matrix * vec4(pos + offset2 / u_ratio, 0.0, 1.0) + projected_extrude;
#endif

    // How much perspective squishes or stretches the extrusion, so the antialiasing stays one pixel.
    float without_perspective = length(dist);
    float with_perspective = length(projected_extrude.xy / gl_Position.w * u_units_to_pixels);
    v_gamma_scale = without_perspective / max(with_perspective, 1e-6);
    v_width2 = vec2(outset, inset);
}

// The distance along the line to this vertex (tile units), from a_data's packed bits.
float lineDistance() {
    return (floor(a_data.z / 4.0) + a_data.w * 64.0) * 2.0;
}
