import CMesa
import GLSnapGL

/// Signed-distance rows for line-dasharray patterns (MapLibre's LineAtlas, regular dashes): each
/// pattern is one row of `width` texels, 128 at a dash edge, rising inside dashes.
final class DashAtlas {
    static let width = 256
    static let maxRows = 256
    private var rows: [[Double]: Int] = [:]
    private var data: [UInt8] = []
    private var texture: Texture?
    private var dirty = false

    /// The row of `pattern` (dash and gap lengths, in line widths); nil when the pattern is empty
    /// or the atlas is full.
    func row(for pattern: [Double]) -> Int? {
        if let r = rows[pattern] { return r }
        let total = pattern.reduce(0, +)
        guard !pattern.isEmpty, total > 0, rows.count < DashAtlas.maxRows else { return nil }
        let w = DashAtlas.width
        let stretch = Double(w) / total
        // Dash ranges in texels; an odd count repeats as MapLibre does (the last gap joins the first dash).
        var ranges: [(Double, Double)] = []
        var x = 0.0
        for (i, len) in pattern.enumerated() {
            if i % 2 == 0 { ranges.append((x * stretch, (x + len) * stretch)) }
            x += len
        }
        var row = [UInt8](repeating: 0, count: w)
        for px in 0..<w {
            let p = Double(px) + 0.5
            var best = Double.infinity
            var inside = false
            for (l, r) in ranges {
                // Repeat the pattern one period either side so distances wrap.
                for shift in [-Double(w), 0, Double(w)] {
                    let l2 = l + shift, r2 = r + shift
                    if p >= l2 && p <= r2 { inside = true }
                    best = min(best, abs(p - l2), abs(p - r2))
                }
            }
            let signed = inside ? best : -best
            row[px] = UInt8(max(0, min(255, (signed + 128).rounded())))
        }
        let index = rows.count
        rows[pattern] = index
        data.append(contentsOf: row)
        dirty = true
        return index
    }

    var height: Int { max(1, rows.count) }

    /// The atlas texture, uploaded again after rows were added.
    func bind(_ context: GLContext, unit: Int) {
        if dirty || texture == nil {
            let h = height
            var pixels = data
            if pixels.isEmpty { pixels = [UInt8](repeating: 0, count: DashAtlas.width) }
            texture = Texture(context: context, width: DashAtlas.width, height: h, format: GLenum(GL_RED), pixels: pixels, linear: true)
            context.gl.TexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_REPEAT)
            dirty = false
        }
        if let texture { context.bind(texture, unit: unit) }
    }
}
