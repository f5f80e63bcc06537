/// Line preparation for `symbol-placement: line`, as MapLibre does it before finding anchors:
/// lines of the same label that meet end to end are merged, and lines are clipped to the tile so
/// a label never runs past the tile's edge (the neighbour tile places its own part).
enum SymbolLines {
    /// Clips `lines` to the square [0, extent]: each run inside becomes its own line, with the
    /// points where it leaves the square rounded to whole tile units (MapLibre's clipLines).
    static func clip(_ lines: [[Vec2]], extent: Double) -> [[Vec2]] {
        var out: [[Vec2]] = []
        for line in lines where line.count >= 2 {
            for i in 0..<(line.count - 1) {
                var p0 = line[i], p1 = line[i + 1]
                guard clipAxis(&p0, &p1, bound: 0, keepAbove: true, x: true),
                      clipAxis(&p0, &p1, bound: 0, keepAbove: true, x: false),
                      clipAxis(&p0, &p1, bound: extent, keepAbove: false, x: true),
                      clipAxis(&p0, &p1, bound: extent, keepAbove: false, x: false) else { continue }
                if out.isEmpty || out[out.count - 1].last != p0 {
                    out.append([p0])
                }
                out[out.count - 1].append(p1)
            }
        }
        return out
    }

    /// Cuts the segment at `bound` on one axis; false when it lies wholly outside.
    private static func clipAxis(_ p0: inout Vec2, _ p1: inout Vec2, bound: Double, keepAbove: Bool, x: Bool) -> Bool {
        let a0 = x ? p0.x : p0.y, a1 = x ? p1.x : p1.y
        let out0 = keepAbove ? a0 < bound : a0 >= bound
        let out1 = keepAbove ? a1 < bound : a1 >= bound
        if out0 && out1 { return false }
        func cut(_ a: Vec2, _ b: Vec2) -> Vec2 {
            let aa = x ? a.x : a.y, ba = x ? b.x : b.y
            let t = (bound - aa) / (ba - aa)
            let other = x ? (a.y + (b.y - a.y) * t).jsRounded : (a.x + (b.x - a.x) * t).jsRounded
            return x ? Vec2(bound, other) : Vec2(other, bound)
        }
        if out0 { p0 = cut(p0, p1) } else if out1 { p1 = cut(p0, p1) }
        return true
    }

    /// Joins the first line of features whose label text matches and whose ends meet (MapLibre's
    /// mergeLines). `geometry[k]` is feature k's lines; `keys[k]` its text (nil: not merged).
    /// A merged-away feature is left with an empty first line.
    static func merge(_ geometry: inout [[[Vec2]]], keys: [String?]) {
        struct End: Hashable { var text: String; var x: Double; var y: Double }
        var leftIndex: [End: Int] = [:], rightIndex: [End: Int] = [:]
        func key(_ text: String, _ p: Vec2) -> End { End(text: text, x: p.x, y: p.y) }
        for k in geometry.indices {
            guard let text = keys[k], let first = geometry[k].first, let start = first.first, let end = first.last else { continue }
            let leftKey = key(text, start), rightKey = key(text, end)
            let left = rightIndex[leftKey], right = leftIndex[rightKey]
            if let l = left, let r = right, l != r {
                // Lines with the same text meet both ends of this one: join all three into `l`.
                var joined = geometry[k][0]
                joined.removeLast()
                joined += geometry[r][0]
                geometry[r][0] = []
                leftIndex[rightKey] = nil
                geometry[k][0] = []
                var into = geometry[l][0]
                into.removeLast()
                into += joined
                geometry[l][0] = into
                rightIndex[leftKey] = nil
                leftIndex[leftKey] = nil
                rightIndex[rightKey] = nil
                if let last = into.last { rightIndex[key(text, last)] = l }
            } else if let l = left {
                // A line ends where this one starts: append this one to it.
                rightIndex[leftKey] = nil
                rightIndex[rightKey] = l
                geometry[l][0].removeLast()
                geometry[l][0] += geometry[k][0]
                geometry[k][0] = []
            } else if let r = right {
                // A line starts where this one ends: prepend this one to it.
                leftIndex[rightKey] = nil
                leftIndex[leftKey] = r
                var joined = geometry[k][0]
                joined.removeLast()
                joined += geometry[r][0]
                geometry[r][0] = joined
                geometry[k][0] = []
            } else {
                leftIndex[leftKey] = k
                rightIndex[rightKey] = k
            }
        }
    }
}
