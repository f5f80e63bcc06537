extension Style {
    /// The `sky` properties the terrain's fog reads (`fog-color`, `horizon-color`, `fog-ground-blend`,
    /// `horizon-fog-blend`) that the style sets, compiled as layer properties are (zoom functions,
    /// expressions, `global-state` read from `globalState`); nil when the style has no `sky`. A value
    /// that does not compile is left out (its default is used).
    public func terrainFogProperties(globalState: [String: JSON]) -> [String: PropertyValue]? {
        guard case .object(let sky)? = json["sky"] else { return nil }
        guard case .object(let specs)? = StyleValidator.schema["sky"] else { return [:] }
        let state = globalState.mapValues(Value.init)
        var out: [String: PropertyValue] = [:]
        for name in ["fog-color", "horizon-color", "fog-ground-blend", "horizon-fog-blend"] {
            guard let value = sky[name], let spec = specs[name] else { continue }
            let (compiled, _) = PropertyValue.compile(value, PropertyTypeInfo(json: spec), globalState: state)
            out[name] = compiled
        }
        return out
    }
}
