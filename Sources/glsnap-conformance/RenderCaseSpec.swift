import GLSnap
import GLSnapStyle

/// What `metadata.test` of a render case's style asks for.
struct RenderCaseSpec {
    /// Defaults of the GL render-test harness.
    static let defaultSide = 512.0
    static let defaultAllowed = 0.00015

    var width = RenderCaseSpec.defaultSide
    var height = RenderCaseSpec.defaultSide
    var pixelRatio = 1.0
    /// The largest mismatched fraction that still passes.
    var allowed = RenderCaseSpec.defaultAllowed
    /// Runtime-styling steps, in order.
    var operations: [CaseOperation] = []
    /// `crossSourceCollisions` (default true).
    var crossSourceCollisions = true
    /// Needs the runner cannot meet (debug drawing, operations the API lacks), in words; a case
    /// with any fails without being drawn.
    var unsupported: [String] = []

    /// Reads `metadata.test` of a parsed style; a missing block or a value of the wrong type
    /// keeps the default. Unknown or malformed operations end up in `unsupported`.
    init(style: JSON) {
        guard let test = style["metadata"]?["test"] else { return }
        if let w = test["width"]?.finiteNumber { width = w }
        if let h = test["height"]?.finiteNumber { height = h }
        if let r = test["pixelRatio"]?.finiteNumber { pixelRatio = r }
        if let a = test["allowed"]?.finiteNumber { allowed = a }
        if let d = test["diff"]?.finiteNumber { allowed = d }
        if let c = test["crossSourceCollisions"]?.boolValue { crossSourceCollisions = c }
        for flag in ["collisionDebug", "showOverdrawInspector", "debug"] where test[flag]?.boolValue == true {
            unsupported.append(flag)
        }
        if let ops = test["operations"]?.arrayValue {
            var names: [String] = []
            for op in ops {
                switch CaseOperation(op) {
                case .some(.unsupported(let name)): if !names.contains(name) { names.append(name) }
                case .some(let parsed): operations.append(parsed)
                case nil: if !names.contains("(malformed)") { names.append("(malformed)") }
                }
            }
            if !names.isEmpty { unsupported.append("operations not supported: " + names.joined(separator: ", ")) }
        } else if test["operations"] != nil {
            unsupported.append("operations not supported: (malformed)")
        }
    }
}

extension JSON {
    /// The number, when it is one and finite.
    var finiteNumber: Double? {
        guard let n = numberValue, n.isFinite else { return nil }
        return n
    }
}

/// One runtime-styling step the runner can carry out with the public snapshot API. Loading is
/// synchronous and there is no fading; `wait` moves the clock of paint transitions only.
enum CaseOperation {
    /// `["wait"]` (nil: until loaded, transitions ended) or `["wait", ms]` (the fake clock moves).
    case wait(Double?)
    case setZoom(Double)
    case setCenter(longitude: Double, latitude: Double)
    case setBearing(Double)
    case setPitch(Double)
    /// A whole new style: inline JSON text, or a URL (e.g. `local://styles/x.json`).
    case setStyleJSON(String)
    case setStyleURL(String)
    /// A change to the style document (runtime styling: paint and layout properties, filters,
    /// zoom ranges, layers and sources), carried out on the style JSON before drawing.
    case editStyle(StyleEdit)
    /// `setFeatureState` / `removeFeatureState`: the feature's source, source layer and id (as
    /// `Snapshotter.featureID` text; nil: every feature), and the state to merge or the key to remove.
    case setFeatureState(source: String, sourceLayer: String?, id: String, state: [String: JSON])
    case removeFeatureState(source: String, sourceLayer: String?, id: String?, key: String?)
    /// `addImage`: the image's name, its file (relative to the suite folder), pixel ratio and SDF flag;
    /// `removeImage` by name.
    case addImage(name: String, path: String, pixelRatio: Double, sdf: Bool)
    case removeImage(String)
    /// Anything else, by name.
    case unsupported(String)

    /// nil when the step is not `[name, args…]`.
    init?(_ value: JSON) {
        guard let step = value.arrayValue, let name = step.first?.stringValue else { return nil }
        let args = step.dropFirst()
        let first = args.first
        switch name {
        case "wait":
            self = .wait(first?.finiteNumber)
        case "idle":
            // GL JS waits for loading and placement to settle: snapshots are always settled.
            self = .wait(nil)
        case "setZoom":
            guard let z = first?.finiteNumber else { return nil }
            self = .setZoom(z)
        case "setBearing":
            guard let b = first?.finiteNumber else { return nil }
            self = .setBearing(b)
        case "setPitch":
            guard let p = first?.finiteNumber else { return nil }
            self = .setPitch(p)
        case "setCenter":
            guard let c = first?.arrayValue, c.count >= 2,
                  let lon = c[0].finiteNumber, let lat = c[1].finiteNumber else { return nil }
            self = .setCenter(longitude: lon, latitude: lat)
        case "setStyle":
            if let url = first?.stringValue {
                self = .setStyleURL(url)
            } else if let object = first, object.objectValue != nil {
                self = .setStyleJSON(object.text)
            } else {
                return nil
            }
        case "setFeatureState":
            guard let target = first?.objectValue, let source = target["source"]?.stringValue,
                  let id = target["id"].flatMap(Snapshotter.featureID), args.count >= 2,
                  let state = args[args.startIndex + 1].objectValue else { return nil }
            self = .setFeatureState(source: source, sourceLayer: target["sourceLayer"]?.stringValue, id: id, state: state)
        case "addImage":
            guard let imageName = first?.stringValue, args.count >= 2,
                  let path = args[args.startIndex + 1].stringValue else { return nil }
            let options = args.count >= 3 ? args[args.startIndex + 2] : .null
            self = .addImage(name: imageName, path: path, pixelRatio: options["pixelRatio"]?.finiteNumber ?? 1,
                             sdf: options["sdf"]?.boolValue ?? false)
        case "removeImage":
            guard let imageName = first?.stringValue else { return nil }
            self = .removeImage(imageName)
        case "removeFeatureState":
            guard let target = first?.objectValue, let source = target["source"]?.stringValue else { return nil }
            let key = args.count >= 2 ? args[args.startIndex + 1].stringValue : nil
            self = .removeFeatureState(source: source, sourceLayer: target["sourceLayer"]?.stringValue,
                                       id: target["id"].flatMap(Snapshotter.featureID), key: key)
        default:
            if let edit = StyleEdit(name: name, args: Array(args)) {
                self = .editStyle(edit)
            } else {
                self = .unsupported(name)
            }
        }
    }
}

