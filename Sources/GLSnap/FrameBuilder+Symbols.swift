import GLSnapData
import GLSnapLayout
import GLSnapRender
import GLSnapStyle

extension FrameBuilder {
    /// A symbol layer's per-tile layouts for this view (laid out once per tile and cached).
    mutating func symbolLayer(_ layer: StyleLayer, cover: [CoveredTile], source: String, tileSource: TileSource,
                     pixelRatio: Double) throws -> SymbolLayerInput {
        var tiles: [(tile: CoveredTile, symbols: SymbolTile)] = []
        let resources = style.symbolResources
        for covered in cover {
            let key = SymbolLayoutKey(generation: style.layoutGeneration(layer.id), layer: layer.id, tile: covered.id,
                                      overscaledZoom: covered.overscaledZoom, pixelRatio: pixelRatio)
            let laidOut = try symbols.value(for: key) { () throws -> Cached<SymbolTile> in
                guard let vt = try vectorTile(source: source, tileSource: tileSource, id: covered.id) else { return Cached(value: nil) }
                let layerName = tileSource.info.type == .geojson ? GeoJSONSource.layerName : (layer.sourceLayer ?? "")
                guard let vl = vt.layers[layerName] else { return Cached(value: nil) }
                counters.add(\.symbolLayouts)
                return Cached(value: SymbolLayout.build(layer: layer, from: vl, zoom: Double(covered.overscaledZoom),
                                                        canonical: covered.id, provider: resources, pixelRatio: pixelRatio))
            }
            if let laidOut = laidOut.value { tiles.append((covered, laidOut)) }
        }
        return SymbolLayerInput(layer: layer, tiles: tiles)
    }

    /// Places the symbols of every symbol layer of the frame together and stores what each draws.
    func placeSymbols(_ layers: inout [FrameLayer], inputs: [(index: Int, input: SymbolLayerInput)], transform: Transform) {
        guard !inputs.isEmpty else { return }
        let placed = SymbolPlacement.place(inputs.map(\.input), transform: transform, provider: style.symbolResources,
                                           crossSourceCollisions: crossSourceCollisions, seams: placementSeams,
                                           collisionDebug: collisionDebug, globe: globePass?.globe)
        for (i, entry) in inputs.enumerated() { layers[entry.index].symbols = placed[i] }
    }
}
