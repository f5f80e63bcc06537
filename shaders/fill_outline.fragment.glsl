in vec2 v_pos;
in vec4 v_color;
out vec4 fragColor;

void main() {
    float dist = length(v_pos - gl_FragCoord.xy);
    float alpha = 1.0 - smoothstep(0.0, 1.0, dist);
    fragColor = v_color * alpha;
}
