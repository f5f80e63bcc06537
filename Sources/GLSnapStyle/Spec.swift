/// Where a property lives in a layer.
public enum PropertyKind: Sendable { case layout, paint }

/// The value type of a style property, as the spec declares it.
public enum SpecValueType: Sendable, Equatable {
    case number, string, boolean, color, formatted, resolvedImage, padding
    case numberArray, colorArray, variableAnchorOffsetCollection, projectionDefinition
    /// An enum property with its allowed values.
    case enumeration([String])
    /// A fixed- or free-length array; `item` is the spec's item type name ("number", "string", "enum").
    case array(item: String, length: Int?)
}

/// One layout or paint property of one layer type, from the spec tables.
public struct PropertySpec: Sendable {
    public let name: String
    public let layerType: String
    public let kind: PropertyKind
    public let type: SpecValueType
    /// The spec default; nil for properties without one (e.g. `*-sort-key`).
    public let defaultValue: JSON?
    public let minimum: Double?
    public let maximum: Double?
    /// Whether feature data may drive the value.
    public let isDataDriven: Bool
    /// Whether zoom expressions are allowed.
    public let allowsZoom: Bool
    /// Whether `interpolate` may produce the value.
    public let isInterpolated: Bool
    public let isTransitionable: Bool
    /// The spec's `property-type` ("data-driven", "data-constant", "color-ramp", ...).
    public let propertyType: String
    /// Whether `{token}` strings are expanded (text-field, icon-image).
    public let usesTokens: Bool

    /// Looks up a property by layer type, kind and name.
    public static func find(layer: String, kind: PropertyKind, name: String) -> PropertySpec? {
        SpecIndex.byKey[SpecIndex.key(layer, kind, name)]
    }
}

enum SpecIndex {
    static func key(_ layer: String, _ kind: PropertyKind, _ name: String) -> String {
        "\(layer)/\(kind == .layout ? "l" : "p")/\(name)"
    }
    static let byKey: [String: PropertySpec] = {
        var d: [String: PropertySpec] = [:]
        for p in SpecTables.properties { d[key(p.layerType, p.kind, p.name)] = p }
        return d
    }()
}
