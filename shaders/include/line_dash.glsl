// line-dasharray, shared by line and line_gradient fragment shaders (their LINE_DASHED variants): the
// pattern is a signed distance field in one or more rows of u_dash_image (x: position in the pattern,
// y: the row; a round-capped pattern has rows across the line too).
uniform sampler2D u_dash_image;
uniform vec2 u_patternscale;   // x: 1 / (pattern length in tile units at width 1); y: rows per unit of normal
uniform float u_dash_row;      // y coordinate of the row's center in the atlas (0..1)
uniform float u_sdfgamma;
// A data-driven line-dasharray (variant LINE_DASHED_PER_FEATURE) gives each feature its own
// pattern: u_patternscale.x and u_sdfgamma are then for a pattern one line width long.
#ifdef LINE_DASHED_PER_FEATURE
#define LINE_DASHED
#endif

// How much of the fragment the dashes cover (0...1), `linesofar` tile units along the line.
float dashAlpha(float linesofar, float normal_y, float floorwidth) {
    vec2 tex = vec2(linesofar * u_patternscale.x / floorwidth, normal_y * u_patternscale.y + u_dash_row);
    float sdfdist = texture(u_dash_image, tex).r;
    return smoothstep(0.5 - u_sdfgamma / floorwidth, 0.5 + u_sdfgamma / floorwidth, sdfdist);
}

// The same for a feature's own pattern: `dash` is its row's center and rows per unit of normal
// (atlas y coordinates) and the pattern's length in line widths.
float featureDashAlpha(float linesofar, float normal_y, float floorwidth, vec3 dash) {
    vec2 tex = vec2(linesofar * u_patternscale.x / (dash.z * floorwidth), normal_y * dash.y + dash.x);
    float sdfdist = texture(u_dash_image, tex).r;
    float gamma = u_sdfgamma / dash.z;
    return smoothstep(0.5 - gamma / floorwidth, 0.5 + gamma / floorwidth, sdfdist);
}
