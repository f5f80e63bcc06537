uniform float u_device_pixel_ratio;
#include "include/line_globe.glsl"
uniform sampler2D u_image;   // the line-gradient ramp: 256 texels over progress 0...1, premultiplied
// A gradient that is a step of constant colors (at most MAX_GRADIENT_STEPS) is drawn from its steps
// instead of the ramp: step i from u_step_starts[i] (the first from the line's start) in
// u_step_colors[i], premultiplied. u_step_count 0: the ramp. Progress is first rounded as GL JS
// samples its step ramp: u_step_resolution texels over each piece's part of the line, nearest.
const int MAX_GRADIENT_STEPS = 32;
uniform int u_step_count;
uniform float u_step_resolution;
uniform float u_step_starts[MAX_GRADIENT_STEPS];
uniform vec4 u_step_colors[MAX_GRADIENT_STEPS];
// With line-dasharray the program is compiled with LINE_DASHED: the gradient is cut into dashes.
#include "include/line_dash.glsl"

in vec2 v_normal;
in vec2 v_width2;
in float v_gamma_scale;
in float v_lineprogress;
in float v_opacity;
in float v_blur;
in float v_linesofar;
in float v_floorwidth;
flat in vec2 v_lineclip;

out vec4 fragColor;

void main() {
    vec2 normal = v_normal;
    float gamma_scale = v_gamma_scale;
    globeLineFragment(normal, gamma_scale);
    float dist = length(normal) * v_width2.s;
    float blur2 = (v_blur + 1.0 / u_device_pixel_ratio) * gamma_scale;
    float alpha = clamp(min(dist - (v_width2.t - blur2), v_width2.s - dist) / blur2, 0.0, 1.0);
    vec4 color;
    if (u_step_count > 0) {
        float progress = v_lineprogress;
        float span = v_lineclip.y - v_lineclip.x;
        if (span > 0.0) {
            float texel = clamp(floor((v_lineprogress - v_lineclip.x) / span * u_step_resolution), 0.0, u_step_resolution - 1.0);
            progress = v_lineclip.x + span * texel / (u_step_resolution - 1.0);
        }
        color = u_step_colors[0];
        for (int i = 1; i < MAX_GRADIENT_STEPS; i++) {
            if (i >= u_step_count || progress < u_step_starts[i]) break;
            color = u_step_colors[i];
        }
    } else {
        color = texture(u_image, vec2(v_lineprogress, 0.5));
    }
#ifdef LINE_DASHED
    alpha *= dashAlpha(v_linesofar, normal.y, v_floorwidth);
#endif
    fragColor = color * (alpha * v_opacity);
}
