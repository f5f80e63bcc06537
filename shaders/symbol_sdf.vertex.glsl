// Text and SDF icons, already placed on the CPU: screen positions in CSS pixels.
in vec2 a_pos;
in vec2 a_tex;
in vec4 a_fill;    // premultiplied
in vec4 a_halo;    // premultiplied
in vec4 a_props;   // opacity, halo width, halo blur, font scale (size / 24 for text, icon-size for icons)

uniform vec2 u_viewport;
uniform vec4 u_piece;      // drawing a piece of a larger image: clip-space scale (xy) and center (zw)
uniform vec2 u_texsize;

out vec2 v_tex;
out vec4 v_fill;
out vec4 v_halo;
out vec4 v_props;
out vec2 v_pos;

void main() {
    gl_Position = vec4(a_pos.x / u_viewport.x * 2.0 - 1.0, 1.0 - a_pos.y / u_viewport.y * 2.0, 0.0, 1.0);
    gl_Position.xy = (gl_Position.xy - u_piece.zw) * u_piece.xy;
    v_tex = a_tex / u_texsize;
    v_fill = a_fill;
    v_halo = a_halo;
    v_props = a_props;
    v_pos = a_pos;
}
