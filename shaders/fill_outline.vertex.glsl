// Fill outlines (fill-antialias): 1-pixel lines faded by their distance to the pixel center.
in vec2 a_pos;
in vec4 a_outline_color;  // premultiplied
in float a_opacity;
uniform mat4 u_matrix;
uniform vec2 u_world;     // framebuffer size in pixels

out vec2 v_pos;
out vec4 v_color;

#include "include/line_pixel_center.glsl"

void main() {
    v_color = a_outline_color * a_opacity;
    gl_Position = u_matrix * vec4(a_pos, 0.0, 1.0);
    v_pos = (gl_Position.xy / gl_Position.w + 1.0) / 2.0 * u_world;
    gl_Position = lineOffPixelCenter(gl_Position, v_pos, u_world);
}
