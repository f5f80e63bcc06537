// Extruded polygons: walls and roofs lit by the style's light (MapLibre's shading model).
in vec2 a_pos;
in vec4 a_normal_ed;   // normal * 16384 with the top flag in x's low bit; edge distance
in vec4 a_color;       // premultiplied
in float a_height;
in float a_base;
in float a_ele;       // over terrain, the ground's height at the feature's centroid (meters); else 0

uniform mat4 u_matrix;
uniform vec3 u_lightcolor;
uniform vec3 u_lightpos;
uniform float u_lightintensity;
uniform float u_vertical_gradient;
uniform float u_opacity;
uniform float u_basement;   // over terrain, meters a ground-level floor sinks below the centroid's height

out vec4 v_color;

void main() {
    vec3 normal = a_normal_ed.xyz;
    // Over terrain the whole feature stands on its centroid's ground; floors at ground level sink
    // into a basement so that they do not hang above a slope.
    float base = max(0.0, a_base) + a_ele - (a_base > 0.0 ? 0.0 : u_basement);
    float height = max(0.0, a_height) + a_ele;
    float top = mod(normal.x, 2.0);
    gl_Position = u_matrix * vec4(a_pos, top > 0.0 ? height : base, 1.0);

    vec4 color = a_color;
    // Relative luminance: light surfaces get a narrower range of shading.
    float luminance = color.r * 0.2126 + color.g * 0.7152 + color.b * 0.0722;
    // A little ambient light, so no face is entirely black.
    color += vec4(0.03, 0.03, 0.03, 1.0);
    float directional = clamp(dot(normal / 16384.0, u_lightpos), 0.0, 1.0);
    directional = mix(1.0 - u_lightintensity, max(1.0 - luminance + u_lightintensity, 1.0), directional);
    if (normal.y != 0.0) {
        // Walls: darker toward the ground with the vertical gradient, else a constant 0.84-ish factor.
        directional *= (1.0 - u_vertical_gradient) + u_vertical_gradient *
            clamp((top + base) * pow(height / 150.0, 0.5), mix(0.7, 0.98, 1.0 - u_lightintensity), 1.0);
    }
    // Shading is tinted toward the light color's complement at the low end.
    v_color = vec4(0.0, 0.0, 0.0, 1.0);
    v_color.r += clamp(color.r * directional * u_lightcolor.r, mix(0.0, 0.3, 1.0 - u_lightcolor.r), 1.0);
    v_color.g += clamp(color.g * directional * u_lightcolor.g, mix(0.0, 0.3, 1.0 - u_lightcolor.g), 1.0);
    v_color.b += clamp(color.b * directional * u_lightcolor.b, mix(0.0, 0.3, 1.0 - u_lightcolor.b), 1.0);
    v_color *= u_opacity;
}
