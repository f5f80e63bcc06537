// fill-extrusion-pattern: extrusions as in fill_extrusion.vertex.glsl, with the image on roofs
// in map space (as fill-pattern) and on walls along the edge distance and the height.
in vec2 a_pos;
in vec4 a_normal_ed;     // normal * 16384 with the top flag in x's low bit; edge distance
in float a_height;
in float a_base;
in vec4 a_pattern;       // the image in the atlas: top-left xy, bottom-right zw (texels)
in float a_pixel_ratio;

uniform mat4 u_matrix;
uniform vec2 u_pixel_coord_upper;
uniform vec2 u_pixel_coord_lower;
uniform float u_tile_units_to_pixels;
uniform float u_height_factor;      // meters to tile units along walls, negated (up the image)
uniform vec3 u_lightcolor;
uniform vec3 u_lightpos;
uniform float u_lightintensity;
uniform float u_vertical_gradient;
uniform float u_opacity;

out vec2 v_pos;
out vec4 v_pattern;
out vec4 v_lighting;

vec2 pattern_pos(vec2 size, vec2 pos) {
    vec2 offset = mod(mod(mod(u_pixel_coord_upper, size) * 256.0, size) * 256.0 + u_pixel_coord_lower, size);
    return (u_tile_units_to_pixels * pos + offset) / size;
}

void main() {
    vec3 normal = a_normal_ed.xyz;
    float edgedistance = a_normal_ed.w;
    float base = max(0.0, a_base);
    float height = max(0.0, a_height);
    float top = mod(normal.x, 2.0);
    float z = top > 0.0 ? height : base;
    gl_Position = u_matrix * vec4(a_pos, z, 1.0);

    vec2 size = max((a_pattern.zw - a_pattern.xy) / a_pixel_ratio, vec2(1e-6));
    bool roof = normal.x == 1.0 && normal.y == 0.0 && normal.z == 16384.0;
    v_pos = pattern_pos(size, roof ? a_pos : vec2(edgedistance, z * u_height_factor));
    v_pattern = a_pattern;

    float directional = clamp(dot(normal / 16383.0, u_lightpos), 0.0, 1.0);
    directional = mix(1.0 - u_lightintensity, max(0.5 + u_lightintensity, 1.0), directional);
    if (normal.y != 0.0) {
        directional *= (1.0 - u_vertical_gradient) + u_vertical_gradient *
            clamp((top + base) * pow(height / 150.0, 0.5), mix(0.7, 0.98, 1.0 - u_lightintensity), 1.0);
    }
    v_lighting = vec4(0.0, 0.0, 0.0, 1.0);
    v_lighting.rgb += clamp(directional * u_lightcolor, mix(vec3(0.0), vec3(0.3), 1.0 - u_lightcolor), vec3(1.0));
    v_lighting *= u_opacity;
}
