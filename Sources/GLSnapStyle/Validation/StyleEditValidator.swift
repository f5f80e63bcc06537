/// Checks of single runtime-styling edits, as MapLibre's `map.setPaintProperty`, `addLayer`,
/// `addSource`, `setLight` and the others check theirs: the reference validator's rules and
/// wording, reported under the edit's path (`layers.water.paint.fill-color`).
public enum StyleEditValidator {
    /// Root members an edit may set (the layers do not depend on them).
    public static let rootMembers: Set<String> = ["light", "sky", "terrain", "projection", "transition"]

    /// A paint or layout property's value for a layer of `layerType`; an unknown name is a problem.
    public static func property(_ name: String, _ value: JSON, kind: PropertyKind, layerType: String, path: String) -> [StyleProblem] {
        let v = StyleValidator(style: .object([:]), lines: JSONLineMap())
        v.validateProperty(ValidationNode(value, key: path), name: name, kind: kind, layerType: layerType)
        return v.problems
    }

    /// A filter (an expression or a legacy filter).
    public static func filter(_ value: JSON, path: String) -> [StyleProblem] {
        let v = StyleValidator(style: .object([:]), lines: JSONLineMap())
        v.validateFilter(ValidationNode(value, key: path))
        return v.problems
    }

    /// A whole layer, against the sources (and, for `ref`, the layers) of `style`.
    public static func layer(_ document: JSON, in style: JSON) -> [StyleProblem] {
        let id = document["id"]?.stringValue ?? "?"
        let v = StyleValidator(style: style, lines: JSONLineMap())
        v.validateLayer(ValidationNode(document, key: "layers.\(id)"), index: nil)
        return v.problems
    }

    /// A source definition.
    public static func source(_ id: String, _ definition: JSON) -> [StyleProblem] {
        let v = StyleValidator(style: .object([:]), lines: JSONLineMap())
        v.validateSource(ValidationNode(definition, key: "sources.\(id)"))
        return v.problems
    }

    /// A root member (`light`, `sky`, `terrain`, `projection`, `transition`).
    public static func rootMember(_ name: String, _ value: JSON) -> [StyleProblem] {
        let v = StyleValidator(style: .object([:]), lines: JSONLineMap())
        guard let spec = v.spec["$root"]?[name] else {
            return [StyleProblem(path: name, message: "unknown property \"\(name)\"")]
        }
        v.validate(ValidationNode(value, key: name), spec)
        return v.problems
    }
}
