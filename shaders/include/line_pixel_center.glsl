// Wide GL lines (the fill outlines) whose endpoint lies exactly on a pixel center lose that pixel
// on Mesa's llvmpipe: its diamond-exit test and the edge it then places disagree at the tie, so
// neither the line that starts there nor the one that ends there draws it (a hole's sharp tip
// then shows a 1-pixel notch that GL JS and Native fill). Moving such a coordinate by one
// subpixel (1/256 px) breaks the tie, and the diamond exit rule then draws the pixel once, by the
// line that starts there. Coordinates off the pixel centers are left exactly as they were.
const float LINE_TIE_NUDGE = 1.0 / 256.0;

// `position` (clip space) moved off the pixel center where `window` (its framebuffer position,
// in pixels) lies exactly on one; `world` is the framebuffer size in pixels.
vec4 lineOffPixelCenter(vec4 position, vec2 window, vec2 world) {
    vec2 tie = vec2(equal(fract(window), vec2(0.5)));
    position.xy += tie * (2.0 * LINE_TIE_NUDGE) / world * position.w;
    return position;
}
