uniform float u_device_pixel_ratio;
#include "include/line_globe.glsl"
// Dashes: the program is compiled with LINE_DASHED defined for layers with line-dasharray (a
// separate variant, so solid lines do not sample the texture).
#include "include/line_dash.glsl"

in vec2 v_normal;
in vec2 v_width2;
in float v_gamma_scale;
in float v_linesofar;
in vec4 v_color;
in float v_blur;
in float v_floorwidth;
in vec3 v_dash;

out vec4 fragColor;

void main() {
    vec2 normal = v_normal;
    float gamma_scale = v_gamma_scale;
    globeLineFragment(normal, gamma_scale);
    float dist = length(normal) * v_width2.s;
    float blur2 = (v_blur + 1.0 / u_device_pixel_ratio) * gamma_scale;
    float alpha = clamp(min(dist - (v_width2.t - blur2), v_width2.s - dist) / blur2, 0.0, 1.0);
#if defined(LINE_DASHED_PER_FEATURE)
    alpha *= featureDashAlpha(v_linesofar, normal.y, v_floorwidth, v_dash);
#elif defined(LINE_DASHED)
    alpha *= dashAlpha(v_linesofar, normal.y, v_floorwidth);
#endif
    fragColor = v_color * alpha;
}
