import Foundation

/// `distance`: the shortest geodesic distance in meters from the feature to the given GeoJSON geometry.
final class DistanceExpr: Expr {
    typealias P = SIMD2<Double>
    enum Shape { case point(P), line([P]), polygon([[P]]), other }

    let shapes: [Shape]
    init(_ shapes: [Shape]) { self.shapes = shapes }
    var type: ExprType { .number }
    var children: [Expr] { [] }

    static let invalid = "'distance' expression requires valid geojson object that contains polygon geometry type."

    /// A geometry split into simple shapes (multi-geometries into their parts); nil when malformed.
    static func shapes(_ g: JSON) -> [Shape]? {
        guard let t = g["type"]?.stringValue, let c = g["coordinates"] else { return nil }
        typealias G = GeoJSONCoordinates
        switch t {
        case "Point": return G.position(c).map { [.point($0)] }
        case "MultiPoint": return G.multi(c, G.position).map { $0.map(Shape.point) }
        case "LineString": return G.line(c).map { [.line($0)] }
        case "MultiLineString": return G.multi(c, G.line).map { $0.map(Shape.line) }
        case "Polygon": return G.polygon(c).map { [.polygon($0)] }
        case "MultiPolygon": return G.multi(c, G.polygon).map { $0.map(Shape.polygon) }
        default: return [.other]
        }
    }

