import Foundation
import GLSnapStyle

/// Runtime styling, as MapLibre's map methods: the style changes between snapshots without being
/// loaded again.
///
/// Each call checks its input as MapLibre does (an unknown layer or source, an unknown property
/// or a value the style specification does not allow throws `StyleEditError` naming it, and the
/// style stays as it was) and then redoes only the cached work the change affects: a paint
/// property, a zoom range, `visibility`, a layer order, light, sky, terrain and projection
/// change no tile, tessellated layer or symbol layout (per-vertex paint values of the layer are
/// evaluated again); a layout property or filter lays out that layer again from the decoded
/// tiles; new GeoJSON data decodes that source's tiles again. `workCounts` counts the work done.
///
/// Thread-safety: edits may be called from any thread, between or during snapshots. Edits are
/// applied one at a time, in the order their calls take the style's lock; a snapshot uses the
/// style as it was when the snapshot started, and the next snapshot sees every edit that returned
/// before it started.
extension Snapshotter {
    // MARK: Layers

    /// Sets a layer's paint property; nil (or JSON null) returns it to the default.
    public func setPaintProperty(_ layer: String, _ name: String, _ value: JSON?) throws {
        try editStyle(changedLayers: [layer]) { style, state in try style.setPaintProperty(layer, name, value, globalState: state) }
    }

    /// Sets a layer's layout property (`visibility` included); nil returns it to the default.
    public func setLayoutProperty(_ layer: String, _ name: String, _ value: JSON?) throws {
        try editStyle(changedLayers: [layer]) { style, state in try style.setLayoutProperty(layer, name, value, globalState: state) }
    }

    /// Sets a layer's filter (an expression or a legacy filter); nil removes it.
    public func setFilter(_ layer: String, _ filter: JSON?) throws {
        try editStyle(changedLayers: [layer]) { style, state in try style.setFilter(layer, filter, globalState: state) }
    }

    /// Sets the zooms a layer is drawn at (`min` ≤ zoom < `max`; nil: unbounded), each within 0...24.
    public func setLayerZoomRange(_ layer: String, min: Double?, max: Double?) throws {
        try editStyle(changedLayers: [layer]) { style, state in try style.setLayerZoomRange(layer, min: min, max: max, globalState: state) }
    }

    /// Adds a layer (a style-spec layer object) below the layer `before`, or on top. A `source`
    /// given as an object is added as a source named by the layer's id, as GL JS does.
    /// A style may not grow past `Limits.maxStyleLayers` this way either.
    public func addLayer(_ layer: JSON, before: String? = nil) throws {
        try editStyle { style, state in
            let limit = options.limits.maxStyleLayers
            guard style.layers.count < limit else {
                throw StyleEditError([StyleProblem(path: "layers", message: "the style has \(style.layers.count) layers, the limit (Limits.maxStyleLayers is \(limit))")])
            }
            try style.addLayer(layer, before: before, globalState: state)
        }
    }

    /// Removes the layer `id` from the current style, or the custom layer `id` (throws when there
    /// is no such layer).
    public func removeLayer(_ id: String) throws {
        if removeCustomLayer(id) { return }
        try editStyle { style, _ in try style.removeLayer(id) }
    }

    /// Moves a layer below the layer `before`, or to the top.
    public func moveLayer(_ id: String, before: String? = nil) throws {
        try editStyle { style, _ in try style.moveLayer(id, before: before) }
    }

    // MARK: Sources

    /// Adds a source (a style-spec source object); layers added later may use it.
    public func addSource(_ id: String, _ definition: JSON) throws {
        try editStyle { style, _ in try style.addSource(id, definition) }
    }

    /// Removes a source that no layer uses.
    public func removeSource(_ id: String) throws {
        try editStyle { style, _ in try style.removeSource(id) }
    }

    /// Replaces a GeoJSON source's data (a GeoJSON object, or a URL read as at load); its tiles
    /// are made again, other sources' stay cached.
    public func setGeoJSONSourceData(_ source: String, _ data: JSON) throws {
        try editStyle(changedSources: [source]) { style, _ in
            guard case .object(var definition)? = style.sources[source] else {
                throw StyleEditError(notFound: [StyleProblem(path: "sources.\(source)", message: "There is no source with ID '\(source)'")])
            }
            guard definition["type"]?.stringValue == "geojson" else {
                throw StyleEditError([StyleProblem(path: "sources.\(source)", message: "source \"\(source)\" is not a geojson source")])
            }
            definition["data"] = data
            try style.replaceSource(source, .object(definition))
        }
    }

