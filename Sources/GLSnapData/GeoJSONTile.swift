import GLSnapStyle

/// Turns the clipped features of one tile into a `VectorTile`: keeps the points each zoom's
/// tolerance asks for, drops lines and rings too small to see, maps world units to integer tile
/// units (JavaScript `Math.round`, as geojson-vt does), and winds rings as the vector-tile spec
/// wants: outer rings clockwise in tile coordinates (y down, positive shoelace area), holes
/// counter-clockwise.
struct GeoJSONTileBuilder {
    let z: Int
    let x: Int
    let y: Int
    let extent: Int
    /// Simplification tolerance at this zoom in world units (0 at maxzoom: keep every point).
    let tolerance: Double
    let table: [GeoJSONFeatureRecord]
    /// Lines become one feature per piece, with `mapbox_clip_start` and `mapbox_clip_end`.
    var lineMetrics = false

    func build(_ features: [GeoJSONTileFeature], layerName: String) -> (tile: VectorTile?, points: Int) {
        var out: [VectorFeature] = []
        out.reserveCapacity(features.count)
        var points = 0
        for feature in features {
            var geometry: [[TilePoint]] = []
            switch feature.type {
            case .point:
                for path in feature.paths {
                    var i = 0
                    while i + 1 < path.coords.count {
                        geometry.append([transform(path.coords[i], path.coords[i + 1])]); i += 3
                    }
                    points += path.coords.count / 3
                }
            case .lineString, .polygon:
                let polygon = feature.type == .polygon
                var keepHoles = false
                for path in feature.paths {
                    points += path.coords.count / 3
                    let ring = simplified(path, polygon: polygon)
                    if polygon {
                        if path.isOuter { keepHoles = ring.count >= 4 }
                        guard ring.count >= 4, keepHoles else { continue }
                        geometry.append(rewound(ring, clockwise: path.isOuter))
                    } else if ring.count >= 2 {
                        if lineMetrics, path.size > 0, Int(feature.index) < table.count {
                            let record = table[Int(feature.index)]
                            var properties = record.properties
                            properties["mapbox_clip_start"] = .number(path.start / path.size)
                            properties["mapbox_clip_end"] = .number(path.end / path.size)
                            out.append(VectorFeature(id: record.id, geometryType: .lineString, properties: properties,
                                                     geometry: [ring]))
                        } else {
                            geometry.append(ring)
                        }
                    }
                }
            case .unknown:
                continue
            }
            guard !geometry.isEmpty, Int(feature.index) < table.count else { continue }
            let record = table[Int(feature.index)]
            out.append(VectorFeature(id: record.id, geometryType: feature.type, properties: record.properties,
                                     geometry: geometry))
        }
        guard !out.isEmpty else { return (nil, points) }
        let layer = VectorLayer(name: layerName, extent: extent, version: 2, features: out)
        return (VectorTile(layers: [layerName: layer]), points)
    }

    /// The path's kept points in tile units, without consecutive duplicates.
    private func simplified(_ path: GeoJSONPath, polygon: Bool) -> [TilePoint] {
        let sqTolerance = tolerance * tolerance
        if tolerance > 0 && path.size < (polygon ? sqTolerance : tolerance) { return [] }
        var ring: [TilePoint] = []
        ring.reserveCapacity(path.coords.count / 3)
        var i = 0
        let c = path.coords
        while i + 2 < c.count {
            if tolerance == 0 || c[i + 2] > sqTolerance {
                let p = transform(c[i], c[i + 1])
                if ring.last != p { ring.append(p) }
            }
            i += 3
        }
        return ring
    }

    private func rewound(_ ring: [TilePoint], clockwise: Bool) -> [TilePoint] {
        var area: Int64 = 0
        var j = ring.count - 1
        for i in ring.indices {
            area += Int64(ring[j].x) * Int64(ring[i].y) - Int64(ring[i].x) * Int64(ring[j].y)
            j = i
        }
        return (area > 0) == clockwise ? ring : ring.reversed()
    }

    @inline(__always)
    private func transform(_ wx: Double, _ wy: Double) -> TilePoint {
        let scale = Double(1 << z)
        let e = Double(extent)
        return TilePoint(x: Self.round(e * (wx * scale - Double(x))), y: Self.round(e * (wy * scale - Double(y))))
    }

    /// JavaScript's Math.round (halves toward +infinity), clamped to Int32.
    @inline(__always)
    static func round(_ v: Double) -> Int32 {
        let r = (v + 0.5).rounded(.down)
        if r >= Double(Int32.max) { return .max }
        if r <= Double(Int32.min) { return .min }
        return r.isNaN ? 0 : Int32(r)
    }
}

/// What every clipped copy of a feature shares: its id and properties.
struct GeoJSONFeatureRecord: Sendable {
    var id: JSON?
    var properties: [String: JSON]
}
