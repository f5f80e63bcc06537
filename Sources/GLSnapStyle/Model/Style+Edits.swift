/// Runtime styling on the style model: each edit checks its input against the style
/// specification (the reference validator's rules and wording) and against the style it applies
/// to, then changes the document (`json`) and the compiled layers together. An edit that throws
/// leaves the style as it was. Problems are named by MapLibre's paths
/// (`layers.water.paint.fill-color: ...`).
extension Style {
    /// The index of the layer with `id` in draw order.
    public func layerIndex(_ id: String) -> Int? { layers.firstIndex { $0.id == id } }

    /// The layer documents in draw order, with legacy `ref` layers resolved (index for index with
    /// `layers`).
    public var layerDocuments: [JSON] { Style.resolveRefs(json["layers"]?.arrayValue ?? []) }

    /// A layer's document as the style has it now; nil when there is no such layer.
    public func layerDocument(_ id: String) -> JSON? {
        guard let i = layerIndex(id) else { return nil }
        let documents = layerDocuments
        return i < documents.count ? documents[i] : nil
    }

    /// Sets (nil: unsets, back to the default) a paint property of a layer.
    /// `globalState` (default: the style's `state` defaults) is what `["global-state", …]` reads.
    public mutating func setPaintProperty(_ layer: String, _ name: String, _ value: JSON?, globalState: [String: JSON]? = nil) throws {
        try setProperty(layer, kind: .paint, name, value, globalState: globalState)
    }

    /// Sets (nil: unsets) a layout property of a layer; `visibility` too.
    public mutating func setLayoutProperty(_ layer: String, _ name: String, _ value: JSON?, globalState: [String: JSON]? = nil) throws {
        try setProperty(layer, kind: .layout, name, value, globalState: globalState)
    }

    private mutating func setProperty(_ id: String, kind: PropertyKind, _ name: String, _ value: JSON?,
                                      globalState: [String: JSON]?) throws {
        let group = kind == .paint ? "paint" : "layout"
        try updateLayer(id, globalState: globalState, check: { layer in
            guard let value, value != .null else { return [] }
            return StyleEditValidator.property(name, value, kind: kind, layerType: layer["type"]?.stringValue ?? "",
                                               path: "layers.\(id).\(group).\(name)")
        }) { fields in
            var properties = fields[group]?.objectValue ?? [:]
            properties[name] = value == .null ? nil : value
            fields[group] = properties.isEmpty ? nil : .object(properties)
        }
    }

    /// Sets (nil: removes) a layer's filter.
    public mutating func setFilter(_ id: String, _ filter: JSON?, globalState: [String: JSON]? = nil) throws {
        try updateLayer(id, globalState: globalState, check: { _ in
            guard let filter, filter != .null else { return [] }
            return StyleEditValidator.filter(filter, path: "layers.\(id).filter")
        }) { $0["filter"] = filter == .null ? nil : filter }
    }

    /// Sets a layer's zoom range (nil: unbounded on that side); each bound within 0...24.
    public mutating func setLayerZoomRange(_ id: String, min: Double?, max: Double?, globalState: [String: JSON]? = nil) throws {
        try updateLayer(id, globalState: globalState, check: { _ in
            var problems: [StyleProblem] = []
            for (key, bound) in [("minzoom", min), ("maxzoom", max)] {
                if let bound, !(bound.isFinite && (0...24).contains(bound)) {
                    problems.append(StyleProblem(path: "layers.\(id).\(key)", message: "\(bound) is not within 0...24"))
                }
            }
            return problems
        }) { fields in
            fields["minzoom"] = min.map(JSON.number)
            fields["maxzoom"] = max.map(JSON.number)
        }
    }

