import Foundation
import GLSnapData

/// One raster-dem tile's elevations in meters: `dim` x `dim` samples with a one-sample border on
/// every side (MapLibre's DEMData layout), rows from the north.
public struct DEMGrid: Sendable {
    public let id: TileID
    public let dim: Int
    /// (dim + 2)² elevations, the border included.
    public let meters: [Float]

    public init(id: TileID, dim: Int, meters: [Float]) {
        precondition(dim >= 1 && meters.count == (dim + 2) * (dim + 2), "a DEM grid has (dim + 2)² samples")
        self.id = id; self.dim = dim; self.meters = meters
    }

    /// The sample at (x, y), -1...dim each (the border included; clamped beyond).
    public func sample(_ x: Int, _ y: Int) -> Double {
        let cx = min(max(x, -1), dim), cy = min(max(y, -1), dim)
        return Double(meters[(cy + 1) * (dim + 2) + cx + 1])
    }

    /// Bilinear elevation at a position across the tile (0...1 each way), as GL JS's
    /// getDEMElevation reads it: sample i stands at i / dim.
    public func elevation(u: Double, v: Double) -> Double {
        let x = u * Double(dim), y = v * Double(dim)
        let x0 = Int(x.rounded(.down)), y0 = Int(y.rounded(.down))
        let tx = x - Double(x0), ty = y - Double(y0)
        let top = sample(x0, y0) * (1 - tx) + sample(x0 + 1, y0) * tx
        let bottom = sample(x0, y0 + 1) * (1 - tx) + sample(x0 + 1, y0 + 1) * tx
        return top * (1 - ty) + bottom * ty
    }
}

/// The terrain of one view: the DEM tiles loaded for it and the exaggeration. Elevations it
/// answers are in meters, multiplied by the exaggeration; 0 where no DEM tile is loaded.
public struct TerrainSurface: Sendable {
    public let exaggeration: Double
    /// The DEM source's highest zoom (deeper tiles read its tiles overscaled).
    public let maxZoom: Int
    private let grids: [TileID: DEMGrid]

    public init(grids: [DEMGrid], exaggeration: Double, maxZoom: Int) {
        var byID: [TileID: DEMGrid] = [:]
        for g in grids { byID[g.id] = g }
        self.grids = byID
        self.exaggeration = exaggeration.isFinite ? exaggeration : 1
        self.maxZoom = maxZoom
        var lo: Float = 0, hi: Float = 0
        for g in grids {
            for m in g.meters { lo = min(lo, m); hi = max(hi, m) }
        }
        elevationRange = (Double(lo) * self.exaggeration)...(Double(hi) * self.exaggeration)
    }

    public var isEmpty: Bool { grids.isEmpty }

    /// The lowest and highest elevation of the loaded tiles (exaggerated meters); sea level
    /// is always in it.
    public let elevationRange: ClosedRange<Double>

    /// The deepest loaded DEM tile at or above zoom `z` that holds the Mercator point (0...1).
    func grid(x: Double, y: Double, zoom z: Int) -> DEMGrid? {
        guard y >= 0, y <= 1 else { return nil }
        let wx = x - x.rounded(.down)
        var level = min(z, maxZoom)
        while level >= 0 {
            let n = Double(1 << level)
            let tx = min(Int(wx * n), (1 << level) - 1), ty = min(Int(y * n), (1 << level) - 1)
            if let id = TileID(z: level, x: tx, y: ty), let g = grids[id] { return g }
            level -= 1
        }
        return nil
    }

    /// The elevation (exaggerated meters) at a Mercator point (0...1 across the world), read from
    /// the deepest DEM tile loaded at or above `zoom`.
    public func elevation(mercatorX x: Double, mercatorY y: Double, zoom: Int) -> Double {
        guard let g = grid(x: x, y: y, zoom: zoom) else { return 0 }
        let n = Double(1 << g.id.z)
        let wx = x - x.rounded(.down)
        return g.elevation(u: wx * n - Double(g.id.x), v: y * n - Double(g.id.y)) * exaggeration
    }

