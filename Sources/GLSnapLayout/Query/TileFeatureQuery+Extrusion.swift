import Foundation

extension TileFeatureQuery {
    /// A projected point with its depth.
    struct DepthPoint {
        var p: QueryPoint
        var z: Double
    }

    /// Where the screen-space query meets an extruded polygon: the roof or a wall, as MapLibre's
    /// fill-extrusion query tests them. Returns the depth of the nearest face hit, nil if none.
    static func extrusionDepth(_ query: [QueryPoint], geometry: [[QueryPoint]], base: Double, height: Double,
                               projection: TileScreenProjection) -> Double? {
        let bases = geometry.map { ring in ring.map { p -> DepthPoint in let r = projection.project(p, z: base); return DepthPoint(p: r.point, z: r.depth) } }
        let tops = geometry.map { ring in ring.map { p -> DepthPoint in let r = projection.project(p, z: height); return DepthPoint(p: r.point, z: r.depth) } }
        var nearest = Double.infinity
        if QueryIntersection.queryHitsPolygon(query, rings: tops.map { $0.map(\.p) }), let roof = tops.first {
            nearest = faceDepth(query, roof)
        }
        for (r, top) in tops.enumerated() {
            let bottom = bases[r]
            guard top.count > 1 else { continue }
            for i in 0..<(top.count - 1) {
                let face = [top[i], top[i + 1], bottom[i + 1], bottom[i], top[i]]
                if QueryIntersection.ringsIntersect(query, face.map(\.p)) {
                    nearest = min(nearest, faceDepth(query, face))
                }
            }
        }
        return nearest == .infinity ? nil : nearest
    }

    /// The depth of a planar face under a point query (barycentric over its first triangle that
    /// is not degenerate), or of its nearest corner for a box query.
    static func faceDepth(_ query: [QueryPoint], _ face: [DepthPoint]) -> Double {
        guard query.count == 1 else { return face.map(\.z).min() ?? .infinity }
        guard let a = face.first else { return .infinity }
        var i = 1
        var bIndex: Int?
        while i < face.count {
            defer { i += 1 }
            if face[i].p != a.p { bIndex = i; break }
        }
        guard let bi = bIndex else { return .infinity }
        let b = face[bi]
        let p = query[0]
        for c in face[(bi + 1)...] {
            let ab = (b.p.x - a.p.x, b.p.y - a.p.y), ac = (c.p.x - a.p.x, c.p.y - a.p.y), ap = (p.x - a.p.x, p.y - a.p.y)
            let abab = ab.0 * ab.0 + ab.1 * ab.1, abac = ab.0 * ac.0 + ab.1 * ac.1, acac = ac.0 * ac.0 + ac.1 * ac.1
            let apab = ap.0 * ab.0 + ap.1 * ab.1, apac = ap.0 * ac.0 + ap.1 * ac.1
            let denom = abab * acac - abac * abac
            let v = (acac * apab - abac * apac) / denom
            let w = (abab * apac - abac * apab) / denom
            let u = 1 - v - w
            let depth = a.z * u + b.z * v + c.z * w
            if depth.isFinite { return depth }
        }
        return .infinity
    }
}
