import Foundation
import GLSnapData
import GLSnapLayout
import GLSnapRender
import GLSnapStyle

/// The CPU side of a snapshot: which tiles each layer needs, decoded and tessellated (through the
/// shared caches), assembled into a `Frame` for the GL step.
struct FrameBuilder {
    let style: LoadedStyle
    let tiles: LRUCache<TileKey, Cached<VectorTile>>
    let geometries: LRUCache<GeometryKey, Cached<GeometryBox>>
    let policy: SourceErrorPolicy
    /// Seconds spent reading and decoding tiles in this builder's frames.
    private(set) var tileLoadSeconds = 0.0
    /// Seconds spent placing symbols (collision detection across the view).
    private(set) var placementSeconds = 0.0
    /// Tiles drawn around under `SourceErrorPolicy.skip`.
    var warnings: [String] = []
    /// Symbol placement of this builder's camera by frame layer index, made with the first frame
    /// and reused by the later pieces of the same image.
    private var placedSymbols: [Int: SymbolDrawData?]?
    /// Each source's tile cover of the whole image, made with the first frame and reused by the
    /// later pieces of the same image (a builder serves one camera).
    private(set) var fullCovers: [String: [CoveredTile]] = [:]
    /// The symbols placed in this builder's view, by layer id (for feature queries).
    var placedSymbolsByLayer: [String: [PlacedSymbol]] = [:]
    let rasters: LRUCache<TileKey, Cached<RasterBox>>
    /// Laid-out symbols of tile layers; they point into the style's atlases, so the key has the
    /// style generation.
    let symbols: LRUCache<SymbolLayoutKey, Cached<SymbolTile>>
    /// Feature states the frames carry to the painter.
    var featureStates = FeatureStates()
    /// See `MapSnapshotOptions.crossSourceCollisions`.
    var crossSourceCollisions = true
    /// Placement keeps the collision shapes it tests (`MapDebugOptions.collision`), in `collisionDebugShapes`.
    var collisionDebug = false
    /// The frame draws the overdraw inspector (`MapDebugOptions.overdraw`).
    var overdrawInspector = false
    /// The collision shapes of every symbol layer, bottom layer first (with `collisionDebug`).
    var collisionDebugShapes: [CollisionDebugShape] = []
    /// Image edges shared with neighbouring images placed apart (`PlacementSeams`).
    var placementSeams = PlacementSeams.none
    /// What one tile layer may tessellate into (`Limits.maxTileGeometry`, `Limits.triangulationStepsPerVertex`).
    var budget = TessellationBudget.unlimited
    /// Most vertices plus indices of one frame's tile layers (`Limits.maxSnapshotGeometry`).
    var maxFrameGeometry = Int.max
    /// Largest decoded raster tile in pixels (`Limits.maxRasterTilePixels`).
    var maxRasterPixels = Int.max
    /// When the snapshot stops: checked between layers and between tiles, and carried to the draw.
    var deadline: RenderDeadline?
    /// Counts the tiles decoded and the layers tessellated and laid out (cache misses).
    var counters = WorkCounters()
    /// The snapshotter's custom layers, placed among the frame's layers (FrameBuilder+CustomLayers.swift).
    var customLayers: [CustomLayerEntry] = []
    /// What the style's canvas sources show in this image (Snapshotter+Canvas.swift).
    var canvasSources: [String: ImageSource] = [:]
    /// Whether terrain tiles hang skirts below their edges (GL JS's `terrainSkirtLength`; on by default).
    var terrainSkirts = true
    /// GL JS's `centerClampedToGround`: over terrain, false keeps the camera's `centerAltitude` as the center's height.
    var centerClampedToGround = true
    /// On a globe drawn in passes: the layers this builder draws and, for the screen pass, the
    /// globe its symbols are placed on (GlobeScreenLayers.swift); nil draws every layer.
    var globePass: GlobeFramePass?

    init(style: LoadedStyle, tiles: LRUCache<TileKey, Cached<VectorTile>>, geometries: LRUCache<GeometryKey, Cached<GeometryBox>>,
         rasters: LRUCache<TileKey, Cached<RasterBox>>, symbols: LRUCache<SymbolLayoutKey, Cached<SymbolTile>>,
         policy: SourceErrorPolicy) {
        self.style = style; self.tiles = tiles; self.geometries = geometries; self.rasters = rasters; self.symbols = symbols
        self.policy = policy
    }