    /// The lowest elevation (exaggerated meters) of the DEM tile that `elevation(mercatorX:mercatorY:zoom:)`
    /// reads at that point, its border left out (GL JS's getMinTileElevationForLngLatZoom); 0 where
    /// no tile is loaded.
    public func minTileElevation(mercatorX x: Double, mercatorY y: Double, zoom: Int) -> Double {
        guard let g = grid(x: x, y: y, zoom: zoom) else { return 0 }
        var lo = Float.infinity
        for row in 1...g.dim {
            let start = row * (g.dim + 2) + 1
            for m in g.meters[start..<(start + g.dim)] { lo = min(lo, m) }
        }
        return Double(lo) * exaggeration
    }

    /// The zoom of the DEM tiles a surface tile of zoom `z` reads: one less (GL JS's TerrainTileManager
    /// deltaZoom), so that the DEM's 256 samples span the surface tile twice as wide.
    public static func demZoom(forSurfaceZoom z: Int) -> Int { max(0, z - 1) }

    /// GL JS's height of the skirt hung below each terrain tile's edges at a zoom (meters): a fifth
    /// of a tile's width at that zoom.
    public static func skirtLength(zoom: Double) -> Double {
        Mercator.earthCircumference / pow(2, max(zoom, 0)) / 5
    }

    /// The surface mesh of a tile: `cells`² quads of elevations sampled here, x and y in tile units
    /// (0...`TileExtent.extent`), z in meters; with `skirt` > 0 a wall of that depth hangs from the
    /// four edges. Triangles wind as the tile's quads do.
    public func mesh(for tile: TileID, wrap: Int = 0, cells: Int = 128, skirt: Double) -> (vertices: [Float], indices: [UInt32]) {
        let n = max(1, cells)
        let e = Double(TileExtent.extent)
        let scale = pow(2, Double(tile.z))
        var vertices: [Float] = []
        vertices.reserveCapacity((n + 1) * (n + 1) * 3 + 4 * (n + 1) * 3)
        var heights = [Double](repeating: 0, count: (n + 1) * (n + 1))
        for j in 0...n {
            for i in 0...n {
                let fx = Double(i) / Double(n), fy = Double(j) / Double(n)
                let mx = (Double(tile.x) + fx) / scale + Double(wrap), my = (Double(tile.y) + fy) / scale
                let h = elevation(mercatorX: mx, mercatorY: my, zoom: TerrainSurface.demZoom(forSurfaceZoom: tile.z))
                heights[j * (n + 1) + i] = h
                vertices += [Float(fx * e), Float(fy * e), Float(h)]
            }
        }
        var indices: [UInt32] = []
        indices.reserveCapacity(n * n * 6 + 4 * n * 6)
        let row = UInt32(n + 1)
        for j in 0..<n {
            for i in 0..<n {
                let a = UInt32(j) * row + UInt32(i), b = a + 1, c = a + row, d = c + 1
                indices += [a, c, b, b, c, d]
            }
        }
        guard skirt > 0 else { return (vertices, indices) }
        // Each edge, walked so its wall faces outwards: top, right, bottom, left.
        let edges: [[Int]] = [
            (0...n).map { $0 },
            (0...n).map { $0 * (n + 1) + n },
            (0...n).reversed().map { n * (n + 1) + $0 },
            (0...n).reversed().map { $0 * (n + 1) },
        ]
        for edge in edges {
            let base = UInt32(vertices.count / 3)
            for k in edge {
                vertices += [vertices[k * 3], vertices[k * 3 + 1], Float(heights[k] - skirt)]
            }
            for s in 0..<n {
                let top0 = UInt32(edge[s]), top1 = UInt32(edge[s + 1])
                let low0 = base + UInt32(s), low1 = low0 + 1
                indices += [top0, top1, low0, top1, low1, low0]
            }
        }
        return (vertices, indices)
    }
}
