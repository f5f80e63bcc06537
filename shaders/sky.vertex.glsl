// Sky: one quad over the whole viewport, in clip space; the fragment shader colors what lies
// above the horizon.
in vec2 a_pos;

void main() {
    gl_Position = vec4(a_pos, 0.0, 1.0);
}