    /// Changes one layer's document and compiles it again; `check` sees the changed document and
    /// lists what is wrong with the change.
    public mutating func updateLayer(_ id: String, globalState: [String: JSON]? = nil,
                                     check: (JSON) -> [StyleProblem] = { _ in [] },
                                     _ change: (inout [String: JSON]) -> Void) throws {
        guard let i = layerIndex(id), case .object(var fields)? = layerDocument(id) else {
            throw StyleEditError(notFound: [StyleProblem(path: "layers.\(id)", message: "The layer '\(id)' does not exist in the map's style.")])
        }
        change(&fields)
        let document = JSON.object(fields)
        let problems = check(document)
        if !problems.isEmpty { throw StyleEditError(problems) }
        let layer = try compileLayer(document, globalState: globalState)
        var documents = layerDocuments
        documents[i] = document
        layers[i] = layer
        setMember("layers", .array(documents))
    }

    /// Inserts a layer before the layer `before` (nil: on top). Its id must be new and its source
    /// must exist.
    public mutating func addLayer(_ document: JSON, before: String? = nil, globalState: [String: JSON]? = nil) throws {
        // A source given inline, as GL JS takes it, is added under the layer's id.
        if case .object(var fields) = document, let inline = fields["source"], inline.objectValue != nil,
           let id = fields["id"]?.stringValue {
            var copy = self
            try copy.addSource(id, inline)
            fields["source"] = .string(id)
            try copy.addLayer(.object(fields), before: before, globalState: globalState)
            self = copy
            return
        }
        guard let id = document["id"]?.stringValue else {
            throw StyleEditError([StyleProblem(path: "layers", message: "a layer needs an \"id\" (a string)")])
        }
        if layerIndex(id) != nil {
            throw StyleEditError([StyleProblem(path: "layers.\(id)", message: "Layer \"\(id)\" already exists on this map.")])
        }
        var at = layers.count
        if let before {
            guard let i = layerIndex(before) else {
                throw StyleEditError(notFound: [StyleProblem(path: "layers.\(before)", message: "Cannot add layer \"\(id)\" before non-existing layer \"\(before)\".")])
            }
            at = i
        }
        if document["type"]?.stringValue != "background", let source = document["source"]?.stringValue, sources[source] == nil {
            throw StyleEditError(notFound: [StyleProblem(path: "layers.\(id).source", message: "source \"\(source)\" not found")])
        }
        let problems = StyleEditValidator.layer(document, in: json)
        if !problems.isEmpty { throw StyleEditError(problems) }
        let layer = try compileLayer(document, globalState: globalState)
        var documents = layerDocuments
        documents.insert(document, at: at)
        layers.insert(layer, at: at)
        setMember("layers", .array(documents))
    }

    /// Removes a layer.
    public mutating func removeLayer(_ id: String) throws {
        guard let i = layerIndex(id) else {
            throw StyleEditError(notFound: [StyleProblem(path: "layers.\(id)", message: "Cannot remove non-existing layer \"\(id)\".")])
        }
        var documents = layerDocuments
        documents.remove(at: i)
        layers.remove(at: i)
        setMember("layers", .array(documents))
    }

    /// Moves a layer before the layer `before` (nil: to the top).
    public mutating func moveLayer(_ id: String, before: String? = nil) throws {
        guard let i = layerIndex(id) else {
            throw StyleEditError(notFound: [StyleProblem(path: "layers.\(id)", message: "The layer '\(id)' does not exist in the map's style and cannot be moved.")])
        }
        if let before, layerIndex(before) == nil {
            throw StyleEditError(notFound: [StyleProblem(path: "layers.\(id)", message: "Cannot move layer \"\(id)\" before non-existing layer \"\(before)\".")])
        }
        guard id != before else { return }
        var documents = layerDocuments
        let document = documents.remove(at: i), layer = layers.remove(at: i)
        let at = before.flatMap { b in layers.firstIndex { $0.id == b } } ?? layers.count
        documents.insert(document, at: at)
        layers.insert(layer, at: at)
        setMember("layers", .array(documents))
    }

