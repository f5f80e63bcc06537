// raster-* paint: hue rotation, saturation, contrast, then brightness bounds, on unpremultiplied color.
uniform sampler2D u_image;
uniform float u_opacity;
uniform float u_brightness_low;
uniform float u_brightness_high;
uniform float u_saturation_factor;
uniform float u_contrast_factor;
uniform vec3 u_spin_weights;

in vec2 v_pos;
out vec4 fragColor;

void main() {
    vec4 color = texture(u_image, v_pos);
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
