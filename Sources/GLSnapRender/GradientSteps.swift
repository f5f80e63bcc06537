import Foundation
import GLSnapLayout
import GLSnapStyle

/// A line-gradient that is a `step` over line-progress of at most `maxCount` constant colors,
/// drawn from its steps (`u_step_count`, `u_step_starts`, `u_step_colors` of line_gradient) so
/// that each keeps its extent, however short the step or long the line, as in GL JS: it renders a
/// step gradient's ramp per tile and line piece, wide enough for the tile's longest piece, and
/// samples it nearest (`resolution`); a 256-texel ramp over the whole line blurs or skips steps.
struct GradientSteps {
    /// MAX_GRADIENT_STEPS in shaders/line_gradient.fragment.glsl.
    static let maxCount = 32
    /// Where each step starts (the first at −∞, sent as 0: it is never compared).
    let starts: [Float]
    /// Each step's color, premultiplied, four floats a step.
    let colors: [Float]
    var count: Int { starts.count }

    /// GL JS's step ramp for one tile: texels over each line piece's part of the line, from the
    /// tile's longest piece (`maxLineLength`, tile widths) at 1024 pixels a tile, times 2^(22 − z)
    /// when the tile is overscaled (GL JS: when it is at the source's maxzoom), as a power of two
    /// in 256...`maxResolution`.
    static func resolution(maxLineLength: Double, tile: CoveredTile) -> Float {
        let overzoom = tile.overscaledZoom > tile.id.z ? exp2(Double(maxZoom - tile.id.z)) : 1
        let coverage = maxLineLength * 1024 * overzoom
        let power = coverage > 0 ? exp2(ceil(log2(coverage))) : 0
        return Float(max(256, min(maxResolution, power)))
    }
    /// The largest texture GL JS makes (WebGL's usual MAX_TEXTURE_SIZE) and its map's maxZoom.
    static let maxResolution = 16384.0
    static let maxZoom = 22

    init?(_ gradient: PropertyValue) {
        guard let steps = gradient.constantSteps(over: "line-progress"), steps.count <= GradientSteps.maxCount else { return nil }
        var starts: [Float] = [], colors: [Float] = []
        for (i, step) in steps.enumerated() {
            // A step that is not a color draws nothing, as the ramp's texel would be transparent.
            let c = step.value.color ?? .transparent
            starts.append(i == 0 ? 0 : Float(step.start))
            colors += [Float(c.r), Float(c.g), Float(c.b), Float(c.a)]
        }
        self.starts = starts; self.colors = colors
    }
}
