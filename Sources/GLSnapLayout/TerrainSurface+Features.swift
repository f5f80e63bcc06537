import Foundation
import GLSnapData

/// The heights that raise a tile's features onto the terrain, one per vertex, as GL JS's shaders
/// read them from the DEM (`get_elevation`): circles and heatmap points at their centers,
/// extrusions at their feature's centroid (so that a building stands level on a slope).
extension TerrainSurface {
    /// The elevation (exaggerated meters) at a position of a tile (tile units, 0...`TileExtent.extent`),
    /// read from the DEM tiles a surface tile of the same zoom reads.
    public func elevation(in tile: TileID, wrap: Int = 0, x: Double, y: Double) -> Double {
        let n = pow(2, Double(tile.z)), e = Double(TileExtent.extent)
        let mx = (Double(tile.x) + x / e) / n + Double(wrap), my = (Double(tile.y) + y / e) / n
        return elevation(mercatorX: mx, mercatorY: min(max(my, 0), 1), zoom: TerrainSurface.demZoom(forSurfaceZoom: tile.z))
    }

    /// Per vertex of a circle or heatmap buffer (`a_pos` packs center * 2 + corner bit), the
    /// elevation at the point's center.
    public func pointElevations(packedPositions p: [Int16], in tile: TileID, wrap: Int = 0) -> [Float] {
        var out = [Float](repeating: 0, count: p.count / 2)
        var last: (Int, Int, Float)?
        for v in 0..<out.count {
            // The arithmetic shift floors, as the shader's floor(a_pos * 0.5).
            let x = Int(p[v * 2]) >> 1, y = Int(p[v * 2 + 1]) >> 1
            if let l = last, l.0 == x, l.1 == y { out[v] = l.2; continue }
            let h = Float(elevation(in: tile, wrap: wrap, x: Double(x), y: Double(y)))
            out[v] = h
            last = (x, y, h)
        }
        return out
    }

    /// Per vertex of an extrusion buffer (`a_pos` as x, y; `a_normal_ed` 4 a vertex), the elevation
    /// at the centroid of its feature's walls (GL JS's bucket centroid: the mean of the wall
    /// vertices, floored; the roofs' vertices do not count). A feature without walls in the tile
    /// (only its roof reaches in) takes the mean of all its vertices; vertices of no span get 0.
    public func centroidElevations(positions p: [Int16], normals: [Int16], spans: [FeatureSpan], in tile: TileID,
                                   wrap: Int = 0) -> [Float] {
        let count = min(p.count / 2, normals.count / 4)
        var out = [Float](repeating: 0, count: count)
        for span in spans {
            let start = Int(span.vertexStart), end = min(count, start + Int(span.vertexCount))
            guard start >= 0, start < end else { continue }
            var walls = (x: 0.0, y: 0.0, n: 0), all = (x: 0.0, y: 0.0, n: 0)
            for v in start..<end {
                let x = Double(p[v * 2]), y = Double(p[v * 2 + 1])
                all = (all.x + x, all.y + y, all.n + 1)
                // A wall's normal is horizontal; a roof's points up.
                if normals[v * 4 + 2] == 0 { walls = (walls.x + x, walls.y + y, walls.n + 1) }
            }
            let c = walls.n > 0 ? walls : all
            let k = Double(c.n)
            let h = Float(elevation(in: tile, wrap: wrap, x: (c.x / k).rounded(.down), y: (c.y / k).rounded(.down)))
            for v in start..<end { out[v] = h }
        }
        return out
    }
}

/// The terrain under one tile's points (tile units), for projecting labels onto it.
struct TerrainPoints {
    let surface: TerrainSurface
    let tile: CoveredTile

    func elevation(_ p: Vec2) -> Double {
        surface.elevation(in: tile.id, wrap: tile.wrap, x: p.x, y: p.y)
    }
}