    /// Adds a source; its id must be new.
    public mutating func addSource(_ id: String, _ definition: JSON) throws {
        if sources[id] != nil {
            throw StyleEditError([StyleProblem(path: "sources.\(id)", message: "Source \"\(id)\" already exists.")])
        }
        let problems = StyleEditValidator.source(id, definition)
        if !problems.isEmpty { throw StyleEditError(problems) }
        sources[id] = definition
        setMember("sources", .object(sources))
    }

    /// Replaces a source's definition (a GeoJSON source's `data`, for one); layers keep using it.
    public mutating func replaceSource(_ id: String, _ definition: JSON) throws {
        guard sources[id] != nil else {
            throw StyleEditError(notFound: [StyleProblem(path: "sources.\(id)", message: "There is no source with ID '\(id)'")])
        }
        let problems = StyleEditValidator.source(id, definition)
        if !problems.isEmpty { throw StyleEditError(problems) }
        sources[id] = definition
        setMember("sources", .object(sources))
    }

    /// Removes a source no layer uses.
    public mutating func removeSource(_ id: String) throws {
        guard sources[id] != nil else {
            throw StyleEditError(notFound: [StyleProblem(path: "sources.\(id)", message: "There is no source with this ID")])
        }
        if let user = layers.first(where: { $0.source == id }) {
            throw StyleEditError([StyleProblem(path: "sources.\(id)", message: "Source \"\(id)\" cannot be removed while layer \"\(user.id)\" is using it.")])
        }
        sources[id] = nil
        setMember("sources", .object(sources))
    }

    /// Sets (nil: removes) a root member the layers do not depend on: `light`, `sky`, `terrain`,
    /// `projection`, `transition`, after checking it against the specification.
    public mutating func setRootMember(_ name: String, _ value: JSON?) throws {
        guard StyleEditValidator.rootMembers.contains(name) else {
            throw StyleEditError([StyleProblem(path: name, message: "\"\(name)\" cannot be set at run time")])
        }
        if let value {
            let problems = StyleEditValidator.rootMember(name, value)
            if !problems.isEmpty { throw StyleEditError(problems) }
        }
        setMember(name, value)
    }

    /// Compiles every layer again with `globalState` (what `["global-state", …]` reads); the
    /// style is unchanged when one fails.
    public mutating func recompileLayers(globalState: [String: JSON]) throws {
        let documents = layerDocuments
        layers = try documents.map { try compileLayer($0, globalState: globalState) }
    }

    /// Whether a layer's filter, layout or paint reads `["global-state", …]`.
    public static func readsGlobalState(_ document: JSON) -> Bool {
        document.text.contains("\"global-state\"")
    }

    private func compileLayer(_ document: JSON, globalState: [String: JSON]?) throws -> StyleLayer {
        var problems: [StyleProblem] = []
        let state = (globalState ?? globalStateDefaults).mapValues(Value.init)
        let id = document["id"]?.stringValue ?? "?"
        guard let layer = StyleLayer(json: document, path: "layers.\(id)", sources: sources, globalState: state, problems: &problems),
              problems.isEmpty else {
            throw StyleEditError(problems.isEmpty ? [StyleProblem(path: "layers.\(id)", message: "the layer cannot be compiled")] : problems)
        }
        return layer
    }

    private mutating func setMember(_ name: String, _ value: JSON?) {
        guard case .object(var root) = json else { return }
        root[name] = value
        json = .object(root)
    }
}

/// Why a runtime style edit was refused; the style is unchanged.
public struct StyleEditError: Error, CustomStringConvertible, Sendable {
    /// Every problem found, with its path (`layers.water.paint.fill-color`).
    public let problems: [StyleProblem]
    /// The edit names a layer or source the style does not have.
    public let notFound: Bool

    public init(_ problems: [StyleProblem]) { self.problems = problems; notFound = false }
    public init(notFound problems: [StyleProblem]) { self.problems = problems; self.notFound = true }

    public var description: String { problems.map(\.description).joined(separator: "; ") }
}
