import Foundation
import GLSnapData
import GLSnapLayout
import GLSnapRender
import GLSnapStyle

/// What a snapshot keeps so that it can answer feature queries later: references to what the
/// snapshot already made (the style, each source's tile cover, the placed symbols, the feature
/// states), so it costs next to nothing when nobody queries. Tiles are read again through the
/// snapshotter's tile cache when a query needs them (decoded again if the cache let them go).
final class SnapshotQueryIndex: @unchecked Sendable {
    let style: LoadedStyle
    let transform: Transform
    let covers: [String: [CoveredTile]]
    let symbols: [String: [PlacedSymbol]]
    let states: FeatureStates
    private let tiles: LRUCache<TileKey, Cached<VectorTile>>

    init(style: LoadedStyle, transform: Transform, covers: [String: [CoveredTile]], symbols: [String: [PlacedSymbol]],
         states: FeatureStates, tiles: LRUCache<TileKey, Cached<VectorTile>>) {
        self.style = style; self.transform = transform; self.covers = covers; self.symbols = symbols
        self.states = states; self.tiles = tiles
    }

    /// The decoded tile (nil when it is missing or broken: it was drawn around).
    func vectorTile(source: String, id: TileID) -> VectorTile? {
        guard let tileSource = style.sources[source] else { return nil }
        return tiles.value(for: TileKey(generation: style.generation, source: source, tile: id)) {
            Cached(value: try? tileSource.vectorTile(id))
        }.value
    }

    /// The source layer a style layer reads in `source`'s tiles.
    func sourceLayerName(_ layer: StyleLayer) -> String {
        guard let name = layer.source, let s = style.sources[name] else { return "" }
        return s.info.type == .geojson ? GeoJSONSource.layerName : (layer.sourceLayer ?? "")
    }

    /// Each source's `promoteId` (made per query: snapshots nobody queries need none).
    var promoteIds: [String: [String: String]] { Snapshotter.promoteIds(style.style) }

    /// The feature's id as queries give it: the `promoteId` property (booleans as numbers) or its own.
    func featureID(_ feature: VectorFeature, source: String, sourceLayer: String?,
                   promoteIds: [String: [String: String]]) -> JSON? {
        if let byLayer = promoteIds[source], let property = byLayer[sourceLayer ?? ""] ?? byLayer[""] {
            let value = feature.properties[property]
            if case .bool(let b)? = value { return .number(b ? 1 : 0) }
            return value
        }
        return feature.id
    }

    /// The feature's state when the snapshot was taken.
    func state(of id: JSON?, source: String, sourceLayer: String?) -> [String: JSON] {
        guard let id, let key = FeatureStates.key(id) else { return [:] }
        return states.states[source]?[sourceLayer ?? ""]?[key] ?? [:]
    }

    /// The query filter, parsed (nil: none).
    static func parseFilter(_ json: JSON?) throws -> Filter? {
        guard let json, json != .null else { return nil }
        guard let filter = Filter.parse(json) else { throw QueryError("the filter \(json.text) is not a valid filter expression") }
        return filter
    }

    /// Whether `feature` passes the query filter at the tile's zoom.
    static func passes(_ filter: Filter?, _ feature: VectorFeature, tile: CoveredTile, extent: Int) -> Bool {
        guard let filter else { return true }
        if let legacy = filter.evaluateWithoutContext(type: feature.geometryType, id: { feature.id }, property: { feature.properties[$0] }) {
            return legacy
        }
        var ctx = BucketBuilder.tileContext(zoom: Double(tile.overscaledZoom), canonical: tile.id, extent: extent)
        ctx.feature = feature
        return filter.evaluate(ctx)
    }

    /// The result feature of `feature` drawn by `layer` in `tile`.
    func result(_ feature: VectorFeature, layer: StyleLayer?, source: String, sourceLayer: String?, extent: Int,
                tile: TileID, promoteIds: [String: [String: String]]) -> QueriedFeature {
        let id = featureID(feature, source: source, sourceLayer: sourceLayer, promoteIds: promoteIds)
        return QueriedFeature(id: id, geometry: QueriedFeature.geometry(of: feature, extent: extent, tile: tile),
                              properties: feature.properties, layer: layer?.id, source: source, sourceLayer: sourceLayer,
                              state: state(of: id, source: source, sourceLayer: sourceLayer))
    }

    /// MapLibre's order of a source's tiles in a query: by overscaled zoom, then row, world
    /// copy and column.
    static func queryOrder(_ a: CoveredTile, _ b: CoveredTile) -> Bool {
        if a.overscaledZoom != b.overscaledZoom { return a.overscaledZoom < b.overscaledZoom }
        if a.id.y != b.id.y { return a.id.y < b.id.y }
        if a.wrap != b.wrap { return a.wrap < b.wrap }
        return a.id.x < b.id.x
    }
}
