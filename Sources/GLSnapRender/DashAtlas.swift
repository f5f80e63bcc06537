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
        // MapLibre's LineAtlas for butt-capped dashes: walk the parts left to right; an odd count
        // makes the last part run into the first. Distances are to the nearer part edge, in texels.
        let odd = pattern.count % 2 == 1
        var left = odd ? -pattern[pattern.count - 1] : 0
        var right = pattern[0]
        var part = 1
        var row = [UInt8](repeating: 0, count: w)
        for px in 0..<w {
            let x = Double(px)
            while right < x / stretch, part < pattern.count + 1 {
                left = right
                right += pattern[part % pattern.count]
                if odd && part == pattern.count - 1 { right += pattern[0] }
                part += 1
            }
            let dist = min(abs(x - left * stretch), abs(x - right * stretch))
            let inside = part % 2 == 1
            let signed = (inside ? 1 : -1) * Int(dist)
            row[px] = UInt8(max(0, min(255, signed + 128)))
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
