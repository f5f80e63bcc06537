uniform sampler2D u_image;   // the layer, premultiplied, the frame's size
uniform float u_opacity;

out vec4 fragColor;

void main() {
    // Pixel for pixel: the target has the frame's size and orientation.
    fragColor = texelFetch(u_image, ivec2(gl_FragCoord.xy), 0) * u_opacity;
}