    static func parse(_ args: [JSON], _ ctx: ParsingContext) -> Expr? {
        guard args.count == 2 else { return ctx.error("'distance' expression requires exactly one argument, but found \(args.count - 1) instead.") }
        guard case .object(let o) = args[1] else { return ctx.error(invalid) }
        var all: [Shape] = []
        switch o["type"]?.stringValue {
        case "FeatureCollection":
            for f in o["features"]?.arrayValue ?? [] {
                guard let g = f["geometry"], let s = shapes(g) else { return ctx.error(invalid) }
                all += s
            }
        case "Feature":
            guard let g = o["geometry"], let s = shapes(g) else { return ctx.error(invalid) }
            all = s
        default:
            guard let s = shapes(args[1]) else { return ctx.error(invalid) }
            all = s
        }
        return DistanceExpr(all)
    }

    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        guard let (c, geometry) = TileGeo.featureGeometry(ctx), let f = ctx.feature else { return .number(.nan) }
        let ll = geometry.map { $0.map { TileGeo.lngLat($0, c) } }
        switch f.geometryType {
        case .point: return .number(fromPoints(ll.flatMap { $0 }, isLine: false))
        case .lineString: return .number(fromPoints(ll.flatMap { $0 }, isLine: true))
        case .polygon: return .number(fromPolygon(ll))
        case .unknown: return .number(.nan)
        }
    }

    /// NaN-propagating minimum, as JavaScript's Math.min.
    @inline(__always) static func jsMin(_ a: Double, _ b: Double) -> Double { a.isNaN || b.isNaN ? .nan : Swift.min(a, b) }

    private func fromPoints(_ pts: [P], isLine: Bool) -> Double {
        guard let first = pts.first else { return .nan }
        let r = CheapRuler(latitude: first.y)
        var dist = Double.infinity
        for s in shapes {
            switch s {
            case .point(let q):
                dist = Self.jsMin(dist, isLine ? Self.pointToLine(q, pts[...], r) : pts.reduce(r.distance(pts[0], q)) { Self.jsMin($0, r.distance($1, q)) })
            case .line(let l):
                guard let l0 = l.first else { continue }
                var d = Self.jsMin(dist, r.distance(first, l0))
                if isLine { d = Self.jsMin(d, Self.lineToLine(pts, l, r)) } else {
                    for p in pts { d = Self.jsMin(d, Self.pointToLine(p, l[...], r)) }
                }
                dist = Self.jsMin(dist, d)
            case .polygon(let poly):
                dist = Self.jsMin(dist, Self.pointsToPolygon(pts, isLine: isLine, poly, r, dist))
            case .other: break
            }
            if dist == 0 { return 0 }
        }
        return dist
    }

    private func fromPolygon(_ rings: [[P]]) -> Double {
        guard let r0 = rings.first, !r0.isEmpty else { return .nan }
        let polys = TileGeo.classifyRings(rings)
        guard let p0 = polys.first?.first?.first else { return .nan }
        let r = CheapRuler(latitude: p0.y)
        var dist = Double.infinity
        for s in shapes {
            for poly in polys {
                switch s {
                case .point(let q): dist = Self.jsMin(dist, Self.pointsToPolygon([q], isLine: false, poly, r, dist))
                case .line(let l): dist = Self.jsMin(dist, Self.pointsToPolygon(l, isLine: true, poly, r, dist))
                case .polygon(let other): dist = Self.jsMin(dist, Self.polygonToPolygon(poly, other, r))
                case .other: break
                }
                if dist == 0 { return 0 }
            }
        }
        return dist
    }

    static func pointToLine(_ p: P, _ line: ArraySlice<P>, _ r: CheapRuler) -> Double { r.distance(p, toLine: line) }

    static func segmentToSegment(_ p1: P, _ p2: P, _ q1: P, _ q2: P, _ r: CheapRuler) -> Double {
        let q = [q1, q2][...], p = [p1, p2][...]
        return jsMin(jsMin(pointToLine(p1, q, r), pointToLine(p2, q, r)), jsMin(pointToLine(q1, p, r), pointToLine(q2, p, r)))
    }

    static func lineToLine(_ a: [P], _ b: [P], _ r: CheapRuler) -> Double {
        var d = Double.infinity
        guard a.count > 1, b.count > 1 else { return d }
        for i in 0..<(a.count - 1) {
            for j in 0..<(b.count - 1) {
                if TileGeo.segmentsCross(a[i], a[i + 1], b[j], b[j + 1]) { return 0 }
                d = jsMin(d, segmentToSegment(a[i], a[i + 1], b[j], b[j + 1], r))
            }
        }
        return d
    }

    static func pointToPolygon(_ p: P, _ poly: [[P]], _ r: CheapRuler) -> Double {
        if TileGeo.pointInPolygon(p, poly, onBoundary: true) { return 0 }
        var d = Double.infinity
        for ring in poly {
            guard let front = ring.first, let back = ring.last else { continue }
            d = jsMin(d, pointToLine(p, [back, front][...], r))
            if d == 0 { return 0 }
            d = jsMin(d, pointToLine(p, ring[...], r))
            if d == 0 { return 0 }
        }
        return d
    }

    static func lineToPolygon(_ line: [P], _ poly: [[P]], _ r: CheapRuler) -> Double {
        for p in line where TileGeo.pointInPolygon(p, poly, onBoundary: true) { return 0 }
        var d = Double.infinity
        guard line.count > 1 else { return d }
        for i in 0..<(line.count - 1) {
            for ring in poly where !ring.isEmpty {
                var k = ring.count - 1
                for j in 0..<ring.count {
                    if TileGeo.segmentsCross(line[i], line[i + 1], ring[k], ring[j]) { return 0 }
                    d = jsMin(d, segmentToSegment(line[i], line[i + 1], ring[k], ring[j], r))
                    k = j
                }
            }
        }
        return d
    }

    static func pointsToPolygon(_ pts: [P], isLine: Bool, _ poly: [[P]], _ r: CheapRuler, _ current: Double) -> Double {
        guard let p0 = pts.first, let q0 = poly.first?.first else { return .nan }
        var d = jsMin(r.distance(p0, q0), current)
        if d == 0 { return 0 }
        if isLine { return jsMin(d, lineToPolygon(pts, poly, r)) }
        for p in pts {
            d = jsMin(d, pointToPolygon(p, poly, r))
            if d == 0 { return 0 }
        }
        return d
    }

    static func polygonToPolygon(_ a: [[P]], _ b: [[P]], _ r: CheapRuler) -> Double {
        var boxA = TileGeo.BBox(), boxB = TileGeo.BBox()
        for ring in a { for p in ring { boxA.add(p) } }
        for ring in b { for p in ring { boxB.add(p) } }
        func intersect(_ x: [[P]], _ y: [[P]]) -> Bool {
            x.contains { ring in ring.contains { TileGeo.pointInPolygon($0, y, onBoundary: true) } }
        }
        if boxA.isWithin(boxB) { if intersect(a, b) { return 0 } } else if intersect(b, a) { return 0 }
        var d = Double.infinity
        for ring1 in a where !ring1.isEmpty {
            var l = ring1.count - 1
            for i in 0..<ring1.count {
                for ring2 in b where !ring2.isEmpty {
                    var k = ring2.count - 1
                    for j in 0..<ring2.count {
                        if TileGeo.segmentsCross(ring1[l], ring1[i], ring2[k], ring2[j]) { return 0 }
                        d = jsMin(d, segmentToSegment(ring1[l], ring1[i], ring2[k], ring2[j], r))
                        k = j
                    }
                }
                l = i
            }
        }
        return d
    }
}
