import Foundation

/// Reads GeoJSON coordinate arrays into points; nil when the shape is wrong.
enum GeoJSONCoordinates {
    static func position(_ j: JSON) -> SIMD2<Double>? {
        guard let a = j.arrayValue, a.count >= 2, let x = a[0].numberValue, let y = a[1].numberValue else { return nil }
        return SIMD2(x, y)
    }
    static func line(_ j: JSON) -> [SIMD2<Double>]? {
        guard let a = j.arrayValue else { return nil }
        var out: [SIMD2<Double>] = []
        out.reserveCapacity(a.count)
        for p in a { guard let q = position(p) else { return nil }; out.append(q) }
        return out
    }
    static func polygon(_ j: JSON) -> [[SIMD2<Double>]]? {
        guard let a = j.arrayValue else { return nil }
        var out: [[SIMD2<Double>]] = []
        for r in a { guard let ring = line(r) else { return nil }; out.append(ring) }
        return out
    }
    static func multi<T>(_ j: JSON, _ each: (JSON) -> T?) -> [T]? {
        guard let a = j.arrayValue else { return nil }
        var out: [T] = []
        for e in a { guard let v = each(e) else { return nil }; out.append(v) }
        return out
    }
}

/// `within`: whether every point of the feature (points or line strings) lies inside the given polygons,
/// computed in world tile units at the tile's zoom.
final class WithinExpr: Expr {
    /// Polygons as longitude/latitude rings.
    let polygons: [[[SIMD2<Double>]]]
    init(_ polygons: [[[SIMD2<Double>]]]) { self.polygons = polygons }
    var type: ExprType { .boolean }
    var children: [Expr] { [] }

    static let invalid = "'within' expression requires valid geojson object that contains polygon geometry type."

    static func parse(_ args: [JSON], _ ctx: ParsingContext) -> Expr? {
        guard args.count == 2 else { return ctx.error("'within' expression requires exactly one argument, but found \(args.count - 1) instead.") }
        guard case .object(let o) = args[1] else { return ctx.error(invalid) }
        var polys: [[[SIMD2<Double>]]] = []
        func add(_ geometry: JSON?) -> Bool {
            guard let g = geometry, let t = g["type"]?.stringValue, let c = g["coordinates"] else { return true }
            if t == "Polygon" {
                guard let p = GeoJSONCoordinates.polygon(c) else { return false }
                polys.append(p)
            } else if t == "MultiPolygon" {
                guard let m = GeoJSONCoordinates.multi(c, GeoJSONCoordinates.polygon) else { return false }
                polys.append(contentsOf: m)
            }
            return true
        }
        switch o["type"]?.stringValue {
        case "FeatureCollection":
            for f in o["features"]?.arrayValue ?? [] where !add(f["geometry"]) { return ctx.error(invalid) }
        case "Feature":
            guard add(o["geometry"]) else { return ctx.error(invalid) }
        case "Polygon", "MultiPolygon":
            guard add(args[1]) else { return ctx.error(invalid) }
        default: break
        }
        guard !polys.isEmpty else { return ctx.error(invalid) }
        return WithinExpr(polys)
    }

    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        guard let (canonical, geometry) = TileGeo.featureGeometry(ctx), let f = ctx.feature else { return .bool(false) }
        switch f.geometryType {
        case .point: return .bool(pointsWithin(geometry, canonical))
        case .lineString: return .bool(linesWithin(geometry, canonical))
        default: return .bool(false)
        }
    }

    private func tilePolygons(_ z: Int, _ bbox: inout TileGeo.BBox) -> [[[SIMD2<Double>]]] {
        polygons.map { rings in
            rings.map { ring in
                ring.map { p in
                    let q = TileGeo.worldPoint(p, z: z)
                    bbox.add(q)
                    return q
                }
            }
        }
    }

    /// Moves `p` by a world width when that brings it nearer the polygons' bounding box (antimeridian).
    private func wrap(_ p: inout SIMD2<Double>, _ bbox: inout TileGeo.BBox, _ poly: TileGeo.BBox, _ worldSize: Double) {
        if p.x < poly.minX || p.x > poly.maxX {
            let half = worldSize * 0.5
            var shift = p.x - poly.minX > half ? -worldSize : (poly.minX - p.x > half ? worldSize : 0)
            if shift == 0 { shift = p.x - poly.maxX > half ? -worldSize : (poly.maxX - p.x > half ? worldSize : 0) }
            p.x += shift
        }
        bbox.add(p)
    }

    private func pointsWithin(_ geometry: [[SIMD2<Double>]], _ c: CanonicalTileID) -> Bool {
        var polyBox = TileGeo.BBox(), pointBox = TileGeo.BBox()
        let polys = tilePolygons(c.z, &polyBox)
        let worldSize = pow(2, Double(c.z)) * TileGeo.extent
        let shift = SIMD2(Double(c.x), Double(c.y)) * TileGeo.extent
        var points: [SIMD2<Double>] = []
        for part in geometry {
            for p in part {
                var q = p + shift
                wrap(&q, &pointBox, polyBox, worldSize)
                points.append(q)
            }
        }
        guard pointBox.isWithin(polyBox) else { return false }
        for p in points where !polys.contains(where: { TileGeo.pointInPolygon(p, $0) }) { return false }
        return true
    }

    private func linesWithin(_ geometry: [[SIMD2<Double>]], _ c: CanonicalTileID) -> Bool {
        var polyBox = TileGeo.BBox(), lineBox = TileGeo.BBox()
        let polys = tilePolygons(c.z, &polyBox)
        let worldSize = pow(2, Double(c.z)) * TileGeo.extent
        let shift = SIMD2(Double(c.x), Double(c.y)) * TileGeo.extent
        var lines = geometry.map { $0.map { $0 + shift } }
        for l in lines { for p in l { lineBox.add(p) } }
        if lineBox.maxX - lineBox.minX <= worldSize / 2 {
            lineBox = TileGeo.BBox()
            for i in lines.indices { for j in lines[i].indices { wrap(&lines[i][j], &lineBox, polyBox, worldSize) } }
        }
        guard lineBox.isWithin(polyBox) else { return false }
        for l in lines where !polys.contains(where: { TileGeo.lineInPolygon(l, $0) }) { return false }
        return true
    }
}
