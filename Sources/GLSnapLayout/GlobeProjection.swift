import Foundation
import GLSnapStyle

/// The style's `projection` read as GL JS 6 reads it: how much globe (1) or flat Mercator (0)
/// the map is at a zoom.
///
/// `type` is `"mercator"`, `"vertical-perspective"` (the globe), `"globe"` (GL JS's shorthand for
/// `["interpolate", ["linear"], ["zoom"], 11, "vertical-perspective", 12, "mercator"]`), or an
/// expression over the zoom: `interpolate` (linear or exponential) and `step` with these names as
/// outputs, and `global-state` naming a `state` entry whose default is one of them.
public enum GlobeProjection {
    /// GL JS's `"globe"`: the globe up to zoom 11, the flat map from zoom 12.
    static let globeStops: [(zoom: Double, globeness: Double)] = [(11, 1), (12, 0)]

    /// How much globe `projection` (the style's root member; nil: Mercator) is at `zoom`, 0...1.
    /// `state` is the style's root `state` (global-state defaults). A value it cannot read is
    /// Mercator, and `problem(_:)` names it.
    public static func globeness(_ projection: JSON?, zoom: Double, state: JSON? = nil) -> Double {
        guard let type = projection?["type"] else { return 0 }
        return evaluate(type, zoom: zoom, state: state, depth: 0) ?? 0
    }

    /// Why `projection` cannot be read, or nil where it can.
    public static func problem(_ projection: JSON?, state: JSON? = nil) -> String? {
        guard let type = projection?["type"] else { return nil }
        return evaluate(type, zoom: 0, state: state, depth: 0) == nil
            ? "projection type \(type.text) is not one glsnap reads (mercator, globe, vertical-perspective, or interpolate/step by zoom over them); drawn in Mercator"
            : nil
    }

    private static func named(_ name: String, zoom: Double) -> Double? {
        switch name {
        case "mercator": return 0
        case "vertical-perspective": return 1
        case "globe": return stops(globeStops, zoom: zoom, base: 1)
        default: return nil
        }
    }

    private static func evaluate(_ value: JSON, zoom: Double, state: JSON?, depth: Int) -> Double? {
        guard depth < 8 else { return nil }
        if let s = value.stringValue { return named(s, zoom: zoom) }
        guard let a = value.arrayValue, let op = a.first?.stringValue else { return nil }
        switch op {
        case "literal" where a.count == 2:
            return evaluate(a[1], zoom: zoom, state: state, depth: depth + 1)
        case "global-state" where a.count == 2:
            guard let key = a[1].stringValue, let d = state?[key]?["default"] else { return nil }
            return evaluate(d, zoom: zoom, state: state, depth: depth + 1)
        case "interpolate" where a.count >= 5 && a.count % 2 == 1 && isZoom(a[2]):
            guard let kind = a[1].arrayValue?.first?.stringValue else { return nil }
            let base: Double
            switch kind {
            case "linear": base = 1
            case "exponential": guard let b = a[1].arrayValue?.dropFirst().first?.numberValue, b > 0 else { return nil }; base = b
            default: return nil
            }
            var s: [(zoom: Double, globeness: Double)] = []
            for i in stride(from: 3, to: a.count, by: 2) {
                guard let z = a[i].numberValue, let g = evaluate(a[i + 1], zoom: zoom, state: state, depth: depth + 1),
                      s.last.map({ $0.zoom < z }) ?? true else { return nil }
                s.append((z, g))
            }
            return stops(s, zoom: zoom, base: base)
        case "step" where a.count >= 3 && a.count % 2 == 1 && isZoom(a[1]):
            guard var out = evaluate(a[2], zoom: zoom, state: state, depth: depth + 1) else { return nil }
            for i in stride(from: 3, to: a.count, by: 2) {
                guard let z = a[i].numberValue, let g = evaluate(a[i + 1], zoom: zoom, state: state, depth: depth + 1) else { return nil }
                if zoom >= z { out = g }
            }
            return out
        default:
            return nil
        }
    }

    private static func isZoom(_ v: JSON) -> Bool { v.arrayValue?.count == 1 && v.arrayValue?.first?.stringValue == "zoom" }

    /// Piecewise interpolation of globeness over ascending zoom stops.
    private static func stops(_ s: [(zoom: Double, globeness: Double)], zoom: Double, base: Double) -> Double {
        guard let first = s.first, let last = s.last else { return 0 }
        if zoom <= first.zoom { return first.globeness }
        if zoom >= last.zoom { return last.globeness }
        for i in 1..<s.count where zoom < s[i].zoom {
            let a = s[i - 1], b = s[i]
            let span = b.zoom - a.zoom, progress = zoom - a.zoom
            let t = base == 1 ? progress / span : (pow(base, progress) - 1) / (pow(base, span) - 1)
            return a.globeness + (b.globeness - a.globeness) * t
        }
        return last.globeness
    }
}