    /// The frame of the whole image, or of `piece` of it (then only tiles that reach the piece).
    mutating func frame(transform: Transform, pixelRatio: Double, width: Int, height: Int, piece: PixelRect? = nil) throws -> Frame {
        let piece = piece ?? PixelRect(x: 0, y: 0, width: width, height: height)
        // Over terrain the camera is raised to the surface and every piece drapes every tile.
        let terrain = style.style.json["terrain"] == nil || globePass?.globe != nil ? nil : try self.terrain(for: transform, pixelRatio: pixelRatio, piece: piece, width: width, height: height)
        let transform = terrain?.transform ?? transform
        let whole = terrain != nil || globePass?.globe != nil || piece == PixelRect(x: 0, y: 0, width: width, height: height)
        var covers: [String: [CoveredTile]] = [:]
        var layers: [FrameLayer] = []
        var symbolInputs: [(index: Int, input: SymbolLayerInput)] = []
        let zoom = transform.zoom
        var frameGeometry = 0
        for layer in style.style.layers where layer.isVisible(atZoom: zoom) && globePass?.draws(layer) != false {
            try deadline?.check()
            switch layer.type {
            case .background:
                layers.append(FrameLayer(layer: layer, source: nil, tiles: []))
            case .fill, .line, .circle, .symbol, .heatmap, .fillExtrusion:
                guard let sourceName = layer.source, let source = style.sources[sourceName] else { continue }
                let info = source.info
                guard info.type == .vector || info.type == .geojson else { continue }
                let fullCover = fullCovers[sourceName] ?? (globePass?.coverTransform ?? transform).coveringTiles(
                    minZoom: info.minzoom, maxZoom: info.maxzoom, tileSize: info.tileSize, reparseOverscaled: true,
                    elevations: terrain?.terrain.elevations
                ).filter { info.covers($0.id) }
                fullCovers[sourceName] = fullCover
                let cover = covers[sourceName]
                    ?? (whole ? fullCover : fullCover.filter { FrameBuilder.touches($0, piece, transform: transform, width: width, height: height) })
                covers[sourceName] = cover
                if layer.type == .symbol {
                    // Labels are placed once for the whole image (every piece draws the same
                    // placement), so none is duplicated or cut where pieces meet.
                    if placedSymbols == nil {
                        var input = try symbolLayer(layer, cover: fullCover, source: sourceName, tileSource: source, pixelRatio: pixelRatio)
                        input.terrain = terrain?.terrain.surface
                        symbolInputs.append((layers.count, input))
                    }
                    layers.append(FrameLayer(layer: layer, source: sourceName, tiles: []))
                    continue
                }
                var frameTiles: [FrameTile] = []
                for covered in cover {
                    try deadline?.check()
                    var geometry = try self.geometry(layer: layer, source: sourceName, tileSource: source, tile: covered)
                    if let g = geometry?.geometry {
                        frameGeometry += g.elementCount
                        if frameGeometry > maxFrameGeometry {
                            frameGeometry -= g.elementCount
                            let error = SnapshotBudgetError(layer: layer.id, elements: frameGeometry + g.elementCount, limit: maxFrameGeometry)
                            geometry = try brokenTile(source: sourceName, tileSource: source, id: covered.id, error: error)
                        }
                    }
                    frameTiles.append(FrameTile(tile: covered, geometry: geometry))
                }
                layers.append(FrameLayer(layer: layer, source: sourceName, tiles: frameTiles))
            case .raster:
                guard let sourceName = layer.source else { continue }
                if let image = style.imageSources[sourceName] ?? canvasSources[sourceName] {
                    // A copy in every world in view (and the neighbors: the picture may reach past its world).
                    let wraps = transform.coveringTiles(minZoom: 0, maxZoom: 0).map(\.wrap)
                    let copies = ((wraps.min() ?? 0) - 1)...((wraps.max() ?? 0) + 1)
                    let tiles = copies.map { wrap in
                        FrameTile(tile: CoveredTile(id: image.tile, wrap: wrap, overscaledZoom: image.tile.z), geometry: nil, raster: image.raster)
                    }
                    layers.append(FrameLayer(layer: layer, source: sourceName, tiles: tiles))
                } else if let source = style.sources[sourceName], style.demEncodings[sourceName] == nil {
                    let tiles = try rasterTiles(source: sourceName, tileSource: source, transform: transform, dem: nil, pixelRatio: pixelRatio,
                                                elevations: terrain?.terrain.elevations)
                    layers.append(FrameLayer(layer: layer, source: sourceName, tiles: tiles))
                }
            case .hillshade, .colorRelief:
                guard let sourceName = layer.source, let source = style.sources[sourceName],
                      let encoding = style.demEncodings[sourceName] else { continue }
                let tiles = try rasterTiles(source: sourceName, tileSource: source, transform: transform, dem: encoding,
                                            pixelRatio: pixelRatio, elevations: terrain?.terrain.elevations)
                layers.append(FrameLayer(layer: layer, source: sourceName, tiles: tiles))
            }
        }
        if let placedSymbols {
            for (i, symbols) in placedSymbols where i < layers.count { layers[i].symbols = symbols }
        } else {
            let start = DispatchTime.now().uptimeNanoseconds
            placeSymbols(&layers, inputs: symbolInputs, transform: transform)
            placementSeconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            placedSymbols = Dictionary(uniqueKeysWithValues: symbolInputs.map { ($0.index, layers[$0.index].symbols) })
            for (i, _) in symbolInputs { placedSymbolsByLayer[layers[i].layer.id] = layers[i].symbols?.placed }
            if collisionDebug { collisionDebugShapes = symbolInputs.flatMap { layers[$0.index].symbols?.collisionDebug ?? [] } }
        }
        var frame = Frame(transform: transform, pixelRatio: pixelRatio, width: width, height: height, piece: piece,
                          layers: layers, styleGeneration: style.generation)
        frame.paintGenerations = style.paintGenerations
        frame.lightProperties = style.lightProperties
        frame.sky = style.sky?.evaluate(zoom: transform.zoom)
        resolvePatterns(layers, zoom: zoom, pixelRatio: pixelRatio)
        frame.patterns = style.patterns
        frame.featureStates = featureStates
        frame.deadline = deadline
        frame.terrain = terrain?.terrain
        frame.overdrawInspector = overdrawInspector
        if !customLayers.isEmpty { frame.customLayers = placeCustomLayers(among: layers, overTerrain: terrain != nil) }
        return frame
    }

