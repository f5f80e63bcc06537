extension EarcutState {
    /// Links every hole into the outer ring, leftmost hole first.
    mutating func eliminateHoles(_ holes: [Int], vertexCount: Int, outer: Int) -> Int {
        var queue: [Int] = []
        for (k, start) in holes.enumerated() {
            let end = k + 1 < holes.count ? holes[k + 1] : vertexCount
            guard let list = linkedList(start: start, end: end, clockwise: false) else { continue }
            if list == next[list] { steiner[list] = true }
            queue.append(leftmost(list))
        }
        // Left to right; holes whose leftmost points meet go counterclockwise (by the slope of
        // their first edge), so each bridges to the point where they meet.
        queue.sort { a, b in
            if xs[a] != xs[b] { return xs[a] < xs[b] }
            if ys[a] != ys[b] { return ys[a] < ys[b] }
            return slope(a) < slope(b)
        }
        var outerNode = outer
        for hole in queue {
            outerNode = eliminateHole(hole, outerNode)
        }
        return outerNode
    }

    /// The slope of the edge leaving `p` (NaN or infinite for vertical and repeated points).
    func slope(_ p: Int) -> Double { (ys[next[p]] - ys[p]) / (xs[next[p]] - xs[p]) }

    func leftmost(_ start: Int) -> Int {
        var p = start, best = start
        repeat {
            if xs[p] < xs[best] || (xs[p] == xs[best] && ys[p] < ys[best]) { best = p }
            p = next[p]
        } while p != start
        return best
    }

    mutating func eliminateHole(_ hole: Int, _ outerNode: Int) -> Int {
        guard let bridge = findHoleBridge(hole, outerNode) else { return outerNode }
        let bridgeReverse = splitPolygon(bridge, hole)
        _ = filterPoints(bridgeReverse, next[bridgeReverse])
        return filterPoints(bridge, next[bridge])
    }

    /// David Eberly's bridge search: cast a ray left from the hole's leftmost point, take the
    /// hit segment's left end, then the visible point of smallest angle inside the triangle.
    func findHoleBridge(_ hole: Int, _ outerNode: Int) -> Int? {
        var p = outerNode
        let hx = xs[hole], hy = ys[hole]
        var qx = -Double.infinity
        var found = -1
        // A hole touching the outer ring at its leftmost point bridges there.
        if equals(hole, p) { return p }
        repeat {
            let n = next[p]
            if equals(hole, n) { return n }
            if hy <= ys[p] && hy >= ys[n] && ys[n] != ys[p] {
                let x = xs[p] + (hy - ys[p]) * (xs[n] - xs[p]) / (ys[n] - ys[p])
                if x <= hx && x > qx {
                    qx = x
                    found = xs[p] < xs[n] ? p : n
                    if x == hx { return found }
                }
            }
            p = n
        } while p != outerNode
        guard found >= 0 else { return nil }
        var m = found
        let stop = m, mx = xs[m], my = ys[m]
        var tanMin = Double.infinity
        p = m
        repeat {
            if hx >= xs[p] && xs[p] >= mx && hx != xs[p]
                && Self.pointInTriangle(hy < my ? hx : qx, hy, mx, my, hy < my ? qx : hx, hy, xs[p], ys[p]) {
                let tan = abs(hy - ys[p]) / (hx - xs[p])
                if locallyInside(p, hole)
                    && (tan < tanMin || (tan == tanMin && (xs[p] > xs[m] || (xs[p] == xs[m] && sectorContainsSector(m, p))))) {
                    m = p
                    tanMin = tan
                }
            }
            p = next[p]
        } while p != stop
        return m
    }

    func sectorContainsSector(_ m: Int, _ p: Int) -> Bool {
        area(prev[m], m, prev[p]) < 0 && area(next[p], m, next[m]) < 0
    }
}
