/// Signed distance fields from coverage bitmaps, in the form MapLibre's glyph PBFs use: a 3 px
/// border around the glyph, 8 px radius, the edge at 0.75 (value 191).
public enum SignedDistance {
    public static let radius = 8.0
    public static let cutoff = 0.25

    /// The SDF of a `width` × `height` coverage bitmap (0...255 per pixel), `border` pixels
    /// larger on each side. Distances are exact Euclidean distances to the coverage edge, with
    /// partly covered pixels placing the edge inside them.
    public static func field(coverage: [UInt8], width: Int, height: Int, border: Int) -> [UInt8] {
        precondition(coverage.count == width * height, "coverage size does not match \(width)x\(height)")
        let w = width + 2 * border, h = height + 2 * border
        let inf = 1e20
        var outer = [Double](repeating: inf, count: w * h)
        var inner = [Double](repeating: 0, count: w * h)
        for y in 0..<height {
            for x in 0..<width {
                let a = Double(coverage[y * width + x]) / 255
                guard a > 0 else { continue }
                let i = (y + border) * w + x + border
                if a >= 1 {
                    outer[i] = 0; inner[i] = inf
                } else {
                    let d = 0.5 - a
                    outer[i] = d > 0 ? d * d : 0
                    inner[i] = d < 0 ? d * d : 0
                }
            }
        }
        transform2D(&outer, w, h)
        transform2D(&inner, w, h)
        var out = [UInt8](repeating: 0, count: w * h)
        for i in 0..<(w * h) {
            let d = outer[i].squareRoot() - inner[i].squareRoot()
            let v = (255 - 255 * (d / radius + cutoff)).rounded()
            out[i] = UInt8(min(max(v, 0), 255))
        }
        return out
    }

    /// Squared Euclidean distance transform of a grid (columns, then rows).
    private static func transform2D(_ grid: inout [Double], _ w: Int, _ h: Int) {
        let n = max(w, h)
        var f = [Double](repeating: 0, count: n), d = [Double](repeating: 0, count: n)
        var v = [Int](repeating: 0, count: n), z = [Double](repeating: 0, count: n + 1)
        for x in 0..<w {
            for y in 0..<h { f[y] = grid[y * w + x] }
            transform1D(f, h, &d, &v, &z)
            for y in 0..<h { grid[y * w + x] = d[y] }
        }
        for y in 0..<h {
            for x in 0..<w { f[x] = grid[y * w + x] }
            transform1D(f, w, &d, &v, &z)
            for x in 0..<w { grid[y * w + x] = d[x] }
        }
    }

    /// The lower envelope of parabolas rooted at each sample (Felzenszwalb and Huttenlocher).
    private static func transform1D(_ f: [Double], _ n: Int, _ d: inout [Double], _ v: inout [Int], _ z: inout [Double]) {
        guard n > 0 else { return }
        var k = 0
        v[0] = 0; z[0] = -.infinity; z[1] = .infinity
        if n > 1 {
            for q in 1..<n {
                var s = 0.0
                repeat {
                    let r = v[k]
                    s = ((f[q] + Double(q * q)) - (f[r] + Double(r * r))) / Double(2 * (q - r))
                    if s <= z[k] { k -= 1 } else { break }
                } while k >= 0
                k += 1
                v[k] = q; z[k] = s; z[k + 1] = .infinity
            }
        }
        k = 0
        for q in 0..<n {
            while z[k + 1] < Double(q) { k += 1 }
            let r = v[k]
            d[q] = Double((q - r) * (q - r)) + f[r]
        }
    }
}
