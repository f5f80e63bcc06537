import GLSnapData
import GLSnapLayout
import GLSnapStyle

/// Feature queries: which features a snapshot drew at a point or in a box (a tap on the image),
/// and the features of a source in the snapshot's tiles, as MapLibre's `queryRenderedFeatures`
/// and `querySourceFeatures` answer them.
///
///     let snapshot = try snapshotter.snapshot()
///     let tapped = try snapshot.queryRenderedFeatures(at: Point(x: 120, y: 80), options: QueryOptions(layers: ["pois"]))
///     print(tapped.first?.properties["name"] ?? "nothing there")
///
/// A snapshot keeps only references to what it made anyway; the work happens when a query is
/// made. Tiles come again from the snapshotter's tile cache, so a snapshot's queries answer for
/// the style it was drawn with, even after `setStyle`.
extension Snapshot {
    /// The features drawn at `point` (points from the top-left, as `point(for:)` gives them),
    /// topmost first. On a globe, the flat map the globe shows at `point` is asked (nothing in
    /// space around the planet); a box's corners are taken there and joined straight. Lines count within half their width, circles within their radius and
    /// stroke, symbols within the collision boxes of those placed (not those hidden by others).
    public func queryRenderedFeatures(at point: Point, options: QueryOptions = QueryOptions()) throws -> [QueriedFeature] {
        try query([QueryPoint(point.x, point.y)], options: options)
    }

    /// The features drawn in the box between two corners (points from the top-left), topmost first.
    public func queryRenderedFeatures(in box: (Point, Point), options: QueryOptions = QueryOptions()) throws -> [QueriedFeature] {
        let x1 = min(box.0.x, box.1.x), x2 = max(box.0.x, box.1.x), y1 = min(box.0.y, box.1.y), y2 = max(box.0.y, box.1.y)
        return try query([QueryPoint(x1, y1), QueryPoint(x2, y1), QueryPoint(x2, y2), QueryPoint(x1, y2), QueryPoint(x1, y1)],
                         options: options)
    }

    /// The features of `source` in the tiles this snapshot drew (each tile once, whatever its
    /// world copies), whether drawn or not, filtered by `filter`. `sourceLayer` is required for
    /// vector sources and ignored for GeoJSON. A feature that crosses tiles comes once per tile.
    public func querySourceFeatures(source: String, sourceLayer: String? = nil, filter: JSON? = nil) throws -> [QueriedFeature] {
        guard let index = queryIndex else { return [] }
        guard let tileSource = index.style.sources[source] else { throw QueryError("the source '\(source)' does not exist in the style") }
        let isGeoJSON = tileSource.info.type == .geojson
        guard isGeoJSON || tileSource.info.type == .vector else { throw QueryError("the source '\(source)' has no features (it is not a vector or GeoJSON source)") }
        guard isGeoJSON || sourceLayer != nil else { throw QueryError("the source '\(source)' is a vector source: name its sourceLayer") }
        let parsed = try SnapshotQueryIndex.parseFilter(filter)
        let layerName = isGeoJSON ? GeoJSONSource.layerName : (sourceLayer ?? "")
        let resultLayer = isGeoJSON ? nil : sourceLayer
        let promoteIds = index.promoteIds
        var done: Set<TileID> = []
        var out: [QueriedFeature] = []
        for tile in index.covers[source] ?? [] where done.insert(tile.id).inserted {
            guard let vl = index.vectorTile(source: source, id: tile.id)?.layers[layerName] else { continue }
            for feature in vl.features where SnapshotQueryIndex.passes(parsed, feature, tile: tile, extent: vl.extent) {
                out.append(index.result(feature, layer: nil, source: source, sourceLayer: resultLayer, extent: vl.extent,
                                        tile: tile.id, promoteIds: promoteIds))
            }
        }
        return out
    }

    private func query(_ screen: [QueryPoint], options: QueryOptions) throws -> [QueriedFeature] {
        guard screen.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { throw QueryError("the query point or box is not finite") }
        guard let index = queryIndex else { return [] }
        if let globe, let flat = globeFlat {
            // On the globe, the flat map it was drawn from is asked where each point shows;
            // a point in space finds nothing.
            var onMap: [QueryPoint] = []
            for p in screen {
                guard let m = globe.mercatorCoordinate(for: (p.x, p.y)) else { return [] }
                let q = GlobeTexture.point(forMercator: m, in: flat)
                onMap.append(QueryPoint(q.x, q.y))
            }
            return try index.queryRendered(onMap, symbolScreen: screen, options: options)
        }
        return try index.queryRendered(screen, options: options)
    }
}
