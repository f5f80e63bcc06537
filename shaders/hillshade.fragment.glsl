uniform sampler2D u_image;
uniform vec2 u_latrange;    // latitude of the tile's north and south edges
uniform vec2 u_light;       // exaggeration, azimuth of the first light (radians)
uniform vec4 u_shadow;
uniform vec4 u_highlight;
uniform vec4 u_accent;
// hillshade-method: 0 standard, 1 combined, 2 igor, 3 multidirectional, 4 basic.
uniform int u_method;
// The lights of hillshade-illumination-*, padded to the same count (MAX_LIGHTS at most).
const int MAX_LIGHTS = 8;
uniform int u_light_count;
uniform float u_altitudes[MAX_LIGHTS];
uniform float u_azimuths[MAX_LIGHTS];
uniform vec4 u_shadows[MAX_LIGHTS];
uniform vec4 u_highlights[MAX_LIGHTS];

in vec2 v_pos;
out vec4 fragColor;

const float PI = 3.141592653589793;

float aspectOf(vec2 deriv) {
    return deriv.x != 0.0 ? atan(deriv.y, -deriv.x) : PI / 2.0 * (deriv.y > 0.0 ? 1.0 : -1.0);
}

vec4 standardShade(vec2 deriv) {
    float azimuth = u_light.y + PI;
    float slope = atan(1.25 * length(deriv));
    float aspect = aspectOf(deriv);
    float intensity = u_light.x;
    // Exaggeration scales the slope exponentially so stronger values give more opaque shading.
    float base = 1.875 - intensity * 1.75;
    float maxSlope = 0.5 * PI;
    float scaled = intensity != 0.5 ? ((pow(base, slope) - 1.0) / (pow(base, maxSlope) - 1.0)) * maxSlope : slope;
    float strength = clamp(intensity * 2.0, 0.0, 1.0);
    vec4 accent = (1.0 - cos(scaled)) * u_accent * strength;
    float facing = abs(mod((aspect + azimuth) / PI + 0.5, 2.0) - 1.0);
    vec4 shade = mix(u_shadow, u_highlight, facing) * sin(scaled) * strength;
    return accent * (1.0 - shade.a) + shade;
}

// The cosine of the angle between the surface normal and light i.
float illumination(vec2 deriv, int i) {
    float cosAz = -cos(u_azimuths[i]), sinAz = -sin(u_azimuths[i]);
    float cosAlt = cos(u_altitudes[i]), sinAlt = sin(u_altitudes[i]);
    return (sinAlt - (deriv.y * cosAz * cosAlt - deriv.x * sinAz * cosAlt)) / sqrt(1.0 + dot(deriv, deriv));
}

// GDAL's hillshade, from the shadow color through transparent (a flat slope) to the highlight.
vec4 basicShade(vec2 deriv, int i) {
    float shade = clamp(illumination(deriv, i), 0.0, 1.0);
    return shade > 0.5 ? u_highlights[i] * (2.0 * shade - 1.0) : u_shadows[i] * (1.0 - 2.0 * shade);
}

// GDAL's combined shading: the light's angle times the slope.
vec4 combinedShade(vec2 deriv) {
    float angle = clamp(acos(clamp(illumination(deriv, 0), -1.0, 1.0)), 0.0, PI / 2.0);
    float steepness = atan(length(deriv)) * 4.0 / PI / PI;
    return u_shadows[0] * angle * steepness + u_highlights[0] * (PI / 2.0 - angle) * steepness;
}

// GDAL's Igor shading: the slope's strength split by how far it faces away from the light.
vec4 igorShade(vec2 deriv) {
    float facing = 1.0 - abs(mod((aspectOf(deriv) + u_azimuths[0] + PI) / PI + 0.5, 2.0) - 1.0);
    float steepness = atan(length(deriv)) * 2.0 / PI;
    return u_shadows[0] * steepness * facing + u_highlights[0] * steepness * (1.0 - facing);
}

void main() {
    vec4 pixel = texture(u_image, v_pos);
    // Mercator stretches distances by 1/cos(latitude): undo it for the slope.
    float latitude = (u_latrange.x - u_latrange.y) * (1.0 - v_pos.y) + u_latrange.y;
    float scale = cos(radians(latitude));
    if (u_method == 0) {
        fragColor = standardShade((pixel.rg * 2.0 - 1.0) / scale);
        return;
    }
    // The newer methods take the exaggeration as a factor (0.5, the default, leaves slopes as they are).
    vec2 deriv = (pixel.ba * 8.0 - 4.0) / scale * u_light.x * 2.0;
    if (u_method == 1) {
        fragColor = combinedShade(deriv);
    } else if (u_method == 2) {
        fragColor = igorShade(deriv);
    } else if (u_method == 3) {
        vec4 sum = vec4(0.0);
        for (int i = 0; i < u_light_count; i++) sum += basicShade(deriv, i);
        fragColor = sum / float(u_light_count);
    } else {
        fragColor = basicShade(deriv, 0);
    }
}
