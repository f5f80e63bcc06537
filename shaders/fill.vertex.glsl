// Fill interiors. Paint properties arrive as attributes: per feature when data-driven, otherwise a
// constant attribute value set once for the draw.
in vec2 a_pos;
in vec4 a_color;      // premultiplied
in float a_opacity;
uniform mat4 u_matrix;

out vec4 v_color;

void main() {
    v_color = a_color * a_opacity;
    gl_Position = u_matrix * vec4(a_pos, 0.0, 1.0);
}
