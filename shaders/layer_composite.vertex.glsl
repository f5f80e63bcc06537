// A layer drawn offscreen, blended onto the frame at the layer's opacity: a quad over the view.
in vec2 a_pos;   // -1...1

void main() {
    gl_Position = vec4(a_pos, 0.0, 1.0);
}
