import Foundation
import GLSnapStyle

/// Point clustering of a GeoJSON source (style spec `cluster`, `clusterRadius`, `clusterMaxZoom`,
/// `clusterMinPoints`), the way supercluster (and so MapLibre) groups points.
public struct GeoJSONClusterOptions: Sendable {
    /// Cluster radius in pixels of a 512-pixel tile. Default 50.
    public var radius: Double
    /// Deepest zoom with clusters; deeper tiles show every point. nil: the source's maxzoom − 1.
    public var maxZoom: Int?
    /// Fewest points that make a cluster. Default 2.
    public var minPoints: Int
    /// Style spec `clusterProperties`: properties each cluster folds from its points. nil: none.
    public var properties: GeoJSONClusterProperties?

    public init(radius: Double = 50, maxZoom: Int? = nil, minPoints: Int = 2, properties: GeoJSONClusterProperties? = nil) {
        self.radius = radius; self.maxZoom = maxZoom; self.minPoints = minPoints; self.properties = properties
    }
}

/// The clusters of every zoom from 0 to `maxZoom` + 1 (the points themselves), made at load.
/// Each zoom merges the previous (deeper) zoom's items: an item not yet merged takes every
/// unmerged neighbor within the radius, and becomes a cluster at their weighted center when
/// that gathers more points than it had and at least `minPoints`.
struct GeoJSONClusterIndex: Sendable {
    /// One point or cluster at some zoom, in world units (0...1).
    struct Item: Sendable {
        var x: Double
        var y: Double
        /// The zoom at which this item was merged or kept (`.infinity` until then).
        var zoom: Double = .infinity
        /// Index of the source point, or the cluster id.
        var id: Int
        var count: Int
    }

    /// Items by zoom, index 0...maxZoom + 1.
    private var levels: [[Item]] = []
    /// The source points' (unrounded) positions, by feature index.
    private let positions: [(x: Double, y: Double)]
    let maxZoom: Int
    private let radius: Double
    private static let extent = 8192.0
    /// `clusterProperties` folded into each cluster, by cluster id (empty without them).
    private let folded: [Int: [String: JSON]]

    /// `points`: (feature index, longitude, latitude) of each point feature, in document order;
    /// `table`: the features' properties, by feature index (read for `clusterProperties`).
    init(points: [(index: Int, lon: Double, lat: Double)], featureCount: Int, options: GeoJSONClusterOptions, sourceMaxZoom: Int,
         table: [GeoJSONFeatureRecord] = []) {
        maxZoom = max(0, min(TileID.maxZoom - 1, options.maxZoom ?? (sourceMaxZoom - 1)))
        radius = max(0, options.radius) * GeoJSONClusterIndex.extent / 512
        var positions = [(x: Double, y: Double)](repeating: (0, 0), count: featureCount)
        var items: [Item] = []
        items.reserveCapacity(points.count)
        for p in points {
            let x = GeoJSONClusterIndex.lngX(p.lon), y = GeoJSONClusterIndex.latY(p.lat)
            if p.index < featureCount { positions[p.index] = (x, y) }
            // Stored as 32-bit floats, as supercluster keeps them.
            items.append(Item(x: Double(Float(x)), y: Double(Float(y)), id: p.index, count: 1))
        }
        self.positions = positions
        levels = [[Item]](repeating: [], count: maxZoom + 2)
        levels[maxZoom + 1] = items
        let minPoints = max(1, options.minPoints)
        var folded: [Int: [String: JSON]] = [:]
        for z in stride(from: maxZoom, through: 0, by: -1) {
            levels[z] = Self.cluster(&levels[z + 1], radius: radius, zoom: z, minPoints: minPoints, pointCount: featureCount,
                                fold: options.properties, table: table, folded: &folded)
        }
        self.folded = folded
    }

    static func lngX(_ lng: Double) -> Double { Mercator.geoJSONX(lon: lng) }

    static func latY(_ lat: Double) -> Double {
        let y = Mercator.geoJSONY(lat: lat)
        return y.isNaN ? (lat > 0 ? 0 : 1) : min(1, max(0, y))
    }

    private static func cluster(_ items: inout [Item], radius: Double, zoom: Int, minPoints: Int, pointCount: Int,
                                fold: GeoJSONClusterProperties?, table: [GeoJSONFeatureRecord],
                                folded: inout [Int: [String: JSON]]) -> [Item] {
        // An item's values to fold: a cluster's folded so far, a point's mapped properties.
        func values(_ item: Item, _ fold: GeoJSONClusterProperties) -> [String: JSON] {
            if item.count > 1 { return folded[item.id] ?? [:] }
            return fold.map(item.id < table.count ? table[item.id].properties : [:])
        }
        let r = radius / (GeoJSONClusterIndex.extent * pow(2, Double(zoom)))
        let grid = NeighborGrid(items, cell: max(r, 1e-9))
        let z = Double(zoom)
        var next: [Item] = []
        for i in items.indices {
            guard items[i].zoom > z else { continue }
            items[i].zoom = z
            let x = items[i].x, y = items[i].y
            let neighbors = grid.within(items, x: x, y: y, r: r)
            let origin = items[i].count
            var count = origin
            for k in neighbors where items[k].zoom > z { count += items[k].count }
            if count > origin && count >= minPoints {
                var wx = x * Double(origin), wy = y * Double(origin)
                let id = (i << 5) + (zoom + 1) + pointCount
                var properties = fold.map { values(items[i], $0) }
                for k in neighbors where items[k].zoom > z {
                    items[k].zoom = z
                    wx += items[k].x * Double(items[k].count)
                    wy += items[k].y * Double(items[k].count)
                    if let fold, var p = properties {
                        fold.reduce(&p, values(items[k], fold))
                        properties = p
                    }
                }
                if let properties { folded[id] = properties }
                next.append(Item(x: wx / Double(count), y: wy / Double(count), id: id, count: count))
            } else {
                var kept = items[i]; kept.zoom = .infinity
                next.append(kept)
                if count > 1 {
                    for k in neighbors where items[k].zoom > z {
                        items[k].zoom = z
                        var n = items[k]; n.zoom = .infinity
                        next.append(n)
                    }
                }
            }
        }
        return next
    }

