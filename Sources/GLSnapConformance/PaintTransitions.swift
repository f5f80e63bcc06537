import Foundation
import GLSnapStyle

/// Paint and light transitions of the GL harness's runtime styling, on its fake clock: a
/// `setPaintProperty` or `setLight` starts a transition from the value shown to the new one, over
/// the property's `<name>-transition` (else the style's `transition`, else 300 ms, no delay);
/// `["wait", ms]` moves the clock; a plain `["wait"]` runs every transition to its end. Before
/// drawing, a transition still under way sets the property to its value at that
/// moment (numbers, number arrays and colors; other values jump to the end).
package struct PaintTransitions {
    /// A property in transition: a layer's paint property, or (layer nil) a light property.
    package struct Key: Hashable {
        package var layer: String?
        package var name: String
    }

    package struct Transition {
        package var from: JSON
        package var to: JSON
        package var begin: Double
        package var duration: Double
        /// Whether the clock moved (by a numeric wait) since the transition started; one that
        /// no wait has observed draws its end value, as before transitions existed.
        package var observed = false
    }

    private(set) var now = 0.0
    private var running: [Key: Transition] = [:]

    /// Defaults of the light's transitionable properties (MapLibre's).
    package static let lightDefaults: [String: JSON] = [
        "position": .array([.number(1.15), .number(210), .number(30)]),
        "color": .string("#ffffff"),
        "intensity": .number(0.5),
    ]

    package mutating func wait(_ milliseconds: Double?) {
        guard let milliseconds else { running.removeAll(); return }
        now += max(0, milliseconds)
        for key in running.keys { running[key]?.observed = true }
    }

    /// Records a paint change; call with the document before the change is applied.
    package mutating func paintChanged(layer: String, name: String, to value: JSON, in document: JSON) {
        guard !name.hasSuffix("-transition"),
              let object = PaintTransitions.layer(layer, in: document),
              let type = object["type"]?.stringValue else { return }
        let key = Key(layer: layer, name: name)
        let prior = object["paint"]?[name] ?? PropertySpec.find(layer: type, kind: .paint, name: name)?.defaultValue
        let options = object["paint"]?[name + "-transition"]
        start(key, from: shown(key, prior), to: value, options: options, document: document)
    }

    /// Records a `setLight`; call with the document before the change is applied.
    package mutating func lightChanged(_ light: [String: JSON], in document: JSON) {
        for (name, value) in light where !name.hasSuffix("-transition") {
            let key = Key(layer: nil, name: name)
            let prior = document["light"]?[name] ?? PaintTransitions.lightDefaults[name]
            start(key, from: shown(key, prior), to: value, options: document["light"]?[name + "-transition"], document: document)
        }
    }

    private func shown(_ key: Key, _ prior: JSON?) -> JSON? {
        if let t = running[key] { return value(t) }
        return prior
    }

    private mutating func start(_ key: Key, from: JSON?, to: JSON, options: JSON?, document: JSON) {
        let global = document["transition"]
        let duration = options?["duration"]?.finiteNumber ?? global?["duration"]?.finiteNumber ?? 300
        let delay = options?["delay"]?.finiteNumber ?? global?["delay"]?.finiteNumber ?? 0
        guard let from, duration > 0 || delay > 0 else { running[key] = nil; return }
        running[key] = Transition(from: from, to: to, begin: now + max(0, delay), duration: max(0, duration))
    }

    /// The value each transition under way shows now (the runner sets them before drawing).
    package func current() -> [(key: Key, value: JSON)] {
        running.filter { $0.value.observed }.map { ($0.key, value($0.value)) }
            .sorted { ($0.key.layer ?? "", $0.key.name) < ($1.key.layer ?? "", $1.key.name) }
    }

    /// The value a transition shows now.
    private func value(_ t: Transition) -> JSON {
        if now < t.begin { return t.from }
        guard t.duration > 0, now < t.begin + t.duration else { return t.to }
        let progress = PaintTransitions.easeCubicInOut((now - t.begin) / t.duration)
        return PaintTransitions.interpolate(t.from, t.to, progress) ?? t.to
    }

    /// Numbers, arrays of numbers and colors (premultiplied, as MapLibre mixes them); nil otherwise.
    package static func interpolate(_ a: JSON, _ b: JSON, _ t: Double) -> JSON? {
        if let x = a.finiteNumber, let y = b.finiteNumber { return .number(x + (y - x) * t) }
        if let xs = a.arrayValue, let ys = b.arrayValue, xs.count == ys.count {
            var out: [JSON] = []
            for (x, y) in zip(xs, ys) {
                guard let x = x.finiteNumber, let y = y.finiteNumber else { return nil }
                out.append(.number(x + (y - x) * t))
            }
            return .array(out)
        }
        if let x = a.stringValue.flatMap(Color.parse), let y = b.stringValue.flatMap(Color.parse) {
            let c = Color(r: x.r + (y.r - x.r) * t, g: x.g + (y.g - x.g) * t, b: x.b + (y.b - x.b) * t, a: x.a + (y.a - x.a) * t)
            return .string(c.cssString)
        }
        return nil
    }

    /// MapLibre's transition easing, the cubic Bézier (0.42, 0, 0.58, 1).
    package static func easeCubicInOut(_ t: Double) -> Double {
        let x = min(1, max(0, t))
        // Solve bx(s) = x for s by bisection (bx is increasing), then return by(s).
        func bezier(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<40 {
            let mid = (lo + hi) / 2
            if bezier(0.42, 0.58, mid) < x { lo = mid } else { hi = mid }
        }
        return bezier(0, 1, (lo + hi) / 2)
    }

    private static func layer(_ id: String, in document: JSON) -> JSON? {
        document["layers"]?.arrayValue?.first { $0["id"]?.stringValue == id }
    }
}
