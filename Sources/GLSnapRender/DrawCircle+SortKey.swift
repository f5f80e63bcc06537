import GLSnapLayout
import GLSnapStyle

/// One draw call of a circle layer: `count` indices of tile `tile`'s triangles from `first`.
struct CircleRun: Equatable {
    var tile: Int
    var first: Int
    var count: Int
}

extension Painter {
    /// Indices per circle: two triangles over its quad (`CircleBucket`).
    static let circleIndicesPerPoint = 6
    static let circleVerticesPerPoint = 4

    /// The draw calls of a circle layer over `tiles` (in draw order): one per tile, or, with a
    /// `circle-sort-key`, one per run of equal keys in a tile, all sorted by key across the tiles
    /// as GL JS sorts its segments (equal keys keep the tiles' order, then the features'), so a
    /// circle of a higher key lies over one of a neighbor tile however the tiles are ordered.
    static func circleRuns(_ tiles: [FrameTile], sortKey: LayerProperty<Double>?, zoom: Double) -> [CircleRun] {
        guard let sortKey, sortKey.isSet else {
            return tiles.indices.compactMap { i in
                guard let geometry = tiles[i].geometry?.geometry, let count = geometry.indices.first?.count, count > 0 else { return nil }
                return CircleRun(tile: i, first: 0, count: count)
            }
        }
        var keyed: [(key: Double, run: CircleRun)] = []
        var ctx = EvaluationContext(zoom: zoom)
        for i in tiles.indices {
            guard let geometry = tiles[i].geometry?.geometry else { continue }
            ctx.canonicalID = geometry.canonical
            for span in geometry.spans {
                ctx.feature = geometry.features[Int(span.feature)]
                let key = sortKey.evaluate(ctx)
                let first = Int(span.vertexStart) / circleVerticesPerPoint * circleIndicesPerPoint
                let count = Int(span.vertexCount) / circleVerticesPerPoint * circleIndicesPerPoint
                if let last = keyed.last, last.key == key, last.run.tile == i, last.run.first + last.run.count == first {
                    keyed[keyed.count - 1].run.count += count
                } else {
                    keyed.append((key, CircleRun(tile: i, first: first, count: count)))
                }
            }
        }
        // Stable: ties keep the order above.
        return keyed.indices.sorted { a, b in
            keyed[a].key < keyed[b].key || (keyed[a].key == keyed[b].key && a < b)
        }.map { keyed[$0].run }
    }
}
