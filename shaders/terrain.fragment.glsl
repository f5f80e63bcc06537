// The tile's draped layers (drawn flat into a texture, premultiplied), faded into the sky's fog
// color and horizon color with the distance past the map's center, as GL JS's terrain shader.
uniform sampler2D u_texture;
uniform vec4 u_fog_color;
uniform vec4 u_horizon_color;
uniform float u_fog_ground_blend;
uniform float u_fog_ground_blend_opacity;
uniform float u_horizon_fog_blend;

in vec2 v_texture_pos;
in float v_fog_depth;

out vec4 fragColor;

vec4 toLinear(vec4 c) { return pow(c, vec4(2.2)); }
vec4 toGamma(vec4 c) { return pow(c, vec4(1.0 / 2.2)); }

void main() {
    // The texture's first row is the tile's south edge.
    vec4 surface = texture(u_texture, vec2(v_texture_pos.x, 1.0 - v_texture_pos.y));
    float depth = clamp(v_fog_depth, 0.0, 1.0);
    if (depth > u_fog_ground_blend) {
        float toHorizon = smoothstep(0.0, 1.0, max((depth - u_horizon_fog_blend) / (1.0 - u_horizon_fog_blend), 0.0));
        vec4 fog = mix(toLinear(u_fog_color), toLinear(u_horizon_color), toHorizon);
        float amount = max(depth - u_fog_ground_blend, 0.0) / (1.0 - u_fog_ground_blend);
        fragColor = toGamma(mix(toLinear(surface), fog, amount * amount * u_fog_ground_blend_opacity));
    } else {
        fragColor = surface;
    }
}
