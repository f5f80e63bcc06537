import Foundation
import GLSnapData
import GLSnapLayout
import GLSnapRender
import GLSnapStyle

extension FrameBuilder {
    /// Quads a side of each terrain tile's mesh (GL JS's meshSize).
    static let terrainMeshCells = 128
    /// At most this many surface tiles are drawn (each is a texture drawn into).
    static let maxTerrainTiles = 256

    /// The style's terrain for a view: the camera raised to the surface at its center (the DEM's
    /// height there times the exaggeration, as GL JS sets the transform's elevation), the tiles of
    /// the surface and the fog. Nil when the style has no terrain or its source is not a loaded
    /// raster-dem source (then the map is drawn flat).
    /// For a piece of the image (`piece` of `width` x `height` pixels) only the surface tiles that reach it.
    mutating func terrain(for transform: Transform, pixelRatio: Double, piece: PixelRect? = nil, width: Int = 0, height: Int = 0) throws
        -> (transform: Transform, terrain: TerrainFrame)? {
        guard case .object(let spec)? = style.style.json["terrain"], let name = spec["source"]?.stringValue,
              let source = style.sources[name], let encoding = style.demEncodings[name] else { return nil }
        let exaggeration = max(0, spec["exaggeration"]?.numberValue ?? 1)
        let info = source.info
        // Surface tiles are twice the DEM tiles' size (GL JS's TerrainTileManager).
        let surfaceTileSize = max(256, info.tileSize * 2)
        var grids: [TileID: DEMGrid] = [:]
        func surface() -> TerrainSurface {
            TerrainSurface(grids: Array(grids.values), exaggeration: exaggeration, maxZoom: info.maxzoom)
        }
        // The DEM tile under the center first: it sets the camera's elevation, which moves the cover.
        // GL JS reads it, as every surface tile's, one zoom below the surface tile's.
        let tileZoom = TerrainSurface.demZoom(forSurfaceZoom: max(0, Int(transform.zoom.rounded(.down))))
        let c = transform.centerMercator
        let n = Double(1 << min(tileZoom, TileID.maxZoom))
        if let id = TileID(z: min(tileZoom, TileID.maxZoom), x: min(Int(c.x * n), Int(n) - 1), y: min(Int(c.y * n), Int(n) - 1)) {
            try loadDEM(for: id, source: name, tileSource: source, encoding: encoding, into: &grids)
        }
        // A center not clamped to the ground keeps its own height (`centerAltitude`), as GL JS's.
        let centerElevation = centerClampedToGround || transform.centerAltitude == 0
            ? surface().elevation(mercatorX: c.x, mercatorY: c.y, zoom: tileZoom) : 0
        let lowest = surface().minTileElevation(mercatorX: c.x, mercatorY: c.y, zoom: tileZoom)
        let elevated = transform.elevated(centerElevation, minTerrainElevation: lowest)
        // The cover of the ground between the lowest and the highest elevation known, twice: the
        // tiles the first finds widen the range.
        var cover: [CoveredTile] = []
        for _ in 0..<2 {
            cover = Array(elevated.coveringTiles(minZoom: 0, maxZoom: TileID.maxZoom, tileSize: surfaceTileSize,
                                                 reparseOverscaled: false, elevations: surface().elevationRange)
                .prefix(FrameBuilder.maxTerrainTiles))
            for t in cover {
                try deadline?.check()
                let dem = t.id.parent(atZoom: TerrainSurface.demZoom(forSurfaceZoom: t.id.z))
                try loadDEM(for: dem, source: name, tileSource: source, encoding: encoding, into: &grids)
            }
        }
        let surfaceNow = surface()
        if let piece, piece != PixelRect(x: 0, y: 0, width: width, height: height) {
            cover = cover.filter {
                FrameBuilder.reaches($0, piece, transform: elevated, width: width, height: height, elevations: surfaceNow.elevationRange)
            }
        }
        let skirt = terrainSkirts ? TerrainSurface.skirtLength(zoom: transform.zoom) : 0
        let tiles = cover.map { t -> TerrainFrame.Tile in
            let mesh = surfaceNow.mesh(for: t.id, wrap: t.wrap, cells: FrameBuilder.terrainMeshCells, skirt: skirt)
            return TerrainFrame.Tile(tile: t, vertices: mesh.vertices, indices: mesh.indices)
        }
        let size = Int(1024 * min(max(pixelRatio, 1), 2))
        return (elevated, TerrainFrame(tiles: tiles, fog: terrainFog(zoom: transform.zoom, pitch: transform.pitch),
                                       surface: surfaceNow, textureSize: size))
    }

