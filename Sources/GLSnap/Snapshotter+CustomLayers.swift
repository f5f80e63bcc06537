import Foundation
import GLSnapRender
import GLSnapStyle

/// A custom layer added to a snapshotter: drawn just below the style layer `anchor` (on top when
/// nil or when the style no longer has that layer).
struct CustomLayerEntry {
    var id: String
    var layer: any CustomLayer
    var key: Int
    var anchor: String?
}

/// Custom layers (`CustomLayer`: the caller's own GL code, drawn in style order), as MapLibre's
/// `map.addLayer(customLayer, before)`.
extension Snapshotter {
    /// Adds `layer` as the layer `id`, below the style layer or custom layer `before`, or on top.
    /// Throws `StyleEditError` when `id` is taken (by a style layer or a custom layer) or `before`
    /// names no layer. The style's own layers and JSON (`getStyle`) are unchanged, and custom
    /// layers stay when the style is replaced (`setStyle`). Drawn on flat maps and into the
    /// Mercator image the globe is made from; not over terrain (left out there).
    public func addCustomLayer(_ layer: any CustomLayer, id: String, before: String? = nil) throws {
        editLock.lock(); defer { editLock.unlock() }
        let styleIds = Set(loadedStyle?.style.layers.map(\.id) ?? [])
        if styleIds.contains(id) || customLayers.contains(where: { $0.id == id }) {
            throw StyleEditError([StyleProblem(path: "layers.\(id)", message: "a layer with id \"\(id)\" already exists")])
        }
        var index = customLayers.endIndex
        var anchor = before
        if let before {
            if let i = customLayers.firstIndex(where: { $0.id == before }) {
                // Below another custom layer: at its place, drawn just before it.
                index = i
                anchor = customLayers[i].anchor
            } else if !styleIds.contains(before) {
                throw StyleEditError(notFound: [StyleProblem(path: "layers", message: "cannot add custom layer \"\(id)\" before \"\(before)\": no such layer")])
            }
        }
        customLayers.insert(CustomLayerEntry(id: id, layer: layer, key: Snapshotter.customLayerKeys.next(), anchor: anchor), at: index)
    }

    /// Removes the custom layer `id`; false when there is none. Each worker that drew it calls its
    /// renderer's `onRemove` at the next frame it draws.
    @discardableResult
    public func removeCustomLayer(_ id: String) -> Bool {
        editLock.lock(); defer { editLock.unlock() }
        guard let i = customLayers.firstIndex(where: { $0.id == id }) else { return false }
        customLayers.remove(at: i)
        return true
    }

    /// The ids of the custom layers, in draw order.
    public var customLayerIds: [String] {
        currentCustomLayers().map(\.id)
    }

    func currentCustomLayers() -> [CustomLayerEntry] {
        editLock.lock(); defer { editLock.unlock() }
        return customLayers
    }

    /// Keys that tell additions of custom layers apart, unique in the process (a worker's
    /// renderers are keyed by them).
    static let customLayerKeys = Counter()
}

extension FrameBuilder {
    /// The custom layers with their places among `layers` (the frame's, in style order): each
    /// before the first frame layer at or above its anchor in the style. Over terrain they are
    /// not drawn, and each is named in a warning.
    mutating func placeCustomLayers(among layers: [FrameLayer], overTerrain: Bool) -> [FrameCustomLayer] {
        if overTerrain {
            for entry in customLayers {
                let warning = "custom layer \"\(entry.id)\" is not drawn: custom layers are not drawn over terrain yet"
                if !warnings.contains(warning) { warnings.append(warning) }
            }
            return []
        }
        let styleIndex = Dictionary(style.style.layers.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        return customLayers.map { entry in
            var position = layers.count
            if let anchor = entry.anchor, let target = styleIndex[anchor] {
                position = layers.firstIndex { (styleIndex[$0.layer.id] ?? Int.max) >= target } ?? layers.count
            }
            return FrameCustomLayer(id: entry.id, layer: entry.layer, key: entry.key, position: position)
        }
    }
}
