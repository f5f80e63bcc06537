uniform float u_device_pixel_ratio;
#include "include/line_globe.glsl"
uniform sampler2D u_image;   // the line-gradient ramp: 256 texels over progress 0...1, premultiplied
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

out vec4 fragColor;

void main() {
    vec2 normal = v_normal;
    float gamma_scale = v_gamma_scale;
    globeLineFragment(normal, gamma_scale);
    float dist = length(normal) * v_width2.s;
    float blur2 = (v_blur + 1.0 / u_device_pixel_ratio) * gamma_scale;
    float alpha = clamp(min(dist - (v_width2.t - blur2), v_width2.s - dist) / blur2, 0.0, 1.0);
    vec4 color = texture(u_image, vec2(v_lineprogress, 0.5));
#ifdef LINE_DASHED
    alpha *= dashAlpha(v_linesofar, normal.y, v_floorwidth);
#endif
    fragColor = color * (alpha * v_opacity);
}
