uniform sampler2D u_image;          // the DEM tile
uniform vec4 u_unpack;              // R, G, B multipliers and the offset, for 0...255 channels
uniform sampler2D u_elevation_stops; // the ramp's elevations, one texel each, encoded as the DEM
uniform sampler2D u_color_stops;    // the ramp's colors (premultiplied), one texel each
uniform int u_stop_count;
uniform float u_opacity;

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

void main() {
    float elevation = decode(texture(u_image, v_pos));
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
