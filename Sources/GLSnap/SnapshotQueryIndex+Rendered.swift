import Foundation
import GLSnapData
import GLSnapLayout
import GLSnapStyle

extension SnapshotQueryIndex {
    /// A feature found in one layer, with the depth of extrusion hits.
    struct Found {
        var feature: QueriedFeature
        var depth: Double?
    }

    /// What the snapshot drew under `screen` (one point, or a closed ring in CSS pixels), topmost
    /// first, as MapLibre orders it: layers top to bottom, extrusions by depth among each other;
    /// within a layer, tiles in query order and the later-drawn feature first.
    /// `symbolScreen`: where symbols are asked, when not at `screen` (on the globe, labels are
    /// placed on the screen, the other layers asked on the flat map under it).
    func queryRendered(_ screen: [QueryPoint], symbolScreen: [QueryPoint]? = nil, options: QueryOptions) throws -> [QueriedFeature] {
        let layers = style.style.layers
        if let wanted = options.layers {
            for id in wanted where !layers.contains(where: { $0.id == id }) {
                throw QueryError("the layer '\(id)' does not exist in the style")
            }
        }
        let filter = try SnapshotQueryIndex.parseFilter(options.filter)
        let wanted = options.layers.map(Set.init)
        let promoteIds = self.promoteIds
        var found: [String: [Found]] = [:]
        for (source, cover) in covers {
            let sourceLayers = layers.filter { $0.source == source && $0.isVisible(atZoom: transform.zoom) && TileFeatureQuery.isQueryable($0.type) }
            let queried = sourceLayers.filter { wanted?.contains($0.id) ?? true }
            guard !queried.isEmpty else { continue }
            let has3D = queried.contains { $0.type == .fillExtrusion }
            for (layerID, features) in querySource(source, cover: cover, layers: sourceLayers, queried: queried, has3D: has3D,
                                                   screen: screen, filter: filter, promoteIds: promoteIds) {
                found[layerID, default: []] += features
            }
        }
        for layer in layers where layer.type == .symbol && (wanted?.contains(layer.id) ?? true) && layer.isVisible(atZoom: transform.zoom) {
            let features = querySymbols(layer, screen: symbolScreen ?? screen, filter: filter, promoteIds: promoteIds)
            if !features.isEmpty { found[layer.id] = features }
        }
        return SnapshotQueryIndex.flatten(found, layers: layers)
    }

    /// Layers top to bottom; the extrusion features of all layers at or above an extrusion
    /// layer by depth, nearest first (MapLibre's _flattenAndSortRenderedFeatures).
    static func flatten(_ found: [String: [Found]], layers: [StyleLayer]) -> [QueriedFeature] {
        var layerIndex: [String: Int] = [:]
        var extruded: [(found: Found, layer: Int)] = []
        for (i, layer) in layers.enumerated() where layer.type == .fillExtrusion {
            layerIndex[layer.id] = i
            for f in found[layer.id] ?? [] { extruded.append((f, i)) }
        }
        // Nearest last, so that it is taken first from the end.
        extruded.sort { ($0.found.depth ?? .infinity) > ($1.found.depth ?? .infinity) }
        var out: [QueriedFeature] = []
        for (l, layer) in layers.enumerated().reversed() {
            if layer.type == .fillExtrusion {
                while let last = extruded.last, last.layer >= l {
                    out.append(last.found.feature)
                    extruded.removeLast()
                }
            } else {
                out += (found[layer.id] ?? []).map(\.feature)
            }
        }
        return out
    }

    /// The tile features of one source's layers under the query, by layer id.
    private func querySource(_ source: String, cover: [CoveredTile], layers: [StyleLayer], queried: [StyleLayer], has3D: Bool,
                             screen: [QueryPoint], filter: Filter?, promoteIds: [String: [String: String]]) -> [String: [Found]] {
        let zoom = transform.zoom
        let pitchScale = transform.maxPitchScaleFactor
        let e = Double(TileExtent.extent)
        var out: [String: [Found]] = [:]
        // Features already found in a tile of the same place in another world copy, by layer.
        var seen: [String: Set<Int>] = [:]
        for tile in cover.sorted(by: SnapshotQueryIndex.queryOrder) {
            guard let vt = vectorTile(source: source, id: tile.id) else { continue }
            let q = TileQuery(transform: transform, tile: tile, screen: screen)
            // Each layer's drawn features here, and the farthest any layer draws beyond its geometry.
            var drawn: [String: (layer: VectorLayer, indices: [Int])] = [:]
            var radius = 0.0
            for layer in layers {
                guard let vl = vt.layers[sourceLayerName(layer)] else { continue }
                let indices = TileFeatureQuery.drawnFeatures(layer: layer, in: vl, tile: tile)
                guard !indices.isEmpty else { continue }
                drawn[layer.id] = (vl, indices)
                let features = indices.map { vl.features[$0] }
                radius = max(radius, TileFeatureQuery.queryRadius(layer: layer, features: features, zoom: zoom) { f in
                    self.state(of: self.featureID(f, source: source, sourceLayer: layer.sourceLayer, promoteIds: promoteIds),
                               source: source, sourceLayer: layer.sourceLayer)
                })
            }
            let padding = radius * pitchScale * q.pixelsToTileUnits
            let reach = SnapshotQueryIndex.bounds(has3D ? q.cameraGeometry : q.geometry)
            guard reach.minX - padding < e, reach.minY - padding < e, reach.maxX + padding >= 0, reach.maxY + padding >= 0 else { continue }
            let bounds = SnapshotQueryIndex.bounds(q.geometry)
            let wrapped = "\(tile.id)/\(tile.overscaledZoom)"
            for layer in queried {
                guard let (vl, indices) = drawn[layer.id] else { continue }
                let key = wrapped + "|" + layer.id
                for i in indices.reversed() {
                    let feature = vl.features[i]
                    guard SnapshotQueryIndex.isCandidate(feature, extent: vl.extent, is3D: layer.type == .fillExtrusion, bounds: bounds,
                                                         camera: q.cameraGeometry, padding: padding),
                          SnapshotQueryIndex.passes(filter, feature, tile: tile, extent: vl.extent) else { continue }
                    let geometry = TileFeatureQuery.tileGeometry(feature, extent: vl.extent)
                    let id = featureID(feature, source: source, sourceLayer: layer.sourceLayer, promoteIds: promoteIds)
                    let state = state(of: id, source: source, sourceLayer: layer.sourceLayer)
                    guard let depth = TileFeatureQuery.hit(layer: layer, feature: feature, geometry: geometry, state: state,
                                                           zoom: zoom, query: q) else { continue }
                    guard seen[key, default: []].insert(i).inserted else { continue }
                    let result = self.result(feature, layer: layer, source: source, sourceLayer: layer.sourceLayer,
                                             extent: vl.extent, tile: tile.id, promoteIds: promoteIds)
                    out[layer.id, default: []].append(Found(feature: result, depth: depth))
                }
            }
        }
        return out
    }

