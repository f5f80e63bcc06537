// Heatmap pass 1: a Gaussian kernel per point, added into an offscreen density texture.
// a_pos packs the point and its corner as the circle buffer does: center * 2 + (extrude + 1) / 2.
in vec2 a_pos;
in float a_weight;
in float a_radius;
// Over terrain, the ground's height at the point (meters); else 0, added apart from the flat position.
in float a_ele;

uniform mat4 u_matrix;
uniform float u_extrude_scale;   // tile units per pixel
uniform float u_intensity;

out vec2 v_extrude;
out float v_weight;

// The density taken as zero, and 1 / sqrt(2 pi).
const float ZERO = 1.0 / 255.0 / 16.0;
const float GAUSS_COEF = 0.3989422804014327;

void main() {
    vec2 corner = vec2(mod(a_pos, 2.0) * 2.0 - 1.0);
    // Grow the quad until the kernel has fallen to ZERO at its edge (in units of the radius).
    float reach = sqrt(-2.0 * log(ZERO / a_weight / u_intensity / GAUSS_COEF)) / 3.0;
    v_extrude = reach * corner;
    v_weight = a_weight;
    vec2 offset = v_extrude * a_radius * u_extrude_scale;
    gl_Position = u_matrix * vec4(floor(a_pos * 0.5) + offset, 0.0, 1.0) + u_matrix[2] * a_ele;
}
