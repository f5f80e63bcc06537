import Foundation
import GLSnapStyle

/// Settings of a GeoJSON source, with the style spec's defaults and units.
public struct GeoJSONOptions: Sendable {
    /// Lowest zoom reported in `info` (tiles are still cut for any zoom asked). Default 0.
    public var minzoom: Int
    /// Highest zoom at which tiles are cut; deeper tiles are the caller's to overzoom. Default 18.
    public var maxzoom: Int
    /// Tile buffer in pixels of a 512-pixel tile (style spec `buffer`, 0...512). Default 128.
    public var buffer: Double
    /// Douglas–Peucker tolerance in pixels of a 512-pixel tile (style spec `tolerance`). Default 0.375.
    public var tolerance: Double
    /// Tile coordinate extent of the produced layer. 8192, as MapLibre cuts GeoJSON.
    public let extent: Int = 8192
    /// Tiles down to this zoom are cut when the source is made, the rest on request. Default 5.
    public var indexMaxZoom: Int
    /// Stop cutting early (at load) below tiles holding at most this many points. Default 100000.
    public var indexMaxPoints: Int
    /// Refuse documents holding more positions than this. Default 50 million.
    public var maxPositions: Int
    /// Most points the tiles cut at load may hold in all (each about 32 bytes). Default 8
    /// million. A line that zigzags across many tiles is copied into each at every zoom, so
    /// cutting it down to `indexMaxZoom` can take tens of times its own points; past this the
    /// cut stops and deeper tiles are cut on request.
    public var maxIndexedPoints = 8_000_000
    /// Style spec `lineMetrics`: each clipped piece of a line carries where it starts and ends
    /// along the whole line, as the feature properties `mapbox_clip_start` and
    /// `mapbox_clip_end` (fractions of its length), for line-gradient. Default false.
    public var lineMetrics = false
    /// Style spec `cluster` and its settings: point features are grouped into clusters; other
    /// geometries are left out (as MapLibre does). nil (default): no clustering.
    public var cluster: GeoJSONClusterOptions?
    /// Style spec `filter` of the source: only features that pass are kept. nil: all.
    public var filter: Filter?

    public init(minzoom: Int = 0, maxzoom: Int = 18, buffer: Double = 128, tolerance: Double = 0.375,
                indexMaxZoom: Int = 5, indexMaxPoints: Int = 100_000, maxPositions: Int = 50_000_000) {
        precondition(minzoom >= 0 && minzoom <= maxzoom && maxzoom <= TileID.maxZoom, "GeoJSON zoom range invalid")
        precondition(buffer >= 0 && buffer <= 512 && tolerance >= 0, "GeoJSON buffer or tolerance out of range")
        self.minzoom = minzoom; self.maxzoom = maxzoom; self.buffer = buffer; self.tolerance = tolerance
        self.indexMaxZoom = min(indexMaxZoom, maxzoom); self.indexMaxPoints = indexMaxPoints
        self.maxPositions = maxPositions
    }
}

/// A GeoJSON source cut into vector tiles the way geojson-vt cuts them (and so MapLibre):
/// features are projected to Web Mercator, ranked for Douglas–Peucker simplification once,
/// wrapped across the antimeridian, then cut tile by tile with a buffer. Tiles down to
/// `indexMaxZoom` are cut at load; deeper ones are cut on request from the nearest ancestor that
/// still holds its features (drill-down), and every cut tile is kept for later requests.
///
/// Each tile has one layer, `"_geojson"`, of extent 8192. `vectorTile` returns nil for a tile with
/// no features and for any zoom above `maxzoom` (the renderer overzooms the maxzoom tile).
/// Safe to call from several threads (one lock around the tile index).
public final class GeoJSONSource: TileSource, @unchecked Sendable {
    /// The layer name every tile's features live in.
    public static let layerName = "_geojson"

    public let info: SourceInfo
    public let options: GeoJSONOptions
    /// West, south, east, north of all the data (degrees); nil when it has no positions.
    public let dataBounds: [Double]?

