/// The style spec, read once from its one generated copy (`SpecSchema.text`, the spec's facts
/// without prose, from tools/gen-spec.py): the validator checks styles against `schema`, and style
/// loading compiles properties by `properties`, so both read the same spec.
enum SpecTables {
    /// The spec as JSON; what `validateStyle` walks.
    static let schema: JSON = {
        guard let json = try? JSON.parse(SpecSchema.text), json.objectValue != nil else {
            preconditionFailure("Generated/SpecSchema.swift does not hold a JSON object: run tools/gen-spec.py")
        }
        return json
    }()

    /// Every layout and paint property of every layer type (the spec's `layout_*` and `paint_*`
    /// groups), sorted by layer type, kind and name.
    static let properties: [PropertySpec] = {
        var out: [PropertySpec] = []
        for (group, members) in schema.objectValue ?? [:] {
            let kind: PropertyKind
            let layer: Substring
            if group.hasPrefix("layout_") { kind = .layout; layer = group.dropFirst("layout_".count) }
            else if group.hasPrefix("paint_") { kind = .paint; layer = group.dropFirst("paint_".count) }
            else { continue }
            for (name, p) in members.objectValue ?? [:] {
                out.append(PropertySpec(name: name, layerType: String(layer), kind: kind, json: p))
            }
        }
        return out.sorted { ($0.layerType, $0.kind == .layout ? 0 : 1, $0.name) < ($1.layerType, $1.kind == .layout ? 0 : 1, $1.name) }
    }()

    /// Every expression operator the spec names, in the spec's order.
    static let expressionNames: [String] = (schema["expression_name"]?["values"]?.arrayValue ?? []).compactMap(\.stringValue)
}

extension PropertySpec {
    /// One property of the schema: `p` is its spec object (`type`, `default`, `expression`, ...).
    init(name: String, layerType: String, kind: PropertyKind, json p: JSON) {
        let expression = p["expression"]
        let parameters = Set((expression?["parameters"]?.arrayValue ?? []).compactMap(\.stringValue))
        self.init(name: name, layerType: layerType, kind: kind, type: SpecValueType(json: p),
                  defaultValue: p["default"], minimum: p["minimum"]?.numberValue, maximum: p["maximum"]?.numberValue,
                  isDataDriven: parameters.contains("feature"), allowsZoom: parameters.contains("zoom"),
                  isInterpolated: expression?["interpolated"]?.boolValue == true,
                  isTransitionable: p["transition"]?.boolValue == true,
                  propertyType: p["property-type"]?.stringValue ?? "data-constant",
                  usesTokens: p["tokens"]?.boolValue == true)
    }
}

extension SpecValueType {
    /// The type of a property's spec object. tools/gen-spec.py refuses a spec with a property type
    /// not named here, so the fallback (`string`) is never taken for the committed spec.
    init(json p: JSON) {
        switch p["type"]?.stringValue ?? "" {
        case "enum": self = .enumeration((p["values"]?.arrayValue ?? []).compactMap(\.stringValue))
        case "array": self = .array(item: p["value"]?.stringValue ?? "value", length: p["length"]?.numberValue.flatMap { Int(exactly: $0) })
        case "number": self = .number
        case "boolean": self = .boolean
        case "color": self = .color
        case "formatted": self = .formatted
        case "resolvedImage": self = .resolvedImage
        case "padding": self = .padding
        case "numberArray": self = .numberArray
        case "colorArray": self = .colorArray
        case "variableAnchorOffsetCollection": self = .variableAnchorOffsetCollection
        case "projectionDefinition": self = .projectionDefinition
        default: self = .string
        }
    }
}
