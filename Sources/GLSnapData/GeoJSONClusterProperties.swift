import GLSnapStyle

/// A clustered GeoJSON source's `clusterProperties`: each cluster carries properties folded from
/// its points, as MapLibre's supercluster options make them. Every entry is
/// `name: [reduce, map]`: `map` is evaluated on each point's properties (zoom 0), and `reduce`
/// folds one more mapped value into the cluster's, `["accumulated"]` reading the value so far and
/// `["get", name]` the other's. A `reduce` given as an operator name (`"+"`, `"max"`, `"any"`, ...)
/// means `[operator, ["accumulated"], ["get", name]]`.
public struct GeoJSONClusterProperties: Sendable {
    struct Rule: Sendable {
        let name: String
        let map: StyleExpression
        let reduce: StyleExpression
    }
    let rules: [Rule]

    /// The entries of `json` (an object) that compile; the others are left out, as the style's
    /// validation names them (`sources.NAME.PROPERTY.map` / `.reduce`). Nil when none compile.
    public init?(_ json: JSON) {
        guard case .object(let entries) = json else { return nil }
        var rules: [Rule] = []
        for (name, value) in entries.sorted(by: { $0.key < $1.key }) {
            guard case .array(let pair) = value, pair.count == 2 else { continue }
            let reduceJSON: JSON
            if case .string = pair[0] {
                reduceJSON = .array([pair[0], .array([.string("accumulated")]), .array([.string("get"), .string(name)])])
            } else {
                reduceJSON = pair[0]
            }
            guard let map = StyleExpression.compile(pair[1], propertySpec: nil).0,
                  let reduce = StyleExpression.compile(reduceJSON, propertySpec: nil).0 else { continue }
            rules.append(Rule(name: name, map: map, reduce: reduce))
        }
        guard !rules.isEmpty else { return nil }
        self.rules = rules
    }

    /// The mapped values of one point's properties (a value whose expression fails is null).
    func map(_ properties: [String: JSON]) -> [String: JSON] {
        let feature = ClusterPropertyFeature(properties: properties)
        var out: [String: JSON] = [:]
        for rule in rules {
            out[rule.name] = (try? rule.map.evaluate(EvaluationContext(zoom: 0, feature: feature)))?.json ?? .null
        }
        return out
    }

    /// Folds `other` (mapped values of a point or a cluster's folded values) into `accumulated`.
    func reduce(_ accumulated: inout [String: JSON], _ other: [String: JSON]) {
        let feature = ClusterPropertyFeature(properties: other)
        for rule in rules {
            var ctx = EvaluationContext(zoom: 0, feature: feature)
            ctx.accumulated = accumulated[rule.name] ?? .null
            accumulated[rule.name] = (try? rule.reduce.evaluate(ctx))?.json ?? .null
        }
    }
}

/// The properties a map or reduce expression reads (`get`, `has`, `properties`).
private struct ClusterPropertyFeature: FeatureContext {
    let properties: [String: JSON]
    var geometryType: GeometryType { .point }
    var featureID: JSON? { nil }
    func property(_ key: String) -> JSON? { properties[key] }
    func tileGeometry() -> [[GeometryPoint]]? { nil }
}