/// The runtime-styling operations of the GL harness, as edits of the style document.
enum StyleEdit {
    case setPaint(layer: String, name: String, value: JSON)
    case setLayout(layer: String, name: String, value: JSON)
    case setFilter(layer: String, filter: JSON)
    case setZoomRange(layer: String, min: JSON, max: JSON)
    case addLayer(JSON, before: String?)
    case removeLayer(String)
    case addSource(String, JSON)
    case removeSource(String)
    case setGlobalState(String, JSON)
    /// `setLight`: the properties named are replaced, the others kept.
    case setLight([String: JSON])

    init?(name: String, args: [JSON]) {
        let s = args.map(\.stringValue)
        switch name {
        case "setPaintProperty" where args.count >= 3:
            guard let l = s[0], let n = s[1] else { return nil }
            self = .setPaint(layer: l, name: n, value: args[2])
        case "setLayoutProperty" where args.count >= 3:
            guard let l = s[0], let n = s[1] else { return nil }
            self = .setLayout(layer: l, name: n, value: args[2])
        case "setFilter" where args.count >= 1:
            guard let l = s[0] else { return nil }
            self = .setFilter(layer: l, filter: args.count > 1 ? args[1] : .null)
        case "setLayerZoomRange" where args.count >= 3:
            guard let l = s[0] else { return nil }
            self = .setZoomRange(layer: l, min: args[1], max: args[2])
        case "addLayer" where args.count >= 1 && args[0].objectValue != nil:
            self = .addLayer(args[0], before: args.count > 1 ? s[1] : nil)
        case "removeLayer" where args.count >= 1:
            guard let l = s[0] else { return nil }
            self = .removeLayer(l)
        case "addSource" where args.count >= 2:
            guard let id = s[0], args[1].objectValue != nil else { return nil }
            self = .addSource(id, args[1])
        case "removeSource" where args.count >= 1:
            guard let id = s[0] else { return nil }
            self = .removeSource(id)
        case "setLight" where args.count >= 1:
            guard let light = args[0].objectValue else { return nil }
            self = .setLight(light)
        case "setGlobalStateProperty" where args.count >= 2:
            guard let key = s[0] else { return nil }
            self = .setGlobalState(key, args[1])
        default:
            return nil
        }
    }

    /// Applies the edit to a style document.
    func apply(to style: inout JSON) {
        guard case .object(var root) = style else { return }
        var layers = root["layers"]?.arrayValue ?? []
        func editLayer(_ id: String, _ body: (inout [String: JSON]) -> Void) {
            guard let i = layers.firstIndex(where: { $0["id"]?.stringValue == id }), case .object(var layer) = layers[i] else { return }
            body(&layer)
            layers[i] = .object(layer)
        }
        func setIn(_ layer: inout [String: JSON], _ group: String, _ name: String, _ value: JSON) {
            var g = layer[group]?.objectValue ?? [:]
            if value == .null { g[name] = nil } else { g[name] = value }
            layer[group] = .object(g)
        }
        switch self {
        case let .setPaint(l, n, v): editLayer(l) { setIn(&$0, "paint", n, v) }
        case let .setLayout(l, n, v): editLayer(l) { setIn(&$0, "layout", n, v) }
        case let .setFilter(l, f): editLayer(l) { $0["filter"] = f == .null ? nil : f }
        case let .setZoomRange(l, lo, hi):
            editLayer(l) {
                $0["minzoom"] = lo == .null ? nil : lo
                $0["maxzoom"] = hi == .null ? nil : hi
            }
        case let .addLayer(layer, before):
            if let before, let i = layers.firstIndex(where: { $0["id"]?.stringValue == before }) {
                layers.insert(layer, at: i)
            } else {
                layers.append(layer)
            }
        case .removeLayer(let id): layers.removeAll { $0["id"]?.stringValue == id }
        case let .addSource(id, source):
            var sources = root["sources"]?.objectValue ?? [:]
            sources[id] = source
            root["sources"] = .object(sources)
        case .removeSource(let id):
            var sources = root["sources"]?.objectValue ?? [:]
            sources[id] = nil
            root["sources"] = .object(sources)
        case .setLight(let changes):
            var light = root["light"]?.objectValue ?? [:]
            light.merge(changes) { $1 }
            root["light"] = .object(light)
        case let .setGlobalState(key, value):
            var state = root["state"]?.objectValue ?? [:]
            var entry = state[key]?.objectValue ?? [:]
            entry["default"] = value
            state[key] = .object(entry)
            root["state"] = .object(state)
        }
        root["layers"] = .array(layers)
        style = .object(root)
    }
}