    /// Whether a surface tile's box (between the lowest and highest elevation, and a skirt below),
    /// projected, reaches the piece (always true for a box partly behind the camera).
    static func reaches(_ tile: CoveredTile, _ piece: PixelRect, transform: Transform, width: Int, height: Int,
                        elevations: ClosedRange<Double>) -> Bool {
        let m = transform.tileMatrix(for: tile.id, wrap: tile.wrap).map(Double.init)
        let e = Double(TileExtent.extent)
        let skirt = TerrainSurface.skirtLength(zoom: transform.zoom)
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for z in [elevations.lowerBound - skirt, elevations.upperBound] {
            for (x, y) in [(0.0, 0.0), (e, 0), (e, e), (0, e)] {
                let cx = m[0] * x + m[4] * y + m[8] * z + m[12], cy = m[1] * x + m[5] * y + m[9] * z + m[13]
                let w = m[3] * x + m[7] * y + m[11] * z + m[15]
                guard w > 1e-9 else { return true }
                let px = (cx / w + 1) / 2 * Double(width), py = (1 - cy / w) / 2 * Double(height)
                minX = min(minX, px); maxX = max(maxX, px); minY = min(minY, py); maxY = max(maxY, py)
            }
        }
        let g = 2.0
        return maxX >= Double(piece.x) - g && minX <= Double(piece.x + piece.width) + g
            && maxY >= Double(piece.y) - g && minY <= Double(piece.y + piece.height) + g
    }

    /// The sky's fog evaluated at `zoom` (GL JS's terrain uniforms: white and blends of 1 without sky).
    func terrainFog(zoom: Double, pitch: Double) -> TerrainFrame.Fog {
        var fog = TerrainFrame.Fog()
        guard let properties = style.style.terrainFogProperties(globalState: style.globalState) else { return fog }
        let ctx = EvaluationContext(zoom: zoom)
        fog.fogColor = properties["fog-color"]?.evaluate(ctx).color ?? fog.fogColor
        fog.horizonColor = properties["horizon-color"]?.evaluate(ctx).color ?? fog.horizonColor
        fog.fogGroundBlend = properties["fog-ground-blend"]?.evaluate(ctx).number ?? 0.5
        fog.horizonFogBlend = properties["horizon-fog-blend"]?.evaluate(ctx).number ?? 0.8
        fog.opacity = TerrainFrame.Fog.opacity(pitch: pitch)
        return fog
    }

    /// Loads the DEM tile that covers `id` (at the source's maxzoom or the nearest ancestor with
    /// data) into `grids`, decoded to meters.
    private mutating func loadDEM(for id: TileID, source: String, tileSource: TileSource, encoding: DEMEncoding,
                                  into grids: inout [TileID: DEMGrid]) throws {
        let info = tileSource.info
        var z = min(id.z, info.maxzoom)
        while z >= max(info.minzoom, id.z - FrameBuilder.maxOverzooming - (id.z - min(id.z, info.maxzoom))) {
            let dem = id.parent(atZoom: z)
            if grids[dem] != nil { return }
            if info.covers(dem), let box = try raster(source: source, tileSource: tileSource, id: dem, dem: encoding) {
                grids[dem] = FrameBuilder.demGrid(box, id: dem, encoding: encoding)
                return
            }
            z -= 1
        }
    }

    /// A bordered DEM tile's pixels as meters.
    static func demGrid(_ box: RasterBox, id: TileID, encoding: DEMEncoding) -> DEMGrid {
        let stride = box.image.width
        var meters = [Float](repeating: 0, count: stride * stride)
        box.image.pixels.withUnsafeBufferPointer { p in
            for i in 0..<(stride * stride) {
                meters[i] = Float(encoding.elevation(red: p[i * 4], green: p[i * 4 + 1], blue: p[i * 4 + 2]))
            }
        }
        return DEMGrid(id: id, dim: stride - 2, meters: meters)
    }
}
