uniform float u_device_pixel_ratio;
// Dashes: the program is compiled with LINE_DASHED defined for layers with line-dasharray (a
// separate variant, so solid lines do not sample the texture); the dash pattern is a signed
// distance field in one row of u_dash_image (x: position in the pattern, y: the row).
uniform sampler2D u_dash_image;
uniform vec2 u_patternscale;   // x: 1 / (pattern length in tile units at width 1); y: rows per unit of normal
uniform float u_dash_row;      // y coordinate of the row's center in the atlas (0..1)
uniform float u_sdfgamma;

in vec2 v_normal;
in vec2 v_width2;
in float v_gamma_scale;
in float v_linesofar;
in vec4 v_color;
in float v_blur;
in float v_floorwidth;

out vec4 fragColor;

void main() {
    float dist = length(v_normal) * v_width2.s;
    float blur2 = (v_blur + 1.0 / u_device_pixel_ratio) * v_gamma_scale;
    float alpha = clamp(min(dist - (v_width2.t - blur2), v_width2.s - dist) / blur2, 0.0, 1.0);
#ifdef LINE_DASHED
    {
        vec2 tex = vec2(v_linesofar * u_patternscale.x / v_floorwidth, v_normal.y * u_patternscale.y + u_dash_row);
        float sdfdist = texture(u_dash_image, tex).r;
        alpha *= smoothstep(0.5 - u_sdfgamma / v_floorwidth, 0.5 + u_sdfgamma / v_floorwidth, sdfdist);
    }
#endif
    fragColor = v_color * alpha;
}
