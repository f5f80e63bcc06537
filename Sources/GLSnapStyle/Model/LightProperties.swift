extension Style {
    /// The `light` properties the style sets (`anchor`, `position`, `color`, `intensity`),
    /// compiled as layer properties are: constants, zoom functions and expressions, `global-state`
    /// taking the style's defaults. A value that does not compile is left out (its default is used).
    public func lightProperties() -> [String: PropertyValue] {
        guard case .object(let light)? = json["light"], case .object(let specs)? = StyleValidator.schema["light"] else { return [:] }
        let state = globalStateDefaults.mapValues(Value.init)
        var out: [String: PropertyValue] = [:]
        for (name, value) in light {
            guard let spec = specs[name] else { continue }
            let (compiled, _) = PropertyValue.compile(value, PropertyTypeInfo(json: spec), globalState: state)
            out[name] = compiled
        }
        return out
    }
}
