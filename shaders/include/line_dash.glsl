// line-dasharray, shared by line and line_gradient fragment shaders (their LINE_DASHED variants): the
// pattern is a signed distance field in one or more rows of u_dash_image (x: position in the pattern,
// y: the row; a round-capped pattern has rows across the line too).
uniform sampler2D u_dash_image;
uniform vec2 u_patternscale;   // x: 1 / (pattern length in tile units at width 1); y: rows per unit of normal
uniform float u_dash_row;      // y coordinate of the row's center in the atlas (0..1)
uniform float u_sdfgamma;

// How much of the fragment the dashes cover (0...1), `linesofar` tile units along the line.
float dashAlpha(float linesofar, float normal_y, float floorwidth) {
    vec2 tex = vec2(linesofar * u_patternscale.x / floorwidth, normal_y * u_patternscale.y + u_dash_row);
    float sdfdist = texture(u_dash_image, tex).r;
    return smoothstep(0.5 - u_sdfgamma / floorwidth, 0.5 + u_sdfgamma / floorwidth, sdfdist);
}
