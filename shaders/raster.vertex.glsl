// Raster tiles and image sources: a quad in tile units with texture positions in 0...8192.
in vec2 a_pos;
in vec2 a_texture_pos;
uniform mat4 u_matrix;
// Scales texture positions into the part of the texture inside the buffer (1 for raster tiles).
uniform float u_buffer_scale;

out vec2 v_pos;

void main() {
    gl_Position = u_matrix * vec4(a_pos, 0.0, 1.0);
    v_pos = ((a_texture_pos / 8192.0) - 0.5) / u_buffer_scale + 0.5;
}
