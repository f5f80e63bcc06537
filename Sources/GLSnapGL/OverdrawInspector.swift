/// The overdraw inspector's blending, as GL JS's `colorModeForRenderPass` and MapLibre Native's
/// `MapDebugOptions::Overdraw` set it: each fragment (its shader's output forced to white) adds
/// 1/8 to red, green and blue and leaves alpha alone, so over an opaque black clear a pixel's grey
/// level counts the fragments drawn on it (32 per fragment in 8 bits, white from 8 on).
extension ColorMode {
    /// How many fragments turn a pixel white.
    public static let overdrawSteps: Float = 8

    /// Source times the constant (1/8, 1/8, 1/8, 0) plus the destination.
    public static let overdrawCounting: ColorMode = {
        var mode = ColorMode(blend: Blend(source: .constantColor, destination: .one), mask: .all)
        let step = 1 / overdrawSteps
        mode.constant = SIMD4(step, step, step, 0)
        return mode
    }()
}

extension DrawModes {
    /// These modes with the layers' blending (`.alphaBlended`, and `.unblended` of opaque fills:
    /// GL JS's render-pass color modes) counting fragments instead; other blending (a heatmap's
    /// density sums, a stencil write) is kept, as GL JS keeps those passes' own color modes. An
    /// offscreen copy (hillshade's prepared slopes) is counted too, which changes nothing drawn:
    /// the inspector's programs write white whatever they read.
    public var countingOverdraw: DrawModes {
        guard color == .alphaBlended || color == .unblended else { return self }
        var modes = self
        modes.color = .overdrawCounting
        return modes
    }
}
