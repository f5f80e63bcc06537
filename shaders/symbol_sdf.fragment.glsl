#define SDF_PX 8.0

uniform sampler2D u_texture;
uniform bool u_is_halo;
uniform bool u_is_text;
uniform float u_device_pixel_ratio;
// Symbols laid flat on a pitched map: the edge gamma grows with the fragment's clip w as GL JS's
// (u_gamma_scale there): the factor is 1 / dot(u_pitch_gamma, (x, y, 1)) at CSS pixel (x, y).
uniform bool u_pitch_with_map;
uniform vec3 u_pitch_gamma;

in vec2 v_tex;
in vec4 v_fill;
in vec4 v_halo;
in vec4 v_props;
in vec2 v_pos;

out vec4 fragColor;

void main() {
    float opacity = v_props.x;
    float halo_width = v_props.y;
    float halo_blur = v_props.z;
    float font_scale = v_props.w;
    float edge_gamma = 0.105 / u_device_pixel_ratio;
    vec4 color = v_fill;
    float gamma_scale = u_pitch_with_map ? 1.0 / dot(u_pitch_gamma, vec3(v_pos, 1.0)) : 1.0;
    float gamma = edge_gamma / font_scale * gamma_scale;
    float fill_edge = (256.0 - 64.0) / 256.0;
    float dist = texture(u_texture, v_tex).r;
    if (!u_is_halo) {
        fragColor = color * (smoothstep(fill_edge - gamma, fill_edge + gamma, dist) * opacity);
        return;
    }
    if (halo_width <= 0.0 || v_halo.a <= 0.0) discard;
    gamma = (halo_blur * 1.19 / SDF_PX + edge_gamma) / font_scale * gamma_scale;
    float halo_edge = (6.0 - halo_width / font_scale) / SDF_PX;
    float alpha = smoothstep(halo_edge - gamma, halo_edge + gamma, dist);
    if (u_is_text) {
        // A text halo is a ring: it stops where the fill begins (its edge moved out by the
        // halo's gamma), so that translucent or transparent text shows no halo through it, as
        // in MapLibre GL JS. An SDF icon's halo stays a plate under the icon (MapLibre Native).
        alpha = min(alpha, 1.0 - smoothstep(fill_edge, fill_edge + 2.0 * gamma, dist));
    }
    fragColor = v_halo * (alpha * opacity);
}
