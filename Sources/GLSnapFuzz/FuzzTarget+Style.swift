import GLSnapStyle

extension FuzzTarget {
    static func json(_ bytes: [UInt8]) {
        _ = try? JSON.parse(bytes)
        _ = try? JSON.parseWithLines(bytes)
    }

    static func style(_ bytes: [UInt8]) {
        _ = validateStyle(bytes)
        _ = try? Style(bytes: bytes)
    }

    /// The input is an expression, or an expression-suite case (`{"expression", "propertySpec",
    /// "inputs": [[globals, feature], ...]}`); it is compiled, then evaluated on each input (or at
    /// zoom 0 with no feature).
    static func expression(_ bytes: [UInt8]) {
        guard let json = try? JSON.parse(bytes) else { return }
        let isCase = json["expression"] != nil
        let expression = isCase ? json["expression"] ?? .null : json
        let (compiled, _) = StyleExpression.compile(expression, propertySpec: isCase ? json["propertySpec"] : nil)
        guard let compiled else { return }
        let inputs = json["inputs"]?.arrayValue ?? [.array([.object([:]), .object([:])])]
        for input in inputs.prefix(16) {
            guard let pair = input.arrayValue, pair.count == 2 else { continue }
            var canonical: CanonicalTileID?
            if let c = pair[0]["canonicalID"], let z = c["z"]?.numberValue, let x = c["x"]?.numberValue, let y = c["y"]?.numberValue,
               (0...24).contains(z), x >= 0, y >= 0, x < 1e7, y < 1e7 {
                canonical = CanonicalTileID(z: Int(z), x: Int(x), y: Int(y))
            }
            var context = EvaluationContext(zoom: pair[0]["zoom"]?.numberValue ?? 0,
                                            feature: StyleExpression.feature(fromJSON: pair[1], canonicalID: canonical))
            context.canonicalID = canonical
            context.heatmapDensity = pair[0]["heatmapDensity"]?.numberValue
            context.featureState = pair[1]["featureState"]?.objectValue ?? [:]
            _ = try? compiled.evaluate(context)
        }
    }
}
