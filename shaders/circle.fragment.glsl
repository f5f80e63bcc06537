in vec3 v_data;
in vec4 v_color;
in vec4 v_stroke_color;
in float v_radius;
in float v_blur;
in float v_stroke_width;

out vec4 fragColor;

void main() {
    vec2 extrude = v_data.xy;
    float extrude_length = length(extrude);
    float antialiased_blur = -max(v_blur, v_data.z);
    float opacity_t = smoothstep(0.0, antialiased_blur, extrude_length - 1.0);
    float color_t = v_stroke_width < 0.01 ? 0.0
        : smoothstep(antialiased_blur, 0.0, extrude_length - v_radius / (v_radius + v_stroke_width));
    fragColor = opacity_t * mix(v_color, v_stroke_color, color_t);
}
