uniform sampler2D u_image;   // the pattern atlas, premultiplied
uniform vec2 u_texsize;

in vec2 v_pos;
in vec4 v_pattern;
in float v_opacity;

out vec4 fragColor;

void main() {
    if (v_pattern.z <= v_pattern.x) discard;   // the feature's image is missing
    vec2 coord = mix(v_pattern.xy, v_pattern.zw, fract(v_pos)) / u_texsize;
    fragColor = texture(u_image, coord) * v_opacity;
}