    /// Pixels around a piece within which a tile still counts as touching it: circles are drawn
    /// whole by the tile that holds their center.
    static let pieceMargin = 128.0

    /// Whether the tile's square, projected, reaches the piece (always true for a tile partly
    /// behind the camera).
    static func touches(_ tile: CoveredTile, _ piece: PixelRect, transform: Transform, width: Int, height: Int) -> Bool {
        let m = transform.tileMatrix(for: tile.id, wrap: tile.wrap).map(Double.init)
        let e = Double(TileExtent.extent)
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (x, y) in [(0.0, 0.0), (e, 0), (e, e), (0, e)] {
            let cx = m[0] * x + m[4] * y + m[12], cy = m[1] * x + m[5] * y + m[13], w = m[3] * x + m[7] * y + m[15]
            guard w > 1e-9 else { return true }
            // Normalized device coordinates to image pixels (y down).
            let px = (cx / w + 1) / 2 * Double(width), py = (1 - cy / w) / 2 * Double(height)
            minX = min(minX, px); maxX = max(maxX, px); minY = min(minY, py); maxY = max(maxY, py)
        }
        let g = pieceMargin
        return maxX >= Double(piece.x) - g && minX <= Double(piece.x + piece.width) + g
            && maxY >= Double(piece.y) - g && minY <= Double(piece.y + piece.height) + g
    }

    private mutating func geometry(layer: StyleLayer, source: String, tileSource: TileSource, tile: CoveredTile) throws -> GeometryBox? {
        let key = GeometryKey(generation: style.layoutGeneration(layer.id), layer: layer.id, tile: tile.id, overscaledZoom: tile.overscaledZoom)
        return try geometries.value(for: key) {
            guard let vt = try vectorTile(source: source, tileSource: tileSource, id: tile.id) else { return Cached(value: nil) }
            let layerName = tileSource.info.type == .geojson ? GeoJSONSource.layerName : (layer.sourceLayer ?? "")
            guard let vl = vt.layers[layerName] else { return Cached(value: nil) }
            counters.add(\.layersTessellated)
            do {
                let g = try BucketBuilder.build(layer: layer, from: vl, zoom: Double(tile.overscaledZoom), canonical: tile.id,
                                                budget: budget)
                return Cached(value: g.map(GeometryBox.init))
            } catch {
                return Cached(value: try brokenTile(source: source, tileSource: tileSource, id: tile.id, error: error))
            }
        }.value
    }

    mutating func vectorTile(source: String, tileSource: TileSource, id: TileID) throws -> VectorTile? {
        try tiles.value(for: TileKey(generation: style.sourceGeneration(source), source: source, tile: id)) {
            counters.add(\.tilesDecoded)
            let start = DispatchTime.now().uptimeNanoseconds
            defer { tileLoadSeconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
            do {
                return Cached(value: try tileSource.vectorTile(id))
            } catch {
                return Cached(value: try brokenTile(source: source, tileSource: tileSource, id: id, error: error))
            }
        }.value
    }

    /// Under `.fail` throws the error naming the source and the tile (and its file or URL);
    /// under `.skip` records the same sentence as a warning, and the tile is drawn as missing.
    mutating func brokenTile<T>(source: String, tileSource: TileSource, id: TileID, highDensity: Bool = false,
                                error: Error) throws -> T? {
        var underlying = error
        var location = tileSource.tileLocation(id, highDensity: highDensity)
        if case let .badTile(_, tile, inner)? = error as? SourceError {
            // The decode error itself; the source named the file only where it has one per tile.
            underlying = inner
            if tile == id.description { location = nil }
        }
        let failure = GLSnapError.source(name: source, tile: id, location: location, underlying: underlying)
        guard policy == .skip else { throw failure }
        warnings.append("\(failure)")
        return nil
    }
}

/// The tile layer that took a frame past `Limits.maxSnapshotGeometry`.
struct SnapshotBudgetError: Error, CustomStringConvertible {
    let layer: String
    let elements: Int
    let limit: Int
    var description: String {
        "layer \"\(layer)\": the snapshot's tessellated geometry needs over \(limit) vertices and indices (\(elements) with this tile); "
            + "over the limit Limits.maxSnapshotGeometry"
    }
}