    private let table: [GeoJSONFeatureRecord]
    /// The clusters, when `options.cluster` is set (then tiles come from here).
    private let clusters: GeoJSONClusterIndex?
    private let lock = NSLock()
    private var tiles: [TileID: IndexTile] = [:]
    /// Points of the tiles cut at load so far (see `GeoJSONOptions.maxIndexedPoints`).
    private(set) var indexedPoints = 0

    private struct IndexTile {
        var tile: VectorTile?
        var points: Int
        /// Bounds of the clipped (unsimplified) features, world units.
        var minX, minY, maxX, maxY: Double
        /// The clipped features, kept until the tile has been cut into children.
        var source: [GeoJSONTileFeature]?
    }

    /// Parses and indexes `data` (a FeatureCollection, Feature or geometry).
    /// Throws `GeoJSONError` naming the JSON path of the first thing that is not GeoJSON.
    public init(data: JSON, options: GeoJSONOptions = GeoJSONOptions()) throws {
        self.options = options
        self.info = SourceInfo(type: .geojson, minzoom: options.minzoom, maxzoom: options.maxzoom, tileSize: 512)
        var features = try GeoJSONParser.parse(data, maxPositions: options.maxPositions)
        if let filter = options.filter {
            features = features.filter { filter.evaluate(EvaluationContext(zoom: 0, feature: GeoJSONFilterFeature(feature: $0))) }
        }
        dataBounds = GeoJSONFeature.bounds(features)
        table = features.map { GeoJSONFeatureRecord(id: $0.id, properties: $0.properties) }
        if let cluster = options.cluster {
            var points: [(index: Int, lon: Double, lat: Double)] = []
            for (i, f) in features.enumerated() {
                if case .point(let p) = f.geometry { points.append((i, p.lon, p.lat)) }
            }
            clusters = GeoJSONClusterIndex(points: points, featureCount: features.count, options: cluster,
                                           sourceMaxZoom: options.maxzoom, table: table)
            return
        }
        clusters = nil
        let extent = Double(options.extent)
        let tolerance = worldTolerance(atZoom: options.maxzoom)
        var projected = GeoJSONProjection.convert(features, sqTolerance: tolerance * tolerance)
        projected = GeoJSONClip.wrap(projected, buffer: bufferUnits / extent)
        if !projected.isEmpty, let root = TileID(z: 0, x: 0, y: 0) {
            split(projected, from: root, target: nil)
        }
    }

    /// Parses GeoJSON text, then indexes it as `init(data:options:)` does.
    public convenience init(bytes: [UInt8], options: GeoJSONOptions = GeoJSONOptions()) throws {
        try self.init(data: try JSON.parse(bytes), options: options)
    }

    /// The buffer in tile units (the style gives pixels of a 512-pixel tile).
    private var bufferUnits: Double { options.buffer * Double(options.extent) / 512 }

    /// The simplification tolerance at zoom `z`, world units (0 at maxzoom: exact geometry).
    private func worldTolerance(atZoom z: Int) -> Double {
        let units = options.tolerance * Double(options.extent) / 512
        return units / (Double(1 << z) * Double(options.extent))
    }

    public func vectorTile(_ id: TileID) throws -> VectorTile? {
        guard id.z <= options.maxzoom else { return nil }
        lock.lock()
        defer { lock.unlock() }
        if let hit = tiles[id] { return hit.tile }
        if let clusters {
            let tile = clusters.tile(id, table: table, layerName: Self.layerName)
            if tiles.count >= Self.maxClusterTiles { tiles.removeAll() }
            tiles[id] = IndexTile(tile: tile, points: 0, minX: 0, minY: 0, maxX: 0, maxY: 0, source: nil)
            return tile
        }
        // Drill down from the nearest cut ancestor that still holds its features.
        var z = id.z
        while z > 0 {
            z -= 1
            let ancestor = id.parent(atZoom: z)
            guard let parent = tiles[ancestor] else { continue }
            guard let source = parent.source else { return nil } // cut further; this tile is empty
            split(source, from: ancestor, target: id)
            return tiles[id]?.tile
        }
        return nil
    }

    public func rasterTile(_ id: TileID) throws -> [UInt8]? { nil }

