// Heatmap pass 2: the density texture over the whole view, colored through the ramp.
in vec2 a_pos;   // -1...1

out vec2 v_pos;

void main() {
    gl_Position = vec4(a_pos, 0.0, 1.0);
    v_pos = a_pos * 0.5 + 0.5;
}
