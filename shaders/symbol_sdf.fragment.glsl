#define SDF_PX 8.0

uniform sampler2D u_texture;
uniform bool u_is_halo;
uniform float u_device_pixel_ratio;

in vec2 v_tex;
in vec4 v_fill;
in vec4 v_halo;
in vec4 v_props;

out vec4 fragColor;

void main() {
    float opacity = v_props.x;
    float halo_width = v_props.y;
    float halo_blur = v_props.z;
    float font_scale = v_props.w;
    float edge_gamma = 0.105 / u_device_pixel_ratio;
    vec4 color = v_fill;
    float gamma = edge_gamma / font_scale;
    float buff = (256.0 - 64.0) / 256.0;
    if (u_is_halo) {
        if (halo_width <= 0.0 || v_halo.a <= 0.0) discard;
        color = v_halo;
        gamma = (halo_blur * 1.19 / SDF_PX + edge_gamma) / font_scale;
        buff = (6.0 - halo_width / font_scale) / SDF_PX;
    }
    float dist = texture(u_texture, v_tex).r;
    float alpha = smoothstep(buff - gamma, buff + gamma, dist);
    fragColor = color * (alpha * opacity);
}
