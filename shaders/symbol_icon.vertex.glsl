// RGBA icons, already placed on the CPU (same vertex layout as symbol_sdf).
in vec2 a_pos;
in vec2 a_tex;
in vec4 a_fill;
in vec4 a_halo;
in vec4 a_props;

uniform vec2 u_viewport;
uniform vec4 u_piece;      // drawing a piece of a larger image: clip-space scale (xy) and center (zw)
uniform vec2 u_texsize;

out vec2 v_tex;
out float v_opacity;

void main() {
    gl_Position = vec4(a_pos.x / u_viewport.x * 2.0 - 1.0, 1.0 - a_pos.y / u_viewport.y * 2.0, 0.0, 1.0);
    gl_Position.xy = (gl_Position.xy - u_piece.zw) * u_piece.xy;
    v_tex = a_tex / u_texsize;
    v_opacity = a_props.x;
}