    /// Most cluster tiles kept (they are cheap to make again).
    private static let maxClusterTiles = 4096

    /// Cuts `features` (already clipped to `start`) into `start` and its descendants: at load
    /// (`target` nil) down to indexMaxZoom or until a tile is simple; on request only along the
    /// path to `target`. Must run under the lock (or in init).
    private func split(_ features: [GeoJSONTileFeature], from start: TileID, target: TileID?) {
        var stack: [([GeoJSONTileFeature], TileID)] = [(features, start)]
        let k1 = 0.5 * bufferUnits / Double(options.extent)
        let k2 = 0.5 - k1, k3 = 0.5 + k1, k4 = 1 + k1
        while let (features, id) = stack.popLast() {
            var tile: IndexTile
            if let cut = tiles[id] {
                tile = cut
            } else {
                tile = makeTile(features, id)
                indexedPoints += tile.points
            }
            if let target {
                // Stop at maxzoom, at the target, or off the path to it.
                if id.z == options.maxzoom || id.z == target.z || target.parent(atZoom: id.z) != id {
                    tile.source = features; tiles[id] = tile; continue
                }
            } else if id.z == options.indexMaxZoom || tile.points <= options.indexMaxPoints || indexedPoints > options.maxIndexedPoints {
                tile.source = features; tiles[id] = tile; continue
            }
            tile.source = nil
            tiles[id] = tile
            guard !features.isEmpty else { continue }
            let scale = Double(1 << id.z), x = Double(id.x), y = Double(id.y)
            let metrics = options.lineMetrics
            let left = GeoJSONClip.clip(features, scale: scale, k1: x - k1, k2: x + k3, axis: 0,
                                        minAll: tile.minX, maxAll: tile.maxX, trackMetrics: metrics)
            let right = GeoJSONClip.clip(features, scale: scale, k1: x + k2, k2: x + k4, axis: 0,
                                         minAll: tile.minX, maxAll: tile.maxX, trackMetrics: metrics)
            for (half, dx) in [(left, 0), (right, 1)] where !half.isEmpty {
                for (lo, hi, dy) in [(y - k1, y + k3, 0), (y + k2, y + k4, 1)] {
                    let quarter = GeoJSONClip.clip(half, scale: scale, k1: lo, k2: hi, axis: 1,
                                                   minAll: tile.minY, maxAll: tile.maxY, trackMetrics: metrics)
                    if !quarter.isEmpty, let child = TileID(z: id.z + 1, x: id.x * 2 + dx, y: id.y * 2 + dy) {
                        stack.append((quarter, child))
                    }
                }
            }
        }
    }

    private func makeTile(_ features: [GeoJSONTileFeature], _ id: TileID) -> IndexTile {
        let tolerance = id.z == options.maxzoom ? 0 : worldTolerance(atZoom: id.z)
        let builder = GeoJSONTileBuilder(z: id.z, x: id.x, y: id.y, extent: options.extent,
                                         tolerance: tolerance, table: table, lineMetrics: options.lineMetrics)
        let (tile, points) = builder.build(features, layerName: Self.layerName)
        var t = IndexTile(tile: tile, points: points, minX: 2, minY: 1, maxX: -1, maxY: 0, source: nil)
        for f in features {
            t.minX = min(t.minX, f.minX); t.minY = min(t.minY, f.minY)
            t.maxX = max(t.maxX, f.maxX); t.maxY = max(t.maxY, f.maxY)
        }
        return t
    }
}

/// A parsed feature as the filter expression sees it (`$type`, `$id`, properties).
private struct GeoJSONFilterFeature: FeatureContext {
    let feature: GeoJSONFeature

    var geometryType: GeometryType {
        switch feature.geometry {
        case .point, .multiPoint: return .point
        case .lineString, .multiLineString: return .lineString
        case .polygon, .multiPolygon: return .polygon
        case .geometryCollection: return .unknown
        }
    }
    var featureID: JSON? { feature.id }
    var properties: [String: JSON] { feature.properties }
    func property(_ key: String) -> JSON? { feature.properties[key] }
}
