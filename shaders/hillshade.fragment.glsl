uniform sampler2D u_image;
uniform vec2 u_latrange;    // latitude of the tile's north and south edges
uniform vec2 u_light;       // exaggeration, azimuth (radians)
uniform vec4 u_shadow;
uniform vec4 u_highlight;
uniform vec4 u_accent;

in vec2 v_pos;
out vec4 fragColor;

const float PI = 3.141592653589793;

void main() {
    vec4 pixel = texture(u_image, v_pos);
    // Mercator stretches distances by 1/cos(latitude): undo it for the slope.
    float latitude = (u_latrange.x - u_latrange.y) * (1.0 - v_pos.y) + u_latrange.y;
    vec2 deriv = (pixel.rg * 2.0 - 1.0) / cos(radians(latitude));

    float azimuth = u_light.y + PI;
    float slope = atan(1.25 * length(deriv));
    float aspect = deriv.x != 0.0 ? atan(deriv.y, -deriv.x) : PI / 2.0 * (deriv.y > 0.0 ? 1.0 : -1.0);
    float intensity = u_light.x;
    // Exaggeration scales the slope exponentially so stronger values give more opaque shading.
    float base = 1.875 - intensity * 1.75;
    float maxSlope = 0.5 * PI;
    float scaled = intensity != 0.5 ? ((pow(base, slope) - 1.0) / (pow(base, maxSlope) - 1.0)) * maxSlope : slope;
    float strength = clamp(intensity * 2.0, 0.0, 1.0);
    vec4 accent = (1.0 - cos(scaled)) * u_accent * strength;
    float facing = abs(mod((aspect + azimuth) / PI + 0.5, 2.0) - 1.0);
    vec4 shade = mix(u_shadow, u_highlight, facing) * sin(scaled) * strength;
    fragColor = accent * (1.0 - shade.a) + shade;
}
