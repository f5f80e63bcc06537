uniform sampler2D u_image;
uniform vec2 u_dimension;
uniform float u_zoom;
uniform vec4 u_unpack;      // R, G, B multipliers and the offset, for 0...255 channels
// The DEM tile's pixels / 128: GL JS's newer hillshade methods scale slopes by the tile's size
// (the standard method's as if every tile were 512 pixels).
uniform float u_slope_scale;

in vec2 v_pos;
out vec4 fragColor;

float elevation(vec2 at) {
    vec4 encoded = texture(u_image, at) * 255.0;
    encoded.a = -1.0;
    return dot(encoded, u_unpack) / 4.0;
}

void main() {
    vec2 t = 1.0 / u_dimension;
    // The 3x3 neighbourhood, row by row from the north:  nw n ne / w . e / sw s se
    float nw = elevation(v_pos + vec2(-t.x, -t.y));
    float n  = elevation(v_pos + vec2(0.0, -t.y));
    float ne = elevation(v_pos + vec2(t.x, -t.y));
    float w  = elevation(v_pos + vec2(-t.x, 0.0));
    float e  = elevation(v_pos + vec2(t.x, 0.0));
    float sw = elevation(v_pos + vec2(-t.x, t.y));
    float s  = elevation(v_pos + vec2(0.0, t.y));
    float se = elevation(v_pos + vec2(t.x, t.y));
    // Sobel sums are 8 pixel widths of slope. MapLibre scales them as if every tile were 512
    // pixels (8 pixels = 2^(19.2562 - zoom) meters) and quarters the elevations; the reference
    // images follow that, whatever the tile size. Below zoom 15 the relief is exaggerated so
    // that it stays visible.
    float factor = u_zoom < 2.0 ? 0.4 : u_zoom < 4.5 ? 0.35 : 0.3;
    float exaggeration = u_zoom < 15.0 ? (u_zoom - 15.0) * factor : 0.0;
    vec2 slope = vec2((ne + e + e + se) - (nw + w + w + sw),
                      (sw + s + s + se) - (nw + n + n + ne)) / pow(2.0, exaggeration + (19.2562 - u_zoom));
    // Red and green: the standard method's slopes (up to 1); blue and alpha: the newer methods'
    // (up to 4), each encoded as GL JS encodes its own.
    fragColor = clamp(vec4(slope / 2.0 + 0.5, slope * u_slope_scale / 8.0 + 0.5), 0.0, 1.0);
}
