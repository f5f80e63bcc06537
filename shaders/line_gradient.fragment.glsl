uniform float u_device_pixel_ratio;
uniform sampler2D u_image;   // the line-gradient ramp: 256 texels over progress 0...1, premultiplied

in vec2 v_normal;
in vec2 v_width2;
in float v_gamma_scale;
in float v_lineprogress;
in float v_opacity;
in float v_blur;

out vec4 fragColor;

void main() {
    float dist = length(v_normal) * v_width2.s;
    float blur2 = (v_blur + 1.0 / u_device_pixel_ratio) * v_gamma_scale;
    float alpha = clamp(min(dist - (v_width2.t - blur2), v_width2.s - dist) / blur2, 0.0, 1.0);
    vec4 color = texture(u_image, vec2(v_lineprogress, 0.5));
    fragColor = color * (alpha * v_opacity);
}
