uniform sampler2D u_image;          // the DEM tile
uniform vec4 u_unpack;              // R, G, B multipliers and the offset, for 0...255 channels
uniform sampler2D u_elevation_stops; // the ramp's elevations, one texel each, encoded as the DEM
uniform sampler2D u_color_stops;    // the ramp's colors (premultiplied), one texel each
uniform int u_stop_count;
uniform float u_opacity;
uniform bool u_linear;              // resampling: linear (elevations interpolated) or nearest
uniform vec2 u_dimension;           // the DEM texture's size, border included

in vec2 v_pos;
out vec4 fragColor;

float decode(vec4 texel) {
    vec4 encoded = texel * 255.0;
    encoded.a = -1.0;
    return dot(encoded, u_unpack);
}

float stopElevation(int i) {
    return decode(texelFetch(u_elevation_stops, ivec2(i, 0), 0));
}

// The elevation between the four nearest texels, interpolated after decoding: filtering the
// encoded channels in 8 bits (llvmpipe) steps by a whole unit of the second channel.
float bilinearElevation(vec2 pos) {
    vec2 p = pos * u_dimension - 0.5;
    vec2 f = fract(p);
    ivec2 i = ivec2(floor(p));
    ivec2 last = ivec2(u_dimension) - 1;
    float e00 = decode(texelFetch(u_image, clamp(i, ivec2(0), last), 0));
    float e10 = decode(texelFetch(u_image, clamp(i + ivec2(1, 0), ivec2(0), last), 0));
    float e01 = decode(texelFetch(u_image, clamp(i + ivec2(0, 1), ivec2(0), last), 0));
    float e11 = decode(texelFetch(u_image, clamp(i + ivec2(1, 1), ivec2(0), last), 0));
    return mix(mix(e00, e10, f.x), mix(e01, e11, f.x), f.y);
}

void main() {
    float elevation = u_linear ? bilinearElevation(v_pos) : decode(texture(u_image, v_pos));
    // The stops around the elevation, by bisection: low <= elevation < high.
    int low = 0, high = u_stop_count - 1;
    float lowElevation = stopElevation(low), highElevation = stopElevation(high);
    while (high - low > 1) {
        int middle = (low + high) / 2;
        float e = stopElevation(middle);
        if (elevation < e) {
            high = middle;
            highElevation = e;
        } else {
            low = middle;
            lowElevation = e;
        }
    }
    // Between the two texels, linear filtering mixes their colors; past the ends, the end's color.
    float n = float(u_stop_count);
    float x = (float(low) + (elevation - lowElevation) / (highElevation - lowElevation) + 0.5) / n;
    fragColor = u_opacity * texture(u_color_stops, vec2(clamp(x, 0.5 / n, (n - 0.5) / n), 0.5));
}
