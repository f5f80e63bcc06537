/// A problem in a style, located by its JSON path (e.g. `layers[3].paint.line-width`) and, when
/// known, the 1-based line of the style file its value starts on.
public struct StyleProblem: Sendable, Equatable, CustomStringConvertible {
    /// The JSON path in the style-spec form; empty for the root.
    public let path: String
    public let message: String
    /// The line of the offending value; nil when the value has no place in the file (null, absent).
    public let line: Int?

    public init(path: String, message: String, line: Int? = nil) {
        self.path = path; self.message = message; self.line = line
    }

    /// `path: message`, as the style-spec validator prints it.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// Why a style could not be loaded.
public enum StyleError: Error, CustomStringConvertible, Sendable {
    /// The bytes are not JSON.
    case syntax(message: String, line: Int, column: Int)
    /// The JSON is not a usable style.
    case invalid([StyleProblem])
    /// A string is not a CSS color (`value` as given, `reason` what is wrong with it).
    case color(value: String, reason: String)

    public var description: String {
        switch self {
        case .syntax(let m, let line, let column):
            return "The style is not valid JSON: \(m) at line \(line), column \(column)."
        case .invalid(let problems):
            return "The style is invalid: " + problems.map(\.description).joined(separator: "; ")
        case .color(let value, let reason):
            return "'\(value.prefix(64))' is not a CSS color: \(reason)"
        }
    }
}

/// The layer types of the style spec.
public enum LayerType: String, Sendable, CaseIterable {
    case background, fill, line, circle, symbol, raster, hillshade, heatmap
    case fillExtrusion = "fill-extrusion"
    case colorRelief = "color-relief"
}

/// A parsed style (spec v8): metadata, raw sources and compiled layers in draw order.
public struct Style: Sendable {
    public var version: Int
    public var name: String?
    public var center: [Double]?
    public var zoom: Double?
    public var bearing: Double?
    public var pitch: Double?
    /// Degrees the camera turns about its view axis (GL JS's root `roll`).
    public var roll: Double?
    public var sprite: JSON?
    public var glyphs: String?
    /// Raw source definitions by id.
    public var sources: [String: JSON]
    /// Layers in draw order.
    public var layers: [StyleLayer]
    /// The style JSON as given.
    public var json: JSON
    /// `state`: the default of each global-state property, by name (what `["global-state", name]`
    /// gives when the evaluation context does not set it).
    public var globalStateDefaults: [String: JSON]

    /// Parses style bytes. A JSON syntax error throws `StyleError.syntax` naming line and column;
    /// a style with problems throws `StyleError.invalid` with them as the validator words them,
    /// with their lines (`Style.explain`).
    public init(bytes: [UInt8]) throws {
        let json: JSON
        do { json = try JSON.parse(bytes) } catch let e as JSONParseError {
            throw StyleError.syntax(message: e.message, line: e.line, column: e.column)
        }
        var problems: [StyleProblem] = []
        try self.init(json: json, dropping: &problems)
        if !problems.isEmpty {
            let lines = (try? JSON.parseWithLines(bytes))?.1 ?? JSONLineMap()
            throw StyleError.invalid(Style.explain(problems, json: json, lines: lines))
        }
    }

    /// Builds the style model; throws `StyleError.invalid` listing every problem found, as the
    /// validator words them (`Style.explain`).
    public init(json: JSON) throws {
        var problems: [StyleProblem] = []
        try self.init(json: json, dropping: &problems)
        if !problems.isEmpty { throw StyleError.invalid(Style.explain(problems, json: json)) }
    }

    /// Builds the style model as MapLibre loads one: a value that cannot be used is left out and
    /// its problem appended to `dropped` (with its JSON path), and the rest of the style is kept.
    /// A paint or layout value that does not compile falls back to the spec default; a layer
    /// that is not an object, has no id, an unknown type, a duplicate id or a filter that does
    /// not compile is skipped; a missing `sources` or `layers` is taken as empty. Only JSON that
    /// is not an object throws (`StyleError.invalid`).
    public init(json: JSON, dropping dropped: inout [StyleProblem]) throws {
        var problems: [StyleProblem] = []
        defer { dropped += problems }
        guard case .object(let root) = json else {
            throw StyleError.invalid([StyleProblem(path: "", message: "a style must be a JSON object")])
        }
        self.json = json
        if let v = root["version"]?.numberValue, v == 8 { version = 8 } else {
            problems.append(StyleProblem(path: "version", message: "style version must be 8"))
            // Int(exactly:) is nil past Int's range (a huge version trapped) and for fractions.
            version = Int(exactly: root["version"]?.numberValue ?? 0) ?? 0
        }
        name = root["name"]?.stringValue
        center = root["center"]?.arrayValue?.compactMap(\.numberValue)
        zoom = root["zoom"]?.numberValue
        bearing = root["bearing"]?.numberValue
        pitch = root["pitch"]?.numberValue
        roll = root["roll"]?.numberValue
        sprite = root["sprite"]
        glyphs = root["glyphs"]?.stringValue
        sources = root["sources"]?.objectValue ?? [:]
        if root["sources"]?.objectValue == nil {
            problems.append(StyleProblem(path: "sources", message: "missing required property \"sources\" (an object)"))
        }
        var defaults: [String: JSON] = [:]
        // Entries without a `default` are skipped: the validator reports shape problems, and MapLibre
        // renders such styles with the key unset.
        for (k, v) in root["state"]?.objectValue ?? [:] {
            if let d = v["default"] { defaults[k] = d }
        }
        globalStateDefaults = defaults
        let stateValues = defaults.mapValues(Value.init)
        layers = []
        guard let givenLayers = root["layers"]?.arrayValue else {
            problems.append(StyleProblem(path: "layers", message: "missing required property \"layers\" (an array)"))
            return
        }
        let layerList = Style.resolveRefs(givenLayers)
        var seen = Set<String>()
        for (i, l) in layerList.enumerated() {
            let path = "layers[\(i)]"
            if let layer = StyleLayer(json: l, path: path, sources: sources, globalState: stateValues, problems: &problems) {
                if seen.contains(layer.id) {
                    problems.append(StyleProblem(path: "\(path).id", message: "duplicate layer id \"\(layer.id)\""))
                    continue
                }
                seen.insert(layer.id)
                layers.append(layer)
            }
        }
    }

    /// The layout-defining keys a legacy `"ref"` layer takes from the layer it names.
    static let refKeys = ["type", "source", "source-layer", "minzoom", "maxzoom", "filter", "layout"]

    /// Legacy `{"id": …, "ref": "other", "paint": …}` layers: copies the referenced layer's type, source,
    /// filter, zoom range and layout, as MapLibre does when it loads such a style.
    static func resolveRefs(_ layers: [JSON]) -> [JSON] {
        guard layers.contains(where: { $0["ref"] != nil }) else { return layers }
        var byID: [String: [String: JSON]] = [:]
        for l in layers { if let o = l.objectValue, let id = o["id"]?.stringValue, o["ref"] == nil { byID[id] = o } }
        return layers.map { l in
            guard var o = l.objectValue, let ref = o["ref"]?.stringValue, let parent = byID[ref] else { return l }
            for k in refKeys { o[k] = parent[k] }
            o["ref"] = nil
            return .object(o)
        }
    }
}
