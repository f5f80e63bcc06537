import CMesa
import GLSnapGL
import GLSnapStyle

/// Color ramp textures (heatmap-color, line-gradient): 256 texels of a color expression sampled
/// over its input 0...1, premultiplied. Cached per layer and style generation.
final class ColorRamps {
    static let width = 256
    private var ramps: [String: (generation: Int, texture: Texture)] = [:]

    /// What a ramp's color expression is sampled over.
    enum Input { case heatmapDensity, lineProgress }

    func texture(for layer: StyleLayer, ramp: LayerProperty<Color>, input: Input, generation: Int, context: GLContext) -> Texture {
        let key = layer.id + "\u{0}" + ramp.name
        if let r = ramps[key], r.generation == generation { return r.texture }
        var value = ramp.value
        if input == .heatmapDensity, !ramp.isSet, let d = ColorRamps.defaultHeatmapColor {
            value = d
        }
        let pixels = ColorRamps.pixels(value, input: input)
        let t = Texture(context: context, width: ColorRamps.width, height: 1, pixels: pixels, linear: true)
        ramps[key] = (generation, t)
        return t
    }

    /// The spec's default heatmap-color, an expression (the generated defaults hold constants only).
    static let defaultHeatmapColor: PropertyValue? = {
        let json = #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}}, "#
            + #""layers": [{"id": "h", "type": "heatmap", "source": "s", "paint": {"heatmap-color": ["interpolate", ["linear"], "#
            + #"["heatmap-density"], 0, "rgba(0, 0, 255, 0)", 0.1, "royalblue", 0.3, "cyan", 0.5, "lime", 0.7, "yellow", 1, "red"]}}]}"#
        return (try? Style(bytes: Array(json.utf8)))?.layers.first?.heatmap?.color.value
    }()

    /// The ramp's RGBA8 texels: the expression at heatmap-density (or line-progress) i / 255.
    static func pixels(_ value: PropertyValue, input: Input) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * 4)
        var ctx = EvaluationContext(zoom: 0)
        for i in 0..<width {
            let t = Double(i) / Double(width - 1)
            switch input {
            case .heatmapDensity: ctx.heatmapDensity = t
            case .lineProgress: ctx.lineProgress = t
            }
            let c = value.evaluateColor(ctx)
            out[i * 4] = UInt8(max(0, min(255, (c.r * 255).rounded())))
            out[i * 4 + 1] = UInt8(max(0, min(255, (c.g * 255).rounded())))
            out[i * 4 + 2] = UInt8(max(0, min(255, (c.b * 255).rounded())))
            out[i * 4 + 3] = UInt8(max(0, min(255, (c.a * 255).rounded())))
        }
        return out
    }
}
