// The sky above the horizon line (framebuffer pixels, y up): horizon color at the line, sky
// color from u_sky_horizon_blend pixels above it, a quadratic ease between (GL JS's sky).
// Below the line nothing is drawn (the ground is drawn over it).
uniform vec4 u_sky_color;       // premultiplied
uniform vec4 u_horizon_color;   // premultiplied
uniform vec2 u_horizon;         // a point of the line
uniform vec2 u_horizon_normal;  // unit, towards the sky
uniform float u_sky_horizon_blend;

out vec4 fragColor;

void main() {
    float above = dot(gl_FragCoord.xy - u_horizon, u_horizon_normal);
    if (above <= 0.0) {
        discard;
    }
    if (above >= u_sky_horizon_blend) {
        fragColor = u_sky_color;
    } else {
        float t = 1.0 - above / u_sky_horizon_blend;
        fragColor = mix(u_sky_color, u_horizon_color, t * t);
    }
}
