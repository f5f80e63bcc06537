// Pass 2 of hillshade: the slope texture shaded on the tile's square.
in vec2 a_pos;
uniform mat4 u_matrix;

out vec2 v_pos;

void main() {
    gl_Position = u_matrix * vec4(a_pos, 0.0, 1.0);
    v_pos = a_pos / 8192.0;
}
