/// A line label's collision circles on the globe, laid as GL JS lays them there (its runtime
/// collision circles, `placeCollisionCircles`): the label's path from its first glyph to its
/// last, taken along the tile line and projected through the sphere, cut to its longest run in
/// front of the horizon and to the padded view, then circles evenly spaced along it on the
/// screen. The flat map keeps the circles laid out along the tile line (`placeLineCircles`).
///
///     first glyph                    last glyph
///         o----o----o----o----o----o----o         circles: ceil(padded length / 2.5 r) + 1,
///        ( )  ( )  ( )  ( )  ( )  ( )  ( )        evenly from one end (less r/4) to the other
enum GlobeLineCircles {
    /// GL JS's collision viewport padding: circles are laid within the view grown by it.
    static let viewPadding = 100.0
    /// Circles lie at most this many radii apart (a little over a diameter).
    static let spacingInRadii = 2.5
    /// Each end of the path is drawn in by this many radii.
    static let endPaddingInRadii = 0.25

    /// The tile points of the label's path: from `reach.back` tile units before the anchor to
    /// `reach.forward` after it along `line`, through the line's vertices between.
    static func path(_ line: [Vec2], anchor: Vec2, segment: Int, reach: (back: Double, forward: Double)) -> [Vec2]? {
        guard segment >= 0, segment + 1 < line.count else { return nil }
        func walk(from start: Vec2, distance: Double, next: Int, step: Int) -> [Vec2]? {
            var out: [Vec2] = [], p = start, left = distance, i = next
            while line.indices.contains(i) {
                let d = line[i].dist(p)
                if d >= left {
                    out.append(d > 0 ? p + (line[i] - p) * (left / d) : p)
                    return out
                }
                left -= d
                p = line[i]
                out.append(p)
                i += step
            }
            // Past the line's end (its glyphs reach it within rounding): the path stops there.
            return out.isEmpty ? [p] : out
        }
        guard let back = walk(from: anchor, distance: reach.back, next: segment, step: -1),
              let forward = walk(from: anchor, distance: reach.forward, next: segment + 1, step: 1) else { return nil }
        return back.reversed() + forward
    }

    /// GL JS's line subdivision on the globe: at tile zoom z a tile is cut into
    /// max(512 / 2^z, 1) cells a side, and lines get a vertex where they cross a cell's edge,
    /// so that their paths bend with the sphere.
    static let lineCellsAtZoom0 = 512

    /// `path` with a vertex wherever it crosses the edge of a cell (tile units) of a tile at zoom `z`.
    static func subdivided(_ path: [Vec2], z: Int) -> [Vec2] {
        let cells = z >= 30 ? 1 : lineCellsAtZoom0 >> min(z, 30)
        guard cells >= 2, let first = path.first else { return path }
        let step = (Double(TileExtent.extent) / Double(cells)).rounded(.down)
        var out = [first]
        for i in 1..<path.count {
            let a = path[i - 1], b = path[i], d = b - a
            var ts: [Double] = []
            for (lo, hi, start, delta) in [(min(a.x, b.x), max(a.x, b.x), a.x, d.x), (min(a.y, b.y), max(a.y, b.y), a.y, d.y)] where delta != 0 {
                var edge = ((lo / step).rounded(.down) + 1) * step
                // Bounded: a path within one tile crosses at most `cells` edges an axis.
                var n = 0
                while edge < hi && n <= cells { ts.append((edge - start) / delta); edge += step; n += 1 }
            }
            for t in ts.sorted() where t > 0 && t < 1 { out.append(a + d * t) }
            out.append(b)
        }
        return out
    }

    /// The screen path of tile points `path`: nil when one is behind the camera; the longest
    /// run of points the planet does not hide (GL JS's pathSlicedToLongestUnoccluded).
    static func screenPath(_ path: [Vec2], projector: TileProjector) -> [Vec2]? {
        var points: [(p: Vec2, hidden: Bool)] = []
        for v in path {
            guard let s = projector.project(v) else { return nil }
            points.append((Vec2(s.x, s.y), projector.isOccluded(v)))
        }
        var best = 0..<0, start = 0
        for (i, q) in points.enumerated() {
            if q.hidden { start = i + 1; continue }
            if i + 1 - start > best.count { best = start..<(i + 1) }
        }
        return points[best].map(\.p)
    }