    /// The features of tile `id`: clusters with `cluster`, `cluster_id`, `point_count` and
    /// `point_count_abbreviated`; lone points with their own id and properties.
    func tile(_ id: TileID, table: [GeoJSONFeatureRecord], layerName: String) -> VectorTile? {
        let level = levels[max(0, min(id.z, maxZoom + 1))]
        let z2 = pow(2, Double(id.z))
        let p = radius / GeoJSONClusterIndex.extent
        let top = (Double(id.y) - p) / z2, bottom = (Double(id.y) + 1 + p) / z2
        var features: [VectorFeature] = []
        func add(minX: Double, maxX: Double, tileX: Double) {
            for item in level where item.x >= minX && item.x <= maxX && item.y >= top && item.y <= bottom {
                features.append(feature(item, tileX: tileX, tileY: Double(id.y), z2: z2, table: table))
            }
        }
        add(minX: (Double(id.x) - p) / z2, maxX: (Double(id.x) + 1 + p) / z2, tileX: Double(id.x))
        if id.x == 0 { add(minX: 1 - p / z2, maxX: 1, tileX: z2) }
        if Double(id.x) == z2 - 1 { add(minX: 0, maxX: p / z2, tileX: -1) }
        guard !features.isEmpty else { return nil }
        let layer = VectorLayer(name: layerName, extent: Int(GeoJSONClusterIndex.extent), version: 2, features: features)
        return VectorTile(layers: [layerName: layer])
    }

    private func feature(_ item: Item, tileX: Double, tileY: Double, z2: Double, table: [GeoJSONFeatureRecord]) -> VectorFeature {
        let e = GeoJSONClusterIndex.extent
        var px = item.x, py = item.y
        let fid: JSON?, properties: [String: JSON]
        if item.count > 1 {
            fid = .number(Double(item.id))
            properties = (folded[item.id] ?? [:]).merging(
                ["cluster": .bool(true), "cluster_id": .number(Double(item.id)),
                 "point_count": .number(Double(item.count)),
                 "point_count_abbreviated": GeoJSONClusterIndex.abbreviated(item.count)]) { _, own in own }
        } else {
            let record = item.id < table.count ? table[item.id] : GeoJSONFeatureRecord(id: nil, properties: [:])
            fid = record.id
            properties = record.properties
            if item.id < positions.count { (px, py) = positions[item.id] }
        }
        let point = TilePoint(x: GeoJSONTileBuilder.round(e * (px * z2 - tileX)), y: GeoJSONTileBuilder.round(e * (py * z2 - tileY)))
        return VectorFeature(id: fid, geometryType: .point, properties: properties, geometry: [[point]])
    }

    /// `point_count_abbreviated`: the count below 1000, else thousands ("1.2k", "15k").
    static func abbreviated(_ count: Int) -> JSON {
        if count >= 10000 { return .string("\(Int((Double(count) / 1000).rounded()))k") }
        if count >= 1000 {
            let tenths = (Double(count) / 100).rounded() / 10
            return .string(tenths == tenths.rounded() ? "\(Int(tenths))k" : "\(tenths)k")
        }
        return .number(Double(count))
    }
}

/// A uniform grid over items for radius queries (cell side ≥ the radius: a query reads 3×3 cells).
private struct NeighborGrid {
    private var cells: [Int64: [Int]] = [:]
    private let cell: Double

    init(_ items: [GeoJSONClusterIndex.Item], cell: Double) {
        self.cell = cell
        for (i, item) in items.enumerated() { cells[key(cx(item.x), cx(item.y)), default: []].append(i) }
    }

    private func cx(_ v: Double) -> Int64 { Int64(max(-1e15, min(1e15, (v / cell).rounded(.down)))) }
    private func key(_ x: Int64, _ y: Int64) -> Int64 { x &* 73_856_093 ^ y &* 19_349_663 }

    /// Indices of items within `r` of (x, y), the item itself included, in index order.
    func within(_ items: [GeoJSONClusterIndex.Item], x: Double, y: Double, r: Double) -> [Int] {
        var out: [Int] = []
        let gx = cx(x), gy = cx(y), r2 = r * r
        for dy in -1...1 {
            for dx in -1...1 {
                for i in cells[key(gx + Int64(dx), gy + Int64(dy))] ?? [] {
                    let a = items[i].x - x, b = items[i].y - y
                    if a * a + b * b <= r2 { out.append(i) }
                }
            }
        }
        // Cells whose keys collide are read twice: keep each index once.
        return Set(out).sorted()
    }
}
