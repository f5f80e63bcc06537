// Pass 1 of hillshade: one DEM tile (with its one-pixel border) to a texture of slopes.
in vec2 a_pos;
uniform vec2 u_dimension;   // the DEM texture's size, border included

out vec2 v_pos;

void main() {
    // Tile units 0...8192 to the whole target; row 0 of the target is the tile's north edge.
    gl_Position = vec4(a_pos / 4096.0 - 1.0, 0.0, 1.0);
    vec2 texel = 1.0 / u_dimension;
    float inner = (u_dimension.x - 2.0) / u_dimension.x;
    v_pos = (a_pos / 8192.0) * inner + texel;
}
