uniform float u_device_pixel_ratio;
#include "include/line_globe.glsl"
uniform sampler2D u_image;           // the pattern atlas, premultiplied
uniform vec2 u_texsize;
uniform float u_tile_zoom_ratio;     // pixels per tile unit at the integer zoom

in vec2 v_normal;
in vec2 v_width2;
in float v_gamma_scale;
in float v_linesofar;
in float v_blur;
in float v_opacity;
in vec4 v_pattern;
in float v_pixel_ratio;

out vec4 fragColor;

void main() {
    vec2 normal = v_normal;
    float gamma_scale = v_gamma_scale;
    globeLineFragment(normal, gamma_scale);
    if (v_pattern.z <= v_pattern.x) discard;   // the feature's image is missing
    vec2 tl = v_pattern.xy, br = v_pattern.zw;
    vec2 display_size = (br - tl) / v_pixel_ratio;
    // The image's length along the line in tile units at the integer zoom; across the line it
    // keeps its size in pixels, centered, cropped to the line's width (at most its own height
    // plus a texel of padding either side, so the sample stays inside the image).
    vec2 pattern_size = vec2(display_size.x / u_tile_zoom_ratio, display_size.y);

    float dist = length(normal) * v_width2.s;
    float blur2 = (v_blur + 1.0 / u_device_pixel_ratio) * gamma_scale;
    float alpha = clamp(min(dist - (v_width2.t - blur2), v_width2.s - dist) / blur2, 0.0, 1.0);

    float x = mod(v_linesofar / pattern_size.x, 1.0);
    float y = 0.5 + normal.y * clamp(v_width2.s, 0.0, (pattern_size.y + 2.0) / 2.0) / pattern_size.y;
    vec2 coord = mix(tl, br, vec2(x, y)) / u_texsize;
    fragColor = texture(u_image, coord) * alpha * v_opacity;
}
