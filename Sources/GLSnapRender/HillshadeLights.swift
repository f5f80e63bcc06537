import Foundation
import GLSnapStyle

/// A hillshade layer's method and lights: `hillshade-illumination-direction`, `-altitude`,
/// `hillshade-shadow-color` and `-highlight-color` are arrays (one entry per light of the
/// multidirectional method), padded to the longest with their last entry, as GL JS pads them.
struct HillshadeLights {
    /// `hillshade-method`, numbered as the shader takes it.
    enum Method: Int32 {
        case standard = 0, combined, igor, multidirectional, basic
    }

    /// The most lights drawn (the shader's MAX_LIGHTS); further entries are left out.
    static let maxLights = 8

    var method: Method
    /// Radians, the map's bearing added when the light is anchored to the viewport.
    var azimuths: [Double]
    /// Radians above the horizon.
    var altitudes: [Double]
    var shadows: [Color]
    var highlights: [Color]
    var count: Int { azimuths.count }

    init(_ layer: HillshadeLayer, _ ctx: EvaluationContext, bearing: Double) {
        switch layer.method.evaluate(ctx) {
        case .combined: method = .combined
        case .igor: method = .igor
        case .multidirectional: method = .multidirectional
        case .basic: method = .basic
        case .standard: method = .standard
        }
        let viewport = layer.illuminationAnchor.evaluate(ctx) == .viewport
        var directions = layer.illuminationDirection.evaluate(ctx)
        var altitudes = layer.illuminationAltitude.evaluate(ctx)
        var shadows = Painter.colors(layer.shadowColor.value, ctx)
        var highlights = Painter.colors(layer.highlightColor.value, ctx)
        // Empty arrays (the spec refuses them) fall back to the spec defaults.
        if directions.isEmpty { directions = [335] }
        if altitudes.isEmpty { altitudes = [45] }
        if shadows.isEmpty { shadows = [.black] }
        if highlights.isEmpty { highlights = [Color(r: 1, g: 1, b: 1, a: 1)] }
        let n = min(HillshadeLights.maxLights, max(directions.count, altitudes.count, shadows.count, highlights.count))
        func padded<T>(_ a: [T]) -> [T] { Array((a + Array(repeating: a[a.count - 1], count: max(0, n - a.count))).prefix(n)) }
        let turn = viewport ? bearing : 0
        azimuths = padded(directions).map { ($0 + turn) * .pi / 180 }
        self.altitudes = padded(altitudes).map { $0 * .pi / 180 }
        self.shadows = padded(shadows)
        self.highlights = padded(highlights)
    }
}