    // MARK: The style's root

    /// Changes the light: the properties named are set (JSON null: back to the default), the others
    /// kept, as MapLibre's `setLight`; nil removes the light.
    public func setLight(_ light: JSON?) throws {
        try editStyle { style, _ in try style.setRootMember("light", Snapshotter.merged(style.json["light"], light)) }
    }

    /// Sets the sky (nil: none).
    public func setSky(_ sky: JSON?) throws {
        try editStyle { style, _ in try style.setRootMember("sky", sky) }
    }

    /// Sets the terrain (`{"source": "dem", "exaggeration": 1}`; nil: none). The source must exist.
    public func setTerrain(_ terrain: JSON?) throws {
        try editStyle { style, _ in
            if let name = terrain?["source"]?.stringValue, style.sources[name] == nil {
                throw StyleEditError(notFound: [StyleProblem(path: "terrain.source", message: "source \"\(name)\" not found")])
            }
            try style.setRootMember("terrain", terrain)
        }
    }

    /// Sets the projection (`{"type": "mercator"}`; nil: the default).
    public func setProjection(_ projection: JSON?) throws {
        try editStyle { style, _ in try style.setRootMember("projection", projection) }
    }

    /// Sets what `["global-state", name]` gives; nil returns it to the style's `state` default.
    /// Layers that read global state are compiled and laid out again.
    public func setGlobalStateProperty(_ name: String, _ value: JSON?) throws {
        guard let current = loadedStyle else { throw Snapshotter.noStyle }
        var state = current.globalState
        state[name] = value == nil || value == .null ? current.style.globalStateDefaults[name] : value
        let readers = Set(zip(current.style.layers, current.style.layerDocuments).filter { Style.readsGlobalState($0.1) }.map(\.0.id))
        try editStyle(changedLayers: readers, globalState: state) { style, _ in try style.recompileLayers(globalState: state) }
    }

    /// The global state the style's expressions read now.
    public var globalState: [String: JSON] { loadedStyle?.globalState ?? [:] }

    /// Loads a style from JSON text keeping the view: camera values the new style does not set
    /// (`center`, `zoom`, `bearing`, `pitch`, `roll`) stay as the current style and camera showed them,
    /// as a map's `setStyle` does. Added images and feature state are kept.
    public func setStyle(json: String, baseURL: String? = nil, keepingCamera: Bool) throws {
        let before = styleCamera
        try setStyle(json: json, baseURL: baseURL)
        guard keepingCamera else { return }
        let after = styleCamera
        var camera = self.camera
        if camera.center == nil, after.center == nil { camera.center = before.center }
        if camera.zoom == nil, after.zoom == nil { camera.zoom = before.zoom }
        if camera.bearing == nil, after.bearing == nil { camera.bearing = before.bearing }
        if camera.pitch == nil, after.pitch == nil { camera.pitch = before.pitch }
        if camera.roll == nil, after.roll == nil { camera.roll = before.roll }
        setCamera(camera)
    }

    // MARK: Getters

    /// The style as it is now (the document with every edit made), as JSON.
    public func getStyle() -> JSON? { loadedStyle?.style.json }

    /// A layer's document as it is now; nil when there is no such layer.
    public func getLayer(_ id: String) -> JSON? { loadedStyle?.style.layerDocument(id) }

    /// The value of a layer's paint property as set in the style; nil when not set (the default applies).
    public func getPaintProperty(_ layer: String, _ name: String) -> JSON? { getLayer(layer)?["paint"]?[name] }

    /// The value of a layer's layout property as set in the style; nil when not set.
    public func getLayoutProperty(_ layer: String, _ name: String) -> JSON? { getLayer(layer)?["layout"]?[name] }

    /// A layer's filter; nil when it has none.
    public func getFilter(_ layer: String) -> JSON? { getLayer(layer)?["filter"] }

    /// A source's definition; nil when there is no such source.
    public func getSource(_ id: String) -> JSON? { loadedStyle?.style.sources[id] }

    /// How much cached work this snapshotter's snapshots have redone since it was made.
    public var workCounts: WorkCounts { workCounters.value }

    // MARK: Variants

