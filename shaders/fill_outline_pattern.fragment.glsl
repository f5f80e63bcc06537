uniform sampler2D u_image;   // the pattern atlas, premultiplied
uniform vec2 u_texsize;

in vec2 v_pattern_pos;
in vec2 v_pos;
in vec4 v_pattern;
in float v_opacity;

out vec4 fragColor;

void main() {
    if (v_pattern.z <= v_pattern.x) discard;   // the feature's image is missing
    vec2 coord = mix(v_pattern.xy, v_pattern.zw, fract(v_pattern_pos)) / u_texsize;
    // Faded by the distance from the line's center to the pixel's, as fill_outline (which also
    // says why pixels past half a pixel are dropped).
    float dist = length(v_pos - gl_FragCoord.xy);
    if (dist > 0.5) discard;
    float alpha = 1.0 - smoothstep(0.0, 1.0, dist);
    fragColor = texture(u_image, coord) * (alpha * v_opacity);
}
