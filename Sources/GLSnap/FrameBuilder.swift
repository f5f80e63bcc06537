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
    let rasters: LRUCache<TileKey, Cached<RasterBox>>

    func frame(transform: Transform, pixelRatio: Double, width: Int, height: Int) throws -> Frame {
        var covers: [String: [CoveredTile]] = [:]
        var layers: [FrameLayer] = []
        let zoom = transform.zoom
        for layer in style.style.layers where layer.isVisible(atZoom: zoom) {
            switch layer.type {
            case .background:
                layers.append(FrameLayer(layer: layer, source: nil, tiles: []))
            case .fill, .line, .circle, .heatmap, .fillExtrusion:
                guard let sourceName = layer.source, let source = style.sources[sourceName] else { continue }
                let info = source.info
                guard info.type == .vector || info.type == .geojson else { continue }
                let cover = covers[sourceName] ?? transform.coveringTiles(
                    minZoom: info.minzoom, maxZoom: info.maxzoom, tileSize: info.tileSize, reparseOverscaled: true
                ).filter { info.covers($0.id) }
                covers[sourceName] = cover
                var frameTiles: [FrameTile] = []
                for covered in cover {
                    let geometry = try self.geometry(layer: layer, source: sourceName, tileSource: source, tile: covered)
                    frameTiles.append(FrameTile(tile: covered, geometry: geometry))
                }
                layers.append(FrameLayer(layer: layer, source: sourceName, tiles: frameTiles))
            case .raster:
                guard let sourceName = layer.source else { continue }
                if let image = style.imageSources[sourceName] {
                    let tile = CoveredTile(id: image.tile, wrap: 0, overscaledZoom: image.tile.z)
                    layers.append(FrameLayer(layer: layer, source: sourceName, tiles: [FrameTile(tile: tile, geometry: nil, raster: image.raster)]))
                } else if let source = style.sources[sourceName], style.demEncodings[sourceName] == nil {
                    let tiles = try rasterTiles(source: sourceName, tileSource: source, transform: transform, dem: nil)
                    layers.append(FrameLayer(layer: layer, source: sourceName, tiles: tiles))
                }
            case .hillshade:
                guard let sourceName = layer.source, let source = style.sources[sourceName],
                      let encoding = style.demEncodings[sourceName] else { continue }
                let tiles = try rasterTiles(source: sourceName, tileSource: source, transform: transform, dem: encoding)
                layers.append(FrameLayer(layer: layer, source: sourceName, tiles: tiles))
            case .symbol, .colorRelief:
                continue
            }
        }
        var frame = Frame(transform: transform, pixelRatio: pixelRatio, width: width, height: height,
                          layers: layers, styleGeneration: style.generation)
        frame.light = style.style.json["light"] ?? .null
        return frame
    }

    private func geometry(layer: StyleLayer, source: String, tileSource: TileSource, tile: CoveredTile) throws -> GeometryBox? {
        let key = GeometryKey(generation: style.generation, layer: layer.id, tile: tile.id, overscaledZoom: tile.overscaledZoom)
        return try geometries.value(for: key) {
            guard let vt = try vectorTile(source: source, tileSource: tileSource, id: tile.id) else { return Cached(value: nil) }
            let layerName = tileSource.info.type == .geojson ? GeoJSONSource.layerName : (layer.sourceLayer ?? "")
            guard let vl = vt.layers[layerName] else { return Cached(value: nil) }
            let g = BucketBuilder.build(layer: layer, from: vl, zoom: Double(tile.overscaledZoom), canonical: tile.id)
            return Cached(value: g.map(GeometryBox.init))
        }.value
    }

    private func vectorTile(source: String, tileSource: TileSource, id: TileID) throws -> VectorTile? {
        try tiles.value(for: TileKey(generation: style.generation, source: source, tile: id)) {
            do {
                return Cached(value: try tileSource.vectorTile(id))
            } catch {
                throw GLSnapError.source(name: source, message: "tile \(id): \(error)")
            }
        }.value
    }
}
