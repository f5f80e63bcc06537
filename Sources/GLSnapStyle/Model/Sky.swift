/// The style's `sky` evaluated at one zoom: the colors and blends of MapLibre GL JS's sky (above
/// the horizon of a pitched Mercator view), fog (over terrain) and atmosphere (around the globe).
/// Colors are premultiplied, as every `Color`; blends are clamped to 0...1, the spec's range.
public struct Sky: Equatable, Sendable {
    /// The color at the top of the sky (`sky-color`, default #88C6FC).
    public var skyColor: Color
    /// The color the sky fades to at the horizon (`horizon-color`, default white).
    public var horizonColor: Color
    /// The color of the fog over terrain (`fog-color`, default white).
    public var fogColor: Color
    /// How far from the horizon the fog reaches over the ground (`fog-ground-blend`, default 0.5).
    public var fogGroundBlend: Double
    /// How much the horizon color mixes into the fog (`horizon-fog-blend`, default 0.8).
    public var horizonFogBlend: Double
    /// How far above the horizon the sky fades from `horizonColor` to `skyColor`, as a fraction
    /// of half the view's height (`sky-horizon-blend`, default 0.8).
    public var skyHorizonBlend: Double
    /// The globe's atmosphere opacity (`atmosphere-blend`, default 0.8).
    public var atmosphereBlend: Double
}

/// The style's `sky` properties, compiled once per style: constants, zoom functions and
/// expressions, `global-state` read from the state given at compile time.
public struct SkyProperties: Sendable {
    private let values: [String: PropertyValue]
    private let globalState: [String: JSON]

    /// Compiles `sky` (the style's root member); nil when it is not an object. A value that does
    /// not compile is left out, so its spec default is used (as MapLibre keeps the default).
    public init?(_ sky: JSON?, globalState: [String: JSON] = [:]) {
        guard case .object(let members)? = sky, case .object(let specs)? = StyleValidator.schema["sky"] else { return nil }
        let state = globalState.mapValues(Value.init)
        var values: [String: PropertyValue] = [:]
        for (name, json) in members {
            guard let spec = specs[name] else { continue }
            let (compiled, _) = PropertyValue.compile(json, PropertyTypeInfo(json: spec), globalState: state)
            values[name] = compiled
        }
        self.values = values
        self.globalState = globalState
    }

    /// The sky at `zoom`.
    public func evaluate(zoom: Double) -> Sky {
        var ctx = EvaluationContext(zoom: zoom)
        ctx.globalState = globalState
        func color(_ name: String, _ fallback: Color) -> Color {
            values[name].flatMap { $0.evaluate(ctx).color } ?? fallback
        }
        func blend(_ name: String, _ fallback: Double) -> Double {
            guard let n = values[name]?.evaluate(ctx).number, n.isFinite else { return fallback }
            return min(max(n, 0), 1)
        }
        return Sky(skyColor: color("sky-color", SkyProperties.defaultSkyColor),
                   horizonColor: color("horizon-color", .white),
                   fogColor: color("fog-color", .white),
                   fogGroundBlend: blend("fog-ground-blend", 0.5),
                   horizonFogBlend: blend("horizon-fog-blend", 0.8),
                   skyHorizonBlend: blend("sky-horizon-blend", 0.8),
                   atmosphereBlend: blend("atmosphere-blend", 0.8))
    }

    /// The spec's default `sky-color`, #88C6FC.
    static let defaultSkyColor = Color(r: 0x88 / 255.0, g: 0xC6 / 255.0, b: 0xFC / 255.0, a: 1)
}

extension Style {
    /// The style's `sky`, compiled with `globalState` (nil: the style's `state` defaults); nil
    /// when the style has none.
    public func skyProperties(globalState: [String: JSON]? = nil) -> SkyProperties? {
        SkyProperties(json["sky"], globalState: globalState ?? globalStateDefaults)
    }
}
