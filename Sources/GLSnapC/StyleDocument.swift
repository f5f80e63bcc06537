import GLSnapStyle

/// The style as JSON, as the C ABI's runtime style calls (`glsnap_set_filter`, ...) see it: each
/// change checks what it names here first (and leaves the document as it was when it throws);
/// the library then makes the change and the document takes the result (`update`).
struct StyleDocument {
    private(set) var root: [String: JSON]
    /// The base relative URLs resolve against (a folder, file path or URL), as given to setStyle.
    let base: String?

    /// Parses style text; it must be a JSON object (the loader checks the rest).
    init(text: String, base: String?) throws {
        let value: JSON
        do { value = try JSON.parse(text) } catch {
            throw CallError(.style, "style JSON: \(error)")
        }
        guard let object = value.objectValue else { throw CallError(.style, "style JSON: the top level must be an object") }
        root = object
        self.base = base
    }

    var layers: [JSON] { root["layers"]?.arrayValue ?? [] }
    var sources: [String: JSON] { root["sources"]?.objectValue ?? [:] }

    /// Layer ids in drawing order.
    var layerIDs: [String] { layers.compactMap { $0["id"]?.stringValue } }
    /// Source ids, sorted (a style's sources have no order).
    var sourceIDs: [String] { sources.keys.sorted() }

    private func layerIndex(_ id: String) throws -> Int {
        guard let i = layers.firstIndex(where: { $0["id"]?.stringValue == id }) else {
            throw CallError(.notFound, "no layer \"\(id)\" in the style (layers: \(StyleDocument.list(layerIDs)))")
        }
        return i
    }

    private mutating func changeLayer(_ id: String, _ change: (inout [String: JSON]) throws -> Void) throws {
        let i = try layerIndex(id)
        var all = layers
        var layer = all[i].objectValue ?? [:]
        try change(&layer)
        all[i] = .object(layer)
        root["layers"] = .array(all)
    }

    /// Sets a layer's filter; nil removes it.
    mutating func setFilter(layer: String, filter: JSON?) throws {
        try changeLayer(layer) { $0["filter"] = filter }
    }

    /// Sets one property of a layer's `paint` or `layout` object; a JSON null removes it.
    mutating func setProperty(layer: String, group: String, name: String, value: JSON) throws {
        guard !name.isEmpty else { throw CallError(.invalidArgument, "a \(group) property name is empty") }
        try changeLayer(layer) { l in
            var g = l[group]?.objectValue ?? [:]
            g[name] = value == .null ? nil : value
            l[group] = .object(g)
        }
    }

    /// Shows or hides a layer (its `layout.visibility`).
    mutating func setVisibility(layer: String, visible: Bool) throws {
        try setProperty(layer: layer, group: "layout", name: "visibility", value: .string(visible ? "visible" : "none"))
    }

    /// Adds a source; its id must be new and its value an object with a `type`.
    mutating func addSource(id: String, source: JSON) throws {
        guard !id.isEmpty else { throw CallError(.invalidArgument, "a source id is empty") }
        guard sources[id] == nil else { throw CallError(.invalidArgument, "the style already has a source \"\(id)\"") }
        guard source["type"]?.stringValue != nil else {
            throw CallError(.invalidArgument, "source \"\(id)\" must be a JSON object with a \"type\"")
        }
        var all = sources
        all[id] = source
        root["sources"] = .object(all)
    }

    /// Adds a layer before the layer `before` (nil: on top). Its id must be new and the source it
    /// names must exist.
    mutating func addLayer(_ layer: JSON, before: String?) throws {
        guard let id = layer["id"]?.stringValue, !id.isEmpty, layer["type"]?.stringValue != nil else {
            throw CallError(.invalidArgument, "a layer must be a JSON object with an \"id\" and a \"type\"")
        }
        guard !layerIDs.contains(id) else { throw CallError(.invalidArgument, "the style already has a layer \"\(id)\"") }
        if let source = layer["source"]?.stringValue, sources[source] == nil {
            throw CallError(.notFound, "layer \"\(id)\" names source \"\(source)\", which the style does not have (sources: \(StyleDocument.list(sourceIDs)))")
        }
        var all = layers
        let at = try before.map { try layerIndex($0) } ?? all.count
        all.insert(layer, at: at)
        root["layers"] = .array(all)
    }

    mutating func removeLayer(_ id: String) throws {
        let i = try layerIndex(id)
        var all = layers
        all.remove(at: i)
        root["layers"] = .array(all)
    }

    /// Takes the style as the snapshotter has it after a change.
    mutating func update(_ style: JSON) {
        if let object = style.objectValue { root = object }
    }

    /// The layer's JSON, or nil when there is none by that id.
    func layer(_ id: String) -> JSON? { layers.first { $0["id"]?.stringValue == id } }

    /// The document as JSON text.
    var text: String { JSON.object(root).text }

    static func list(_ ids: [String]) -> String {
        ids.isEmpty ? "none" : ids.prefix(20).map { "\"\($0)\"" }.joined(separator: ", ") + (ids.count > 20 ? ", ..." : "")
    }
}
