import GLSnapGL

/// Signed-distance rows for line-dasharray patterns (MapLibre's LineAtlas): 128 at a dash edge,
/// rising inside dashes. A butt-capped pattern is one row of `width` texels; a round-capped one is
/// `2 * roundRows + 1` rows whose distances also grow across the line, so dash ends come out round.
final class DashAtlas {
    static let width = 256
    static let maxHeight = 1024
    /// Rows either side of a round pattern's center row.
    static let roundRows = 7

    /// Where a pattern lies in the atlas, in texels.
    struct Entry {
        var firstRow: Int
        var rowCount: Int
    }

    private struct Key: Hashable {
        var pattern: [Double]
        var round: Bool
    }

    private var entries: [Key: Entry] = [:]
    private var data: [UInt8] = []
    private var texture: Texture?
    private var dirty = false

    /// Rows in the atlas so far.
    var height: Int { max(1, data.count / DashAtlas.width) }

    /// The entry of `pattern` (dash and gap lengths, in line widths); nil when the pattern is empty
    /// or the atlas is full.
    func entry(for pattern: [Double], round: Bool) -> Entry? {
        let key = Key(pattern: pattern, round: round)
        if let e = entries[key] { return e }
        let total = pattern.reduce(0, +)
        let n = round ? DashAtlas.roundRows : 0
        guard !pattern.isEmpty, pattern.allSatisfy({ $0 >= 0 && $0.isFinite }), total > 0,
              height + 2 * n + 1 <= DashAtlas.maxHeight else { return nil }
        let stretch = Double(DashAtlas.width) / total
        let ranges = DashAtlas.ranges(pattern, stretch: stretch)
        let entry = Entry(firstRow: data.count / DashAtlas.width, rowCount: 2 * n + 1)
        for y in -n...n {
            data.append(contentsOf: round ? DashAtlas.roundRow(ranges, stretch: stretch, y: y, n: n)
                                          : DashAtlas.regularRow(ranges))
        }
        entries[key] = entry
        dirty = true
        return entry
    }

    /// Dash and gap spans in texels; an odd count makes the last part run into the first.
    private static func ranges(_ pattern: [Double], stretch: Double) -> [(left: Double, right: Double, isDash: Bool)] {
        var out: [(Double, Double, Bool)] = []
        var left = pattern.count % 2 == 1 ? -pattern[pattern.count - 1] * stretch : 0
        var total = pattern[0]
        out.append((left, total * stretch, true))
        for i in 1..<pattern.count {
            left = total * stretch
            total += pattern[i]
            out.append((left, total * stretch, i % 2 == 0))
        }
        return out
    }

    /// The range that holds texel x (the last one past the end).
    private static func range(at x: Double, _ ranges: [(left: Double, right: Double, isDash: Bool)], from i: inout Int) -> (left: Double, right: Double, isDash: Bool) {
        while i < ranges.count - 1 && x > ranges[i].right { i += 1 }
        return ranges[i]
    }

    private static func regularRow(_ ranges: [(left: Double, right: Double, isDash: Bool)]) -> [UInt8] {
        var row = [UInt8](repeating: 0, count: width)
        var i = 0
        for px in 0..<width {
            let x = Double(px)
            let r = range(at: x, ranges, from: &i)
            let dist = min(abs(x - r.left), abs(x - r.right))
            let signed = (r.isDash ? 1 : -1) * Int(dist)
            row[px] = UInt8(max(0, min(255, signed + 128)))
        }
        return row
    }

    private static func roundRow(_ ranges: [(left: Double, right: Double, isDash: Bool)], stretch: Double, y: Int, n: Int) -> [UInt8] {
        var row = [UInt8](repeating: 0, count: width)
        let halfStretch = stretch / 2
        let distMiddle = Double(y) / Double(n) * (halfStretch + 1)
        var i = 0
        for px in 0..<width {
            let x = Double(px)
            let r = range(at: x, ranges, from: &i)
            let dist = min(abs(x - r.left), abs(x - r.right))
            let signed: Double
            if r.isDash {
                let distEdge = halfStretch - abs(distMiddle)
                signed = (dist * dist + distEdge * distEdge).squareRoot()
            } else {
                signed = halfStretch - (dist * dist + distMiddle * distMiddle).squareRoot()
            }
            row[px] = UInt8(max(0, min(255, Int(signed) + 128)))
        }
        return row
    }

    /// The atlas texture, uploaded again after entries were added.
    func bind(_ context: GLContext, unit: Int) {
        if dirty || texture == nil {
            let pixels = data.isEmpty ? [UInt8](repeating: 0, count: DashAtlas.width) : data
            // Dashes repeat along the line; across it the rows stay clamped.
            texture = Texture(context: context, width: DashAtlas.width, height: height, format: .r8, pixels: pixels,
                              sampler: SamplerState(minify: .linear, magnify: .linear, wrapS: .repeat))
            dirty = false
        }
        if let texture { context.bind(texture, unit: unit) }
    }
}
