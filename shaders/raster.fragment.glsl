// raster-* paint: hue rotation, saturation, contrast, then brightness bounds, on unpremultiplied color.
uniform sampler2D u_image;
uniform float u_opacity;
uniform float u_brightness_low;
uniform float u_brightness_high;
uniform float u_saturation_factor;
uniform float u_contrast_factor;
uniform vec3 u_spin_weights;

// Anisotropic filtering (GL JS asks for it past 20 degrees of pitch): up to this many samples
// along the footprint's long axis, each from the mip level its short axis picks; 1: one sample
// by the long axis, as plain mipmapping does. Done here so every driver filters alike.
uniform float u_anisotropy;
uniform vec2 u_texsize;             // the texture's size in texels

in vec2 v_pos;
out vec4 fragColor;

vec4 anisotropic(vec2 pos) {
    vec2 dx = dFdx(pos), dy = dFdy(pos);
    float lx = length(dx * u_texsize), ly = length(dy * u_texsize);
    float major = max(lx, ly), minor = max(min(lx, ly), 1e-6);
    float n = min(ceil(major / minor), u_anisotropy);
    float lambda = log2(max(major / n, 1e-6));
    // GL's nearest level for LINEAR_MIPMAP_NEAREST (level 0 when magnified).
    float level = lambda > 0.5 ? ceil(lambda + 0.5) - 1.0 : 0.0;
    vec2 axis = lx > ly ? dx : dy;
    vec4 sum = vec4(0.0);
    for (float i = 0.0; i < n; i += 1.0) {
        sum += textureLod(u_image, pos + axis * ((i + 0.5) / n - 0.5), level);
    }
    return sum / n;
}

void main() {
    vec4 color = u_anisotropy > 1.0 ? anisotropic(v_pos) : texture(u_image, v_pos);
    if (color.a > 0.0) {
        color.rgb /= color.a;
    }
    float alpha = color.a * u_opacity;
    vec3 rgb = vec3(dot(color.rgb, u_spin_weights.xyz),
                    dot(color.rgb, u_spin_weights.zxy),
                    dot(color.rgb, u_spin_weights.yzx));
    // Saturation and contrast use the color before the hue rotation, as MapLibre does.
    float average = (color.r + color.g + color.b) / 3.0;
    rgb += (average - rgb) * u_saturation_factor;
    rgb = (rgb - 0.5) * u_contrast_factor + 0.5;
    vec3 low = vec3(u_brightness_low);
    vec3 high = vec3(u_brightness_high);
    fragColor = vec4(mix(low, high, rgb) * alpha, alpha);
}
