uniform sampler2D u_image;
uniform sampler2D u_color_ramp;  // heatmap-color at densities 0...1, premultiplied
uniform float u_opacity;

in vec2 v_pos;
out vec4 fragColor;

void main() {
    float density = texture(u_image, v_pos).r;
    fragColor = texture(u_color_ramp, vec2(density, 0.5)) * u_opacity;
}
