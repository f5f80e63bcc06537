// Ground: a square on the map plane (u_matrix places and projects it), so that the far plane
// ends it at the horizon where a sky is drawn.
in vec2 a_pos;
uniform mat4 u_matrix;

void main() {
    gl_Position = u_matrix * vec4(a_pos, 0.0, 1.0);
}
