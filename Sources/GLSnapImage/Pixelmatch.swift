/// Options of `pixelmatch`, with the defaults of the pixelmatch library.
public struct PixelmatchOptions: Sendable {
    /// Matching threshold 0...1; smaller is more sensitive. Default 0.1.
    public var threshold: Double
    /// Count anti-aliased pixels as differences too. Default false.
    public var includeAA: Bool
    /// Opacity of the unchanged image drawn into the diff. Default 0.1.
    public var alpha: Double
    /// Diff color of anti-aliased pixels. Default yellow.
    public var aaColor: (UInt8, UInt8, UInt8)
    /// Diff color of differing pixels. Default red.
    public var diffColor: (UInt8, UInt8, UInt8)

    public init(threshold: Double = 0.1, includeAA: Bool = false, alpha: Double = 0.1,
                aaColor: (UInt8, UInt8, UInt8) = (255, 255, 0), diffColor: (UInt8, UInt8, UInt8) = (255, 0, 0)) {
        precondition(threshold >= 0 && threshold <= 1, "pixelmatch threshold must be 0...1")
        self.threshold = threshold; self.includeAA = includeAA; self.alpha = alpha
        self.aaColor = aaColor; self.diffColor = diffColor
    }
}

/// Counts the pixels that differ between `a` and `b` the way the pixelmatch library does:
/// a perceptual YIQ color distance (Kotsarenko & Ramos) compared with `threshold`, semi-transparent
/// pixels blended over white, and pixels that look like anti-aliasing (Vysniauskas 2009) not
/// counted unless `includeAA`. When `diff` is non-nil it receives pixelmatch's diff image: the
/// first image in faded gray, differing pixels red, anti-aliased ones yellow.
///
/// The images must have the same size (checked by precondition: compare sizes first).
public func pixelmatch(_ a: RGBAImage, _ b: RGBAImage, threshold: Double = 0.1, includeAA: Bool = false,
                       diff: inout RGBAImage?) -> Int {
    pixelmatch(a, b, options: PixelmatchOptions(threshold: threshold, includeAA: includeAA), diff: &diff)
}

/// `pixelmatch` without a diff image.
public func pixelmatch(_ a: RGBAImage, _ b: RGBAImage, threshold: Double = 0.1, includeAA: Bool = false) -> Int {
    var none: RGBAImage? = nil
    return pixelmatch(a, b, options: PixelmatchOptions(threshold: threshold, includeAA: includeAA), diff: &none, wantDiff: false)
}

/// `pixelmatch` with every option.
public func pixelmatch(_ a: RGBAImage, _ b: RGBAImage, options: PixelmatchOptions, diff: inout RGBAImage?) -> Int {
    pixelmatch(a, b, options: options, diff: &diff, wantDiff: true)
}

private func pixelmatch(_ a: RGBAImage, _ b: RGBAImage, options: PixelmatchOptions, diff: inout RGBAImage?,
                        wantDiff: Bool) -> Int {
    precondition(a.width == b.width && a.height == b.height,
                 "pixelmatch: image sizes differ (\(a.width)x\(a.height) vs \(b.width)x\(b.height))")
    let width = a.width, height = a.height
    var out = wantDiff ? [UInt8](repeating: 0, count: width * height * 4) : []
    if a.pixels == b.pixels {
        if wantDiff {
            a.pixels.withUnsafeBufferPointer { pa in
                for i in 0..<(width * height) { drawGray(pa, i * 4, options.alpha, &out) }
            }
            diff = RGBAImage(width: width, height: height, pixels: out)
        }
        return 0
    }
    // 35215 is the largest possible YIQ distance (black against white).
    let maxDelta = 35215 * options.threshold * options.threshold
    var count = 0
    a.pixels.withUnsafeBufferPointer { pa in
        b.pixels.withUnsafeBufferPointer { pb in
            let ia = PMImage(p: pa, width: width, height: height)
            let ib = PMImage(p: pb, width: width, height: height)
            for y in 0..<height {
                for x in 0..<width {
                    let pos = (y * width + x) * 4
                    let delta = colorDelta(pa, pb, pos, pos, yOnly: false)
                    if abs(delta) > maxDelta {
                        if !options.includeAA && (antialiased(ia, x, y, ib) || antialiased(ib, x, y, ia)) {
                            if wantDiff { draw(&out, pos, options.aaColor) }
                        } else {
                            if wantDiff { draw(&out, pos, options.diffColor) }
                            count += 1
                        }
                    } else if wantDiff {
                        drawGray(pa, pos, options.alpha, &out)
                    }
                }
            }
        }
    }
    if wantDiff { diff = RGBAImage(width: width, height: height, pixels: out) }
    return count
}

private struct PMImage {
    let p: UnsafeBufferPointer<UInt8>
    let width: Int
    let height: Int
}

