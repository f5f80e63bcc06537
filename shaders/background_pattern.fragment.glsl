uniform sampler2D u_image;
uniform vec2 u_texsize;
uniform vec4 u_pattern;     // the image in the atlas: top-left xy, bottom-right zw (texels)
uniform float u_opacity;

in vec2 v_pos;
out vec4 fragColor;

void main() {
    vec2 coord = mix(u_pattern.xy, u_pattern.zw, fract(v_pos)) / u_texsize;
    fragColor = texture(u_image, coord) * u_opacity;
}
