/// One style layer with its compiled filter and properties.
public struct StyleLayer: Sendable {
    public var id: String
    public var type: LayerType
    public var source: String?
    public var sourceLayer: String?
    public var minzoom: Double?
    public var maxzoom: Double?
    /// `layout.visibility` is not "none".
    public var visible: Bool
    public var filter: Filter?
    /// What MapLibre groups layers by to share one bucket (type, source, source layer, zoom range,
    /// filter and layout, as written): symbol layers equal here share their placement.
    public var layoutGroup: JSON
    /// The layer's properties, typed by its layer type (`layer.line?.width`, or a `switch` over it).
    public let typed: TypedLayer
    var paintValues: [String: PropertyValue]
    var layoutValues: [String: PropertyValue]

    init?(json: JSON, path: String, sources: [String: JSON], globalState: [String: Value] = [:], problems: inout [StyleProblem]) {
        guard case .object(let o) = json else {
            problems.append(StyleProblem(path: path, message: "a layer must be an object"))
            return nil
        }
        guard let id = o["id"]?.stringValue else {
            problems.append(StyleProblem(path: "\(path).id", message: "missing required property \"id\" (a string)"))
            return nil
        }
        guard let typeName = o["type"]?.stringValue, let type = LayerType(rawValue: typeName) else {
            problems.append(StyleProblem(path: "\(path).type", message: "layer \"\(id)\" has a missing or unknown type"))
            return nil
        }
        self.id = id
        self.type = type
        layoutGroup = .array(["type", "source", "source-layer", "minzoom", "maxzoom", "filter", "layout"].map { o[$0] ?? .null })
        source = o["source"]?.stringValue
        sourceLayer = o["source-layer"]?.stringValue
        minzoom = o["minzoom"]?.numberValue
        maxzoom = o["maxzoom"]?.numberValue
        if type != .background, let s = source, sources[s] == nil {
            problems.append(StyleProblem(path: "\(path).source", message: "source \"\(s)\" not found"))
        }
        filter = nil
        if let f = o["filter"] {
            let (compiled, errors) = Filter.compile(f)
            if case .expression(let e)? = compiled?.kind { ExprAnalysis.applyGlobalStateDefaults(e, globalState) }
            filter = compiled
            for e in errors { problems.append(StyleProblem(path: "\(path).filter\(e.key)", message: e.message)) }
            // A filter that does not compile would let every feature through: MapLibre skips the layer.
            if !errors.isEmpty { return nil }
        }
        paintValues = StyleLayer.compileGroup(o["paint"], kind: .paint, layer: typeName, path: "\(path).paint",
                                              globalState: globalState, problems: &problems)
        layoutValues = StyleLayer.compileGroup(o["layout"], kind: .layout, layer: typeName, path: "\(path).layout",
                                               globalState: globalState, problems: &problems)
        visible = o["layout"]?["visibility"]?.stringValue != "none"
        typed = TypedLayer(type: type, paint: paintValues, layout: layoutValues,
                           defaults: StyleLayer.typeDefaults[type] ?? LayerDefaults())
    }

    static func compileGroup(_ json: JSON?, kind: PropertyKind, layer: String, path: String,
                             globalState: [String: Value] = [:], problems: inout [StyleProblem]) -> [String: PropertyValue] {
        guard case .object(let props)? = json else { return [:] }
        var out: [String: PropertyValue] = [:]
        for (name, value) in props {
            // Transitions and unknown properties do not change what is drawn in a snapshot.
            guard let spec = PropertySpec.find(layer: layer, kind: kind, name: name) else { continue }
            let info = PropertyTypeInfo(spec: spec)
            let (pv, errors) = PropertyValue.compile(value, info, globalState: globalState)
            for e in errors { problems.append(StyleProblem(path: "\(path).\(name)\(e.key)", message: e.message)) }
            if let pv { out[name] = pv }
        }
        return out
    }

    /// The paint property's value from the style, or the spec default (`StyleLayer.missing` for a
    /// name the layer type does not have). Internal: the stages read `typed`, where a misspelt
    /// property does not compile; this lookup is left for the module's own tests.
    func paint(_ name: String) -> PropertyValue {
        paintValues[name] ?? StyleLayer.typeDefaults[type]?.paint[name] ?? StyleLayer.missing
    }

    /// The layout property's value from the style, or the spec default.
    func layout(_ name: String) -> PropertyValue {
        layoutValues[name] ?? StyleLayer.typeDefaults[type]?.layout[name] ?? StyleLayer.missing
    }

    /// Whether the property is set in the style (not defaulted).
    func hasValue(_ name: String, kind: PropertyKind) -> Bool {
        (kind == .paint ? paintValues : layoutValues)[name] != nil
    }

    /// Visible and inside the zoom range (`z >= minzoom`, `z < maxzoom`).
    public func isVisible(atZoom z: Double) -> Bool {
        guard visible else { return false }
        if let minzoom, z < minzoom { return false }
        if let maxzoom, z >= maxzoom { return false }
        return true
    }

    /// The spec defaults of each layer type by property name, so `paint(_:)` and `layout(_:)` look a
    /// default up without building a key string per call.
    static let typeDefaults: [LayerType: LayerDefaults] = {
        var d: [LayerType: LayerDefaults] = [:]
        for type in LayerType.allCases { d[type] = LayerDefaults() }
        for spec in SpecTables.properties {
            guard let type = LayerType(rawValue: spec.layerType) else { continue }
            let info = PropertyTypeInfo(spec: spec)
            let value = PropertyValue(constant: info.defaultValue, defaultValue: info.defaultValue)
            if spec.kind == .paint { d[type]?.paint[spec.name] = value } else { d[type]?.layout[spec.name] = value }
        }
        return d
    }()

    static let missing = PropertyValue(constant: .null, defaultValue: .null)
}