/// Whether the pixel at (x1, y1) of `img` looks like anti-aliasing: among its 8 neighbours it has
/// at most 2 equal ones, both a darker and a brighter one, and the darkest or the brightest of
/// those sits in a flat area (3+ equal neighbours) in both images.
private func antialiased(_ img: PMImage, _ x1: Int, _ y1: Int, _ other: PMImage) -> Bool {
    let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
    let x2 = min(x1 + 1, img.width - 1), y2 = min(y1 + 1, img.height - 1)
    let pos = (y1 * img.width + x1) * 4
    var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
    var minDelta = 0.0, maxDelta = 0.0
    var minX = 0, minY = 0, maxX = 0, maxY = 0
    for x in x0...x2 {
        for y in y0...y2 where !(x == x1 && y == y1) {
            let delta = colorDelta(img.p, img.p, pos, (y * img.width + x) * 4, yOnly: true)
            if delta == 0 {
                zeroes += 1
                if zeroes > 2 { return false }
            } else if delta < minDelta {
                minDelta = delta; minX = x; minY = y
            } else if delta > maxDelta {
                maxDelta = delta; maxX = x; maxY = y
            }
        }
    }
    if minDelta == 0 || maxDelta == 0 { return false }
    return (hasManySiblings(img, minX, minY) && hasManySiblings(other, minX, minY))
        || (hasManySiblings(img, maxX, maxY) && hasManySiblings(other, maxX, maxY))
}

/// Whether the pixel at (x1, y1) has 3 or more neighbours of exactly its color
/// (an image edge counts as one).
private func hasManySiblings(_ img: PMImage, _ x1: Int, _ y1: Int) -> Bool {
    let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
    let x2 = min(x1 + 1, img.width - 1), y2 = min(y1 + 1, img.height - 1)
    let pos = (y1 * img.width + x1) * 4
    var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
    let p = img.p
    for x in x0...x2 {
        for y in y0...y2 where !(x == x1 && y == y1) {
            let pos2 = (y * img.width + x) * 4
            if p[pos] == p[pos2] && p[pos + 1] == p[pos2 + 1] && p[pos + 2] == p[pos2 + 2] && p[pos + 3] == p[pos2 + 3] {
                zeroes += 1
            }
            if zeroes > 2 { return true }
        }
    }
    return false
}

/// Squared YIQ distance of two pixels, negative when the first is the brighter one (pixelmatch's
/// sign convention), or only the brightness difference y1 - y2 when `yOnly`.
@inline(__always)
private func colorDelta(_ p1: UnsafeBufferPointer<UInt8>, _ p2: UnsafeBufferPointer<UInt8>, _ k: Int, _ m: Int,
                        yOnly: Bool) -> Double {
    let ra = p1[k], ga = p1[k + 1], ba = p1[k + 2], aa = p1[k + 3]
    let rb = p2[m], gb = p2[m + 1], bb = p2[m + 2], ab = p2[m + 3]
    if ra == rb && ga == gb && ba == bb && aa == ab { return 0 }
    var r1 = Double(ra), g1 = Double(ga), b1 = Double(ba)
    var r2 = Double(rb), g2 = Double(gb), b2 = Double(bb)
    if aa < 255 {
        let alpha = Double(aa) / 255
        r1 = blend(r1, alpha); g1 = blend(g1, alpha); b1 = blend(b1, alpha)
    }
    if ab < 255 {
        let alpha = Double(ab) / 255
        r2 = blend(r2, alpha); g2 = blend(g2, alpha); b2 = blend(b2, alpha)
    }
    let y1 = rgb2y(r1, g1, b1), y2 = rgb2y(r2, g2, b2)
    let y = y1 - y2
    if yOnly { return y }
    let i = rgb2i(r1, g1, b1) - rgb2i(r2, g2, b2)
    let q = rgb2q(r1, g1, b1) - rgb2q(r2, g2, b2)
    let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
    return y1 > y2 ? -delta : delta
}

@inline(__always) private func rgb2y(_ r: Double, _ g: Double, _ b: Double) -> Double {
    r * 0.29889531 + g * 0.58662247 + b * 0.11448223
}
@inline(__always) private func rgb2i(_ r: Double, _ g: Double, _ b: Double) -> Double {
    r * 0.59597799 - g * 0.27417610 - b * 0.32180189
}
@inline(__always) private func rgb2q(_ r: Double, _ g: Double, _ b: Double) -> Double {
    r * 0.21147017 - g * 0.52261711 + b * 0.31114694
}
/// A channel value blended over white with opacity `a` (0...1).
@inline(__always) private func blend(_ c: Double, _ a: Double) -> Double { 255 + (c - 255) * a }

private func draw(_ out: inout [UInt8], _ pos: Int, _ color: (UInt8, UInt8, UInt8)) {
    out[pos] = color.0; out[pos + 1] = color.1; out[pos + 2] = color.2; out[pos + 3] = 255
}

/// The first image's brightness, faded toward white by `alpha`, as pixelmatch draws unchanged pixels.
private func drawGray(_ p: UnsafeBufferPointer<UInt8>, _ pos: Int, _ alpha: Double, _ out: inout [UInt8]) {
    let y = rgb2y(Double(p[pos]), Double(p[pos + 1]), Double(p[pos + 2]))
    let v = blend(y, alpha * Double(p[pos + 3]) / 255)
    // pixelmatch stores into a Uint8Array, which truncates the fraction.
    let byte = UInt8(max(0, min(255, v)))
    out[pos] = byte; out[pos + 1] = byte; out[pos + 2] = byte; out[pos + 3] = 255
}