    /// The runs of `path` inside the rectangle (x1, y1)–(x2, y2).
    static func clipped(_ path: [Vec2], _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> [[Vec2]] {
        func inside(_ p: Vec2) -> Bool { p.x >= x1 && p.x <= x2 && p.y >= y1 && p.y <= y2 }
        if path.allSatisfy(inside) { return path.isEmpty ? [] : [path] }
        var runs: [[Vec2]] = []
        for i in 0..<max(path.count - 1, 0) {
            // Liang-Barsky: the part of the segment inside.
            let a = path[i], d = path[i + 1] - a
            var t0 = 0.0, t1 = 1.0
            var visible = true
            for (p, q) in [(-d.x, a.x - x1), (d.x, x2 - a.x), (-d.y, a.y - y1), (d.y, y2 - a.y)] {
                if p == 0 {
                    if q < 0 { visible = false }
                } else {
                    let r = q / p
                    if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
                }
            }
            guard visible, t0 <= t1 else { continue }
            let s = a + d * t0, e = a + d * t1
            if let last = runs.last?.last, last == s, t0 == 0 { runs[runs.count - 1].append(e) } else { runs.append([s, e]) }
        }
        return runs
    }

    /// Points evenly spaced along `path` (GL JS's PathInterpolator): `count` of them from
    /// `padding` after its start to `padding` before its end.
    static func spaced(_ path: [Vec2], radius: Double) -> [Vec2] {
        guard let first = path.first else { return [] }
        var distances = [0.0]
        for i in 1..<path.count { distances.append(distances[i - 1] + path[i].dist(path[i - 1])) }
        let length = distances[distances.count - 1]
        let padding = min(radius * endPaddingInRadii, length / 2)
        let padded = length - 2 * padding
        let count = length <= radius / 2 ? 1 : Int((padded / (radius * spacingInRadii)).rounded(.up)) + 1
        guard path.count > 1 else { return [first] }
        var out: [Vec2] = []
        var index = 1
        for k in 0..<count {
            let target = Double(k) / Double(max(count - 1, 1)) * padded + padding
            while index < path.count - 1 && distances[index] < target { index += 1 }
            let span = distances[index] - distances[index - 1]
            let t = span > 0 ? (target - distances[index - 1]) / span : 0
            out.append(path[index - 1] + (path[index] - path[index - 1]) * t)
        }
        return out
    }

    /// Tests the label's circles of `radius` on the globe, leaving in `shapes` those to insert;
    /// true when none collides and at least one lies in the grid.
    static func place(_ inst: SymbolInstance, _ symbols: SymbolTile, projector: TileProjector,
                      reach: (back: Double, forward: Double), radius: Double, overlap: OverlapMode, grid: CollisionGrid,
                      width: Double, height: Double, debug: Bool, shapes: inout [CollisionShape]) -> Bool {
        guard let line = symbols.lines[safe: inst.line],
              let tilePath = path(line, anchor: inst.anchor, segment: inst.segment, reach: reach),
              let screen = screenPath(subdivided(tilePath, z: projector.projection.globe?.z ?? 30), projector: projector)
        else { return false }
        let p = viewPadding
        var inGrid = false, collided = false
        for run in clipped(screen, -p, -p, width + p, height + p) {
            for c in spaced(run, radius: radius) {
                let shape = CollisionShape.circle(c.x, c.y, radius)
                shapes.append(shape)
                inGrid = inGrid || grid.isInside(shape)
                // Collision debug draws every circle, so it goes on past the first collision.
                if grid.collides(shape, mode: overlap) { collided = true; if !debug { return false } }
            }
        }
        return !collided && inGrid
    }
}
