/// A point of a feature query: tile units or screen pixels, as the caller works in.
public struct QueryPoint: Equatable, Sendable {
    public var x: Double
    public var y: Double
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }

    func distanceSquared(_ o: QueryPoint) -> Double { (x - o.x) * (x - o.x) + (y - o.y) * (y - o.y) }
}

/// The hit tests of rendered-feature queries, with MapLibre's semantics: a query "polygon" is one
/// point (a tap) or a closed ring (a box, first point repeated), and features are point sets,
/// lines or polygons (rings, holes by winding parity).
///
///     query box               feature line, buffered by half its width
///     +--------+              ============o==========
///     |     o--|---- hit      the box touches the band around the line
///     +--------+
public enum QueryIntersection {
    /// Whether `point` lies inside `ring` (crossing count; the ring need not be closed).
    public static func ringContains(_ ring: [QueryPoint], _ point: QueryPoint) -> Bool {
        var inside = false
        var j = ring.count - 1
        for i in ring.indices {
            let a = ring[i], b = ring[j]
            if (a.y > point.y) != (b.y > point.y),
               point.x < (b.x - a.x) * (point.y - a.y) / (b.y - a.y) + a.x {
                inside.toggle()
            }
            j = i
        }
        return inside
    }

    /// Whether `point` lies inside the polygon made of `rings` (even-odd over all rings, so
    /// holes are outside).
    public static func multiPolygonContains(_ rings: [[QueryPoint]], _ point: QueryPoint) -> Bool {
        var inside = false
        for ring in rings where ringContains(ring, point) { inside.toggle() }
        return inside
    }

    /// The squared distance from `p` to the segment `a`–`b`.
    static func segmentDistanceSquared(_ p: QueryPoint, _ a: QueryPoint, _ b: QueryPoint) -> Double {
        let l2 = a.distanceSquared(b)
        guard l2 > 0 else { return p.distanceSquared(a) }
        let t = ((p.x - a.x) * (b.x - a.x) + (p.y - a.y) * (b.y - a.y)) / l2
        if t < 0 { return p.distanceSquared(a) }
        if t > 1 { return p.distanceSquared(b) }
        return p.distanceSquared(QueryPoint(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)))
    }

    /// Whether `p` is closer than `radius` to the polyline `line` (a lone point counts as a line).
    static func pointNearLine(_ p: QueryPoint, _ line: [QueryPoint], _ radius: Double) -> Bool {
        let r2 = radius * radius
        if line.count == 1 { return p.distanceSquared(line[0]) < r2 }
        for i in 1..<max(1, line.count) where segmentDistanceSquared(p, line[i - 1], line[i]) < r2 { return true }
        return false
    }

    static func counterClockwise(_ a: QueryPoint, _ b: QueryPoint, _ c: QueryPoint) -> Bool {
        (c.y - a.y) * (b.x - a.x) > (b.y - a.y) * (c.x - a.x)
    }

    static func segmentsCross(_ a0: QueryPoint, _ a1: QueryPoint, _ b0: QueryPoint, _ b1: QueryPoint) -> Bool {
        counterClockwise(a0, b0, b1) != counterClockwise(a1, b0, b1) && counterClockwise(a0, a1, b0) != counterClockwise(a0, a1, b1)
    }

    /// Whether some segment of `a` crosses some segment of `b`.
    static func linesCross(_ a: [QueryPoint], _ b: [QueryPoint]) -> Bool {
        guard a.count > 1, b.count > 1 else { return false }
        for i in 1..<a.count {
            for j in 1..<b.count where segmentsCross(a[i - 1], a[i], b[j - 1], b[j]) { return true }
        }
        return false
    }

    /// Whether two polylines come closer than `radius`.
    static func linesNear(_ a: [QueryPoint], _ b: [QueryPoint], _ radius: Double) -> Bool {
        if a.count > 1 {
            if linesCross(a, b) { return true }
            for p in b where pointNearLine(p, a, radius) { return true }
        }
        for p in a where pointNearLine(p, b, radius) { return true }
        return false
    }

    /// A circle of `radius` around `point` against the query (circle layers).
    public static func queryHitsCircle(_ query: [QueryPoint], center point: QueryPoint, radius: Double) -> Bool {
        if ringContains(query, point) { return true }
        return pointNearLine(point, query, radius)
    }

    /// Lines widened by `halfWidth` on each side against the query (line layers).
    public static func queryHitsLines(_ query: [QueryPoint], lines: [[QueryPoint]], halfWidth: Double) -> Bool {
        for line in lines {
            if query.count >= 3 { for p in line where ringContains(query, p) { return true } }
            if linesNear(query, line, halfWidth) { return true }
        }
        return false
    }

    /// A polygon (its rings, holes by parity) against the query (fill layers).
    public static func queryHitsPolygon(_ query: [QueryPoint], rings: [[QueryPoint]]) -> Bool {
        if query.count == 1 { return multiPolygonContains(rings, query[0]) }
        for ring in rings { for p in ring where ringContains(query, p) { return true } }
        for p in query where multiPolygonContains(rings, p) { return true }
        for ring in rings where linesCross(query, ring) { return true }
        return false
    }

    /// Two rings (or a point and a ring) against each other: a corner inside the other, or
    /// crossing edges (symbol collision boxes, extrusion faces).
    public static func ringsIntersect(_ a: [QueryPoint], _ b: [QueryPoint]) -> Bool {
        for p in a where ringContains(b, p) { return true }
        for p in b where ringContains(a, p) { return true }
        return linesCross(a, b)
    }

    /// A ring against an axis-aligned box (`x1 <= x2`, `y1 <= y2`).
    public static func ringIntersectsBox(_ ring: [QueryPoint], _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Bool {
        for p in ring where x1 <= p.x && p.x <= x2 && y1 <= p.y && p.y <= y2 { return true }
        let corners = [QueryPoint(x1, y1), QueryPoint(x2, y1), QueryPoint(x2, y2), QueryPoint(x1, y2), QueryPoint(x1, y1)]
        if ring.count > 2 { for c in corners.dropLast() where ringContains(ring, c) { return true } }
        return linesCross(ring, corners)
    }
}
