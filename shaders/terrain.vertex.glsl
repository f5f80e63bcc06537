// The elevated surface of one terrain tile: a grid over the tile whose heights (meters, already
// multiplied by the exaggeration) were sampled from the DEM on the CPU; the skirt's vertices
// hang below the edges.
in vec3 a_pos;   // tile units x, y; elevation in meters

uniform mat4 u_matrix;       // tile units and meters to clip space
uniform mat4 u_fog_matrix;   // the same with the near plane at the map's center, for the fog depth

out vec2 v_texture_pos;
out float v_fog_depth;

void main() {
    v_texture_pos = a_pos.xy / 8192.0;
    gl_Position = u_matrix * vec4(a_pos, 1.0);
    vec4 fog = u_fog_matrix * vec4(a_pos, 1.0);
    v_fog_depth = fog.z / fog.w * 0.5 + 0.5;
}