    static func bounds(_ points: [QueryPoint]) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        var b = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
        for p in points {
            b.minX = min(b.minX, p.x); b.minY = min(b.minY, p.y); b.maxX = max(b.maxX, p.x); b.maxY = max(b.maxY, p.y)
        }
        return b
    }

    /// MapLibre's feature index: a feature is indexed in a tile by the boxes of its rings that
    /// reach into the tile, and found when a box, widened by the padding, meets the query's
    /// bounds (extrusions: the query widened toward the camera).
    static func isCandidate(_ feature: VectorFeature, extent: Int, is3D: Bool, bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double),
                            camera: [QueryPoint], padding: Double) -> Bool {
        let e = Double(TileExtent.extent)
        // Ring boxes in tile units, from the raw points (no geometry is made for features far away).
        let scale = e / Double(extent > 0 ? extent : 4096)
        for ring in feature.geometry where !ring.isEmpty {
            var minX = Int32.max, minY = Int32.max, maxX = Int32.min, maxY = Int32.min
            for p in ring {
                minX = min(minX, p.x); minY = min(minY, p.y); maxX = max(maxX, p.x); maxY = max(maxY, p.y)
            }
            let b = (minX: (Double(minX) * scale).rounded(), minY: (Double(minY) * scale).rounded(),
                     maxX: (Double(maxX) * scale).rounded(), maxY: (Double(maxY) * scale).rounded())
            guard b.minX < e, b.minY < e, b.maxX >= 0, b.maxY >= 0 else { continue }
            if is3D {
                if QueryIntersection.ringIntersectsBox(camera, b.minX - padding, b.minY - padding, b.maxX + padding, b.maxY + padding) { return true }
            } else if b.minX <= bounds.maxX + padding, b.maxX >= bounds.minX - padding,
                      b.minY <= bounds.maxY + padding, b.maxY >= bounds.minY - padding {
                return true
            }
        }
        return false
    }

    /// The placed symbols of `layer` whose collision boxes meet the query: per tile (in query
    /// order) the later feature first, or the lower one on the screen for layers drawn by
    /// their screen position.
    private func querySymbols(_ layer: StyleLayer, screen: [QueryPoint], filter: Filter?,
                              promoteIds: [String: [String: String]]) -> [Found] {
        guard let placed = symbols[layer.id], let source = layer.source,
              let tileSource = style.sources[source] else { return [] }
        var hits: [CoveredTile: [PlacedSymbol]] = [:]
        var seen: Set<String> = []
        for symbol in placed {
            let key = "\(symbol.tile.id)/\(symbol.tile.wrap)/\(symbol.tile.overscaledZoom)#\(symbol.featureIndex)"
            guard !seen.contains(key) else { continue }
            let hit = symbol.boxes.contains { b in
                QueryIntersection.ringsIntersect(screen, [QueryPoint(b.x1, b.y1), QueryPoint(b.x2, b.y1), QueryPoint(b.x2, b.y2), QueryPoint(b.x1, b.y2)])
            }
            guard hit else { continue }
            seen.insert(key)
            hits[symbol.tile, default: []].append(symbol)
        }
        let extent = tileSource.info.type == .geojson ? 8192 : nil
        var out: [Found] = []
        for tile in hits.keys.sorted(by: SnapshotQueryIndex.queryOrder) {
            let symbols = hits[tile] ?? []
            let ordered = symbols.sorted { a, b in
                if let ya = a.viewportY, let yb = b.viewportY, ya != yb { return ya > yb }
                return a.viewportY == nil ? a.featureIndex > b.featureIndex : a.featureIndex < b.featureIndex
            }
            let layerExtent = extent ?? vectorTile(source: source, id: tile.id)?.layers[sourceLayerName(layer)]?.extent ?? 4096
            for symbol in ordered where SnapshotQueryIndex.passes(filter, symbol.feature, tile: tile, extent: layerExtent) {
                let result = self.result(symbol.feature, layer: layer, source: source, sourceLayer: layer.sourceLayer,
                                         extent: layerExtent, tile: tile.id, promoteIds: promoteIds)
                out.append(Found(feature: result, depth: nil))
            }
        }
        return out
    }
}
