/// Triangulates a polygon with holes by ear clipping (the algorithm of mapbox/earcut, which
/// MapLibre uses for fills), written for glsnap.
///
/// `coords` holds x, y pairs: the outer ring first, then each hole; `holeIndices` gives the
/// vertex index (pair index, not coordinate index) where each hole starts. Rings need not be
/// closed. Returns vertex indices, three per triangle, into `coords`' vertices; always a
/// multiple of 3, empty for degenerate input. Holes are joined to the outer ring by bridges;
/// big polygons (over 80 vertices) use a z-order curve to find points inside candidate ears;
/// polygons with self-intersections fall back to local curing and splitting.
public func earcut(_ coords: [Double], holeIndices: [Int] = []) -> [UInt32] {
    earcut(coords, holeIndices: holeIndices, maxSteps: .max) ?? []
}

/// `earcut`, giving up (nil) after `maxSteps` steps: ear tests and ring nodes visited. Splitting
/// a self-intersecting ring tries diagonals in quadratic number, each checked against the
/// whole ring, so a few thousand crossing edges can take minutes unbounded.
public func earcut(_ coords: [Double], holeIndices: [Int] = [], maxSteps: Int) -> [UInt32]? {
    let vertexCount = coords.count / 2
    guard vertexCount >= 3 else { return [] }
    // Hole starts must rise strictly inside the vertex range; bad ones are ignored.
    var holes: [Int] = []
    var last = 0
    for h in holeIndices where h > last && h < vertexCount {
        holes.append(h)
        last = h
    }
    var state = EarcutState(coords: coords, capacity: vertexCount + 2 * holes.count + 8)
    var triangles: [UInt32] = []
    triangles.reserveCapacity((vertexCount + 2 * holes.count) * 3)
    let outerEnd = holes.first ?? vertexCount
    guard var outer = state.linkedList(start: 0, end: outerEnd, clockwise: true),
          state.next[outer] != state.prev[outer] else { return [] }
    if !holes.isEmpty {
        outer = state.eliminateHoles(holes, vertexCount: vertexCount, outer: outer)
    }
    if vertexCount > 80 {
        var minX = coords[0], minY = coords[1], maxX = minX, maxY = minY
        for v in 1..<outerEnd {
            let x = coords[2 * v], y = coords[2 * v + 1]
            if x < minX { minX = x }
            if y < minY { minY = y }
            if x > maxX { maxX = x }
            if y > maxY { maxY = y }
        }
        let size = max(maxX - minX, maxY - minY)
        state.minX = minX
        state.minY = minY
        state.invSize = size != 0 && size.isFinite ? 32767 / size : 0
    }
    state.maxSteps = maxSteps
    state.run(outer, into: &triangles)
    return state.steps > maxSteps ? nil : triangles
}

/// The node pool of one earcut run: circular doubly linked rings stored in parallel arrays,
/// `-1` for "no node". Removed nodes stay in the pool, unlinked.
struct EarcutState {
    let coords: [Double]
    var vertex: [Int32] = []
    var xs: [Double] = []
    var ys: [Double] = []
    var prev: [Int] = []
    var next: [Int] = []
    var z: [Int32] = []
    var prevZ: [Int] = []
    var nextZ: [Int] = []
    var steiner: [Bool] = []
    var minX = 0.0, minY = 0.0, invSize = 0.0
    /// Work done so far, and the most allowed (`run` stops once `steps` passes it).
    var steps = 0
    var maxSteps = Int.max

    init(coords: [Double], capacity: Int) {
        self.coords = coords
        vertex.reserveCapacity(capacity); xs.reserveCapacity(capacity); ys.reserveCapacity(capacity)
        prev.reserveCapacity(capacity); next.reserveCapacity(capacity); z.reserveCapacity(capacity)
        prevZ.reserveCapacity(capacity); nextZ.reserveCapacity(capacity); steiner.reserveCapacity(capacity)
    }

    // MARK: list building

    mutating func makeNode(_ v: Int32, _ x: Double, _ y: Double) -> Int {
        let n = xs.count
        vertex.append(v); xs.append(x); ys.append(y)
        prev.append(n); next.append(n); z.append(0)
        prevZ.append(-1); nextZ.append(-1); steiner.append(false)
        return n
    }

    mutating func insertNode(_ v: Int, after last: Int) -> Int {
        let p = makeNode(Int32(v), coords[2 * v], coords[2 * v + 1])
        if last >= 0 {
            next[p] = next[last]
            prev[p] = last
            prev[next[last]] = p
            next[last] = p
        }
        return p
    }

    mutating func removeNode(_ p: Int) {
        prev[next[p]] = prev[p]
        next[prev[p]] = next[p]
        if prevZ[p] >= 0 { nextZ[prevZ[p]] = nextZ[p] }
        if nextZ[p] >= 0 { prevZ[nextZ[p]] = prevZ[p] }
    }

