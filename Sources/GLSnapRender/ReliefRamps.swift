import CMesa
import GLSnapGL
import GLSnapStyle

/// A color-relief layer's ramp: `color-relief-color` sampled at its `interpolate`'s stops, as GL
/// JS samples it, into two textures of one texel per stop: the stops' elevations (packed like
/// the DEM's pixels, so the shader decodes both alike) and their premultiplied colors (drawn
/// linearly between stops). Cached per layer, style generation and DEM encoding.
struct ReliefRamp {
    /// The most stops kept; a longer ramp keeps evenly spaced ones, as GL JS does past its limit.
    static let maxStops = 256

    var elevations: [Double]
    var colors: [Color]

    init(_ color: LayerProperty<Color>) {
        let value = color.value
        var elevations = value.interpolationStops ?? []
        var ctx = EvaluationContext(zoom: 0)
        var colors = elevations.map { e -> Color in
            ctx.elevation = e
            return value.evaluateColor(ctx)
        }
        // No ramp (a constant, a step): transparent; one stop: its color everywhere.
        if elevations.isEmpty { elevations = [0]; colors = [.transparent] }
        if elevations.count == 1 { elevations.append(elevations[0] + 1); colors.append(colors[0]) }
        if elevations.count > ReliefRamp.maxStops {
            let step = Double(elevations.count - 1) / Double(ReliefRamp.maxStops - 1)
            let picks = (0..<ReliefRamp.maxStops).map { Int((Double($0) * step).rounded()) }
            elevations = picks.map { elevations[$0] }
            colors = picks.map { colors[$0] }
        }
        self.elevations = elevations
        self.colors = colors
    }

    /// An elevation as DEM bytes for `unpack` (R, G, B multipliers and the offset): the
    /// encoding's R, G and B digits of elevation + offset, each clamped to a byte.
    static func pack(_ elevation: Double, unpack: [Float]) -> [UInt8] {
        var rest = elevation + Double(unpack[3])
        var out: [UInt8] = []
        for (i, m) in unpack.prefix(3).map(Double.init).enumerated() {
            let digit = i == 2 ? (rest / m).rounded() : (rest / m).rounded(.down)
            let byte = max(0, min(255, digit.isFinite ? digit : 0))
            out.append(UInt8(byte))
            rest -= byte * m
        }
        return out + [255]
    }
}

/// The ramp textures of the color-relief layers drawn on one worker.
final class ReliefRamps {
    private var ramps: [String: (generation: Int, elevations: Texture, colors: Texture, count: Int)] = [:]

    func textures(for layer: StyleLayer, color: LayerProperty<Color>, generation: Int, unpack: [Float], context: GLContext)
        -> (elevations: Texture, colors: Texture, count: Int) {
        let key = layer.id + "\u{0}" + unpack.map { "\($0)" }.joined(separator: ",")
        if let r = ramps[key], r.generation == generation { return (r.elevations, r.colors, r.count) }
        let ramp = ReliefRamp(color)
        let n = ramp.elevations.count
        let packed = ramp.elevations.flatMap { ReliefRamp.pack($0, unpack: unpack) }
        let colors = ramp.colors.flatMap { c in [c.r, c.g, c.b, c.a].map { UInt8(max(0, min(255, ($0 * 255).rounded()))) } }
        let e = Texture(context: context, width: n, height: 1, pixels: packed, linear: false)
        let c = Texture(context: context, width: n, height: 1, pixels: colors, linear: true)
        ramps[key] = (generation, e, c, n)
        return (e, c, n)
    }
}
