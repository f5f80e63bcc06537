// Draws a tile's square into the stencil buffer so each tile's buffered geometry stays inside it.
in vec2 a_pos;
uniform mat4 u_matrix;

void main() {
    gl_Position = u_matrix * vec4(a_pos, 0.0, 1.0);
}