    /// A ring of vertices `start..<end` in the wanted winding; nil when empty.
    mutating func linkedList(start: Int, end: Int, clockwise: Bool) -> Int? {
        var area = 0.0
        var j = end - 1
        for i in start..<end {
            area += (coords[2 * j] - coords[2 * i]) * (coords[2 * i + 1] + coords[2 * j + 1])
            j = i
        }
        var last = -1
        if clockwise == (area > 0) {
            for i in start..<end { last = insertNode(i, after: last) }
        } else {
            for i in stride(from: end - 1, through: start, by: -1) { last = insertNode(i, after: last) }
        }
        guard last >= 0 else { return nil }
        if equals(last, next[last]) {
            removeNode(last)
            last = next[last]
        }
        return last
    }

    // MARK: geometry predicates

    @inline(__always) func area(_ p: Int, _ q: Int, _ r: Int) -> Double {
        (ys[q] - ys[p]) * (xs[r] - xs[q]) - (xs[q] - xs[p]) * (ys[r] - ys[q])
    }

    @inline(__always) func equals(_ a: Int, _ b: Int) -> Bool { xs[a] == xs[b] && ys[a] == ys[b] }

    @inline(__always) static func pointInTriangle(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                                                  _ cx: Double, _ cy: Double, _ px: Double, _ py: Double) -> Bool {
        (cx - px) * (ay - py) >= (ax - px) * (cy - py) &&
            (ax - px) * (by - py) >= (bx - px) * (ay - py) &&
            (bx - px) * (cy - py) >= (cx - px) * (by - py)
    }

    func intersects(_ p1: Int, _ q1: Int, _ p2: Int, _ q2: Int) -> Bool {
        func sign(_ v: Double) -> Int { v > 0 ? 1 : v < 0 ? -1 : 0 }
        func onSegment(_ p: Int, _ q: Int, _ r: Int) -> Bool {
            xs[q] <= max(xs[p], xs[r]) && xs[q] >= min(xs[p], xs[r]) &&
                ys[q] <= max(ys[p], ys[r]) && ys[q] >= min(ys[p], ys[r])
        }
        let o1 = sign(area(p1, q1, p2)), o2 = sign(area(p1, q1, q2))
        let o3 = sign(area(p2, q2, p1)), o4 = sign(area(p2, q2, q1))
        if o1 != o2 && o3 != o4 { return true }
        if o1 == 0 && onSegment(p1, p2, q1) { return true }
        if o2 == 0 && onSegment(p1, q2, q1) { return true }
        if o3 == 0 && onSegment(p2, p1, q2) { return true }
        if o4 == 0 && onSegment(p2, q1, q2) { return true }
        return false
    }

    func intersectsPolygon(_ a: Int, _ b: Int) -> Bool {
        var p = a
        repeat {
            let pn = next[p]
            if vertex[p] != vertex[a] && vertex[pn] != vertex[a] && vertex[p] != vertex[b] && vertex[pn] != vertex[b]
                && intersects(p, pn, a, b) { return true }
            p = pn
        } while p != a
        return false
    }

    func locallyInside(_ a: Int, _ b: Int) -> Bool {
        area(prev[a], a, next[a]) < 0
            ? area(a, b, next[a]) >= 0 && area(a, prev[a], b) >= 0
            : area(a, b, prev[a]) < 0 || area(a, next[a], b) < 0
    }

    func middleInside(_ a: Int, _ b: Int) -> Bool {
        var p = a, inside = false
        let px = (xs[a] + xs[b]) / 2, py = (ys[a] + ys[b]) / 2
        repeat {
            let n = next[p]
            if (ys[p] > py) != (ys[n] > py) && ys[n] != ys[p]
                && px < (xs[n] - xs[p]) * (py - ys[p]) / (ys[n] - ys[p]) + xs[p] {
                inside.toggle()
            }
            p = n
        } while p != a
        return inside
    }

    func isValidDiagonal(_ a: Int, _ b: Int) -> Bool {
        guard vertex[next[a]] != vertex[b], vertex[prev[a]] != vertex[b], !intersectsPolygon(a, b) else { return false }
        if locallyInside(a, b) && locallyInside(b, a) && middleInside(a, b)
            && (area(prev[a], a, prev[b]) != 0 || area(a, prev[b], b) != 0) { return true }
        return equals(a, b) && area(prev[a], a, next[a]) > 0 && area(prev[b], b, next[b]) > 0
    }

    /// Joins `a` and `b` with a two-way bridge (duplicating both); returns b's copy.
    mutating func splitPolygon(_ a: Int, _ b: Int) -> Int {
        let a2 = makeNode(vertex[a], xs[a], ys[a])
        let b2 = makeNode(vertex[b], xs[b], ys[b])
        let an = next[a], bp = prev[b]
        next[a] = b; prev[b] = a
        next[a2] = an; prev[an] = a2
        next[b2] = a2; prev[a2] = b2
        next[bp] = b2; prev[b2] = bp
        return b2
    }

    /// Removes duplicate and collinear points between `start` and `end`.
    mutating func filterPoints(_ start: Int, _ endNode: Int? = nil) -> Int {
        var end = endNode ?? start
        var p = start
        var again: Bool
        repeat {
            again = false
            if !steiner[p] && (equals(p, next[p]) || area(prev[p], p, next[p]) == 0) {
                removeNode(p)
                p = prev[p]
                end = p
                if p == next[p] { break }
                again = true
            } else {
                p = next[p]
            }
        } while again || p != end
        return end
    }
}
