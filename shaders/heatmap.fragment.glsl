uniform float u_intensity;

in vec2 v_extrude;
in float v_weight;
out vec4 fragColor;

const float GAUSS_COEF = 0.3989422804014327;

void main() {
    // The radius spans three standard deviations of the kernel.
    float d = -0.5 * 3.0 * 3.0 * dot(v_extrude, v_extrude);
    fragColor = vec4(v_weight * u_intensity * GAUSS_COEF * exp(d), 1.0, 1.0, 1.0);
}
