import GLSnapData

/// Clips polylines to the box `minX...maxX` x `minY...maxY` (Liang-Barsky per segment). A line
/// that leaves and re-enters the box becomes several lines; new end points on the box edges are
/// rounded to integers (JavaScript rounding, as MapLibre's clipLine). Lines with fewer than two
/// points inside are dropped.
public func clipLines(_ lines: [[TilePoint]], minX: Int32, minY: Int32, maxX: Int32, maxY: Int32) -> [[TilePoint]] {
    var out: [[TilePoint]] = []
    let bx0 = Double(minX), by0 = Double(minY), bx1 = Double(maxX), by1 = Double(maxY)
    for line in lines where line.count >= 2 {
        var current: [TilePoint] = []
        for i in 0..<(line.count - 1) {
            let a = Vec2(line[i]), b = Vec2(line[i + 1])
            let d = b - a
            var t0 = 0.0, t1 = 1.0
            // Each box side as p * t <= q.
            let sides = [(-d.x, a.x - bx0), (d.x, bx1 - a.x), (-d.y, a.y - by0), (d.y, by1 - a.y)]
            var visible = true
            for (p, q) in sides {
                if p == 0 {
                    if q < 0 { visible = false; break }
                } else {
                    let r = q / p
                    if p < 0 {
                        if r > t1 { visible = false; break }
                        if r > t0 { t0 = r }
                    } else {
                        if r < t0 { visible = false; break }
                        if r < t1 { t1 = r }
                    }
                }
            }
            guard visible else {
                if current.count >= 2 { out.append(current) }
                current = []
                continue
            }
            let p0 = t0 == 0 ? line[i] : point(a + d * t0)
            let p1 = t1 == 1 ? line[i + 1] : point(a + d * t1)
            if current.last != p0 {
                if current.count >= 2 { out.append(current) }
                current = [p0]
            }
            current.append(p1)
            if t1 < 1 {
                if current.count >= 2 { out.append(current) }
                current = []
            }
        }
        if current.count >= 2 { out.append(current) }
    }
    return out
}

/// Clips each polygon ring to the box (Sutherland-Hodgman against the four sides). Rings come
/// back closed only if they came in closed; rings with fewer than three points left are dropped.
/// New points on the box edges are rounded to integers.
public func clipPolygon(_ rings: [[TilePoint]], minX: Int32, minY: Int32, maxX: Int32, maxY: Int32) -> [[TilePoint]] {
    var out: [[TilePoint]] = []
    for ring in rings {
        var r = ring
        r = clipRing(r, axis: 0, bound: minX, keepAbove: true)
        r = clipRing(r, axis: 0, bound: maxX, keepAbove: false)
        r = clipRing(r, axis: 1, bound: minY, keepAbove: true)
        r = clipRing(r, axis: 1, bound: maxY, keepAbove: false)
        if r.count >= 3 { out.append(r) }
    }
    return out
}

private func clipRing(_ ring: [TilePoint], axis: Int, bound: Int32, keepAbove: Bool) -> [TilePoint] {
    guard ring.count >= 2 else { return [] }
    let closed = ring.first == ring.last
    let pts = closed ? Array(ring.dropLast()) : ring
    func coord(_ p: TilePoint) -> Int32 { axis == 0 ? p.x : p.y }
    func inside(_ p: TilePoint) -> Bool { keepAbove ? coord(p) >= bound : coord(p) <= bound }
    var out: [TilePoint] = []
    out.reserveCapacity(pts.count + 4)
    guard var prev = pts.last else { return [] }
    for cur in pts {
        let curIn = inside(cur), prevIn = inside(prev)
        if curIn != prevIn {
            let a = Vec2(prev), b = Vec2(cur)
            let t = (Double(bound) - Double(coord(prev))) / (Double(coord(cur)) - Double(coord(prev)))
            var p = point(a + (b - a) * t)
            if axis == 0 { p.x = bound } else { p.y = bound }
            out.append(p)
        }
        if curIn { out.append(cur) }
        prev = cur
    }
    if closed, let f = out.first, out.last != f { out.append(f) }
    return out
}

/// Splits a polygon ring into open runs, leaving out the segments that lie along a tile edge
/// line at or beyond the tile (x or y both <= 0 or both >= `TileExtent.extent` on the same
/// edge): these are cuts made by a tile clipper, not real outlines. MapLibre does not do this
/// for line layers (its clipped edges lie in the buffer, outside the tile's stencil); use it
/// only for geometry clipped exactly at the tile border.
public func tileEdgeRuns(_ ring: [TilePoint]) -> [[TilePoint]] {
    guard ring.count >= 2 else { return [] }
    let e = TileExtent.extent
    func onEdge(_ a: TilePoint, _ b: TilePoint) -> Bool {
        (a.x == b.x && (a.x <= 0 || a.x >= e)) || (a.y == b.y && (a.y <= 0 || a.y >= e))
    }
    var runs: [[TilePoint]] = []
    var current: [TilePoint] = []
    for i in 0..<(ring.count - 1) {
        if onEdge(ring[i], ring[i + 1]) {
            if current.count >= 2 { runs.append(current) }
            current = []
        } else {
            if current.isEmpty { current = [ring[i]] }
            current.append(ring[i + 1])
        }
    }
    if current.count >= 2 { runs.append(current) }
    return runs
}

@inline(__always) private func point(_ v: Vec2) -> TilePoint {
    TilePoint(x: Int32(clamping: Int64(v.x.jsRounded)), y: Int32(clamping: Int64(v.y.jsRounded)))
}
