// color-relief: a DEM tile (with its one-pixel border) on the tile's square.
in vec2 a_pos;
uniform mat4 u_matrix;
uniform vec2 u_dimension;   // the DEM texture's size, border included

out vec2 v_pos;

void main() {
    gl_Position = u_matrix * vec4(a_pos, 0.0, 1.0);
    vec2 texel = 1.0 / u_dimension;
    float inner = (u_dimension.x - 2.0) / u_dimension.x;
    v_pos = (a_pos / 8192.0) * inner + texel;
}
