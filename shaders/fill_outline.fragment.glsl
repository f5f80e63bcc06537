in vec2 v_pos;
in vec4 v_color;
out vec4 fragColor;

void main() {
    float dist = length(v_pos - gl_FragCoord.xy);
    // The lines are drawn 2 pixels wide (llvmpipe draws those as triangles, faster than its 1-pixel
    // lines) and keep the pixels a 1-pixel line lights, as GL JS's are: the wide line spans the
    // minor axis, where its center is under half a pixel away.
    if (dist > 0.5) discard;
    float alpha = 1.0 - smoothstep(0.0, 1.0, dist);
    fragColor = v_color * alpha;
}