    /// A style made from the current one by `change` (the `Style` edits of GLSnapStyle:
    /// `addLayer`, `setFilter`, `setPaintProperty`, …), for `snapshot(camera:variant:)`: drawn
    /// with the snapshotter's workers and caches (what it shares with the current style stays
    /// cached), while the snapshotter's own style stays as it is. For one request's edits in a
    /// service. A variant made before a later `setStyle` still draws the style it came from.
    public func variant(_ change: (inout Style) throws -> Void) throws -> StyleVariant {
        guard let current = loadedStyle else { throw Snapshotter.noStyle }
        var style = current.style
        try change(&style)
        var reuse = StyleReuse(previous: current)
        // Layers whose document changed get new paint; the others keep theirs.
        let before = Dictionary(zip(current.style.layers.map(\.id), current.style.layerDocuments), uniquingKeysWith: { a, _ in a })
        reuse.changedLayers = Set(zip(style.layers.map(\.id), style.layerDocuments).filter { before[$0.0] != $0.1 }.map(\.0))
        reuse.changedSources = Set(style.sources.keys.filter { current.style.sources[$0] != style.sources[$0] })
        let loaded = try LoadedStyle(style: style, origin: current.origin, resolver: current.resolver, policy: options.sourceErrors,
                                     images: styleImages, limits: options.limits, reuse: reuse)
        return StyleVariant(loaded: loaded)
    }

    // MARK: Carrying out an edit

    static var noStyle: GLSnapError { GLSnapError.style(source: "(none)", message: "no style set: call setStyle first") }

    /// Changes the current style with `change` (which sees it and the global state) and stores
    /// the result; `changedSources` are opened again, `changedLayers` get new paint.
    private func editStyle(changedSources: Set<String> = [], changedLayers: Set<String> = [], globalState: [String: JSON]? = nil,
                           _ change: (inout Style, [String: JSON]) throws -> Void) throws {
        try replaceStyle { current in
            guard let current else { throw Snapshotter.noStyle }
            var style = current.style
            try change(&style, current.globalState)
            var reuse = StyleReuse(previous: current)
            reuse.changedSources = changedSources
            reuse.changedLayers = changedLayers
            if let globalState { reuse.globalState = globalState }
            return try LoadedStyle(style: style, origin: current.origin, resolver: current.resolver, policy: options.sourceErrors,
                                   images: styleImages, limits: options.limits, reuse: reuse)
        }
    }

    /// `change`'s members over `base`'s (JSON null removes one); nil when `change` is nil.
    static func merged(_ base: JSON?, _ change: JSON?) -> JSON? {
        guard let change else { return nil }
        guard case .object(let changes) = change else { return change }
        var fields = base?.objectValue ?? [:]
        for (k, v) in changes { fields[k] = v == .null ? nil : v }
        return .object(fields)
    }
}

/// A style derived from a snapshotter's by `Snapshotter.variant(_:)`.
public struct StyleVariant: @unchecked Sendable {
    let loaded: LoadedStyle
    /// The style as edited.
    public var style: Style { loaded.style }
}

/// What a style made by a runtime edit takes from the style before it: the opened sources not in
/// `changedSources` (with their cached tiles), the symbol resources unless `keepResources` is
/// false, and the paint generation of the layers not in `changedLayers`. Layers keep their
/// tessellation wherever their layout signature is unchanged (LoadedStyle.layoutSignature).
struct StyleReuse {
    let previous: LoadedStyle
    var changedSources: Set<String> = []
    var changedLayers: Set<String> = []
    var allLayersChanged = false
    var keepResources = true
    var globalState: [String: JSON]

    init(previous: LoadedStyle) {
        self.previous = previous
        globalState = previous.globalState
    }
}

/// Cache misses of a snapshotter's snapshots, counted since it was made: what its caches had to
/// make anew. A paint change between two snapshots of one view adds nothing here.
public struct WorkCounts: Sendable, Equatable {
    /// Vector and raster tiles read and decoded.
    public var tilesDecoded = 0
    /// Tile layers tessellated (one style layer of one tile).
    public var layersTessellated = 0
    /// Symbol layers of a tile laid out (shaped and anchored).
    public var symbolLayouts = 0
}

/// A thread-safe `WorkCounts`.
final class WorkCounters: @unchecked Sendable {
    private var counts = WorkCounts()
    private let lock = NSLock()

    func add(_ field: WritableKeyPath<WorkCounts, Int>) {
        lock.lock(); counts[keyPath: field] += 1; lock.unlock()
    }

    var value: WorkCounts { lock.lock(); defer { lock.unlock() }; return counts }
}
