import Foundation
import GLSnapData
import GLSnapImage

/// What the browser does to a PNG that GL JS's harness draws into a 2D canvas (`addFakeCanvas`,
/// `updateFakeCanvas`): colors tagged with an embedded ICC profile (`iCCP`), or with `gAMA` (and
/// `cHRM`), are converted to sRGB, the canvas's color space, as Chrome's decoder converts them.
/// Only RGB matrix/TRC profiles (the kind PNG tools write) are read; an untagged image, an `sRGB`
/// chunk, or a profile that cannot be read leaves the pixels as they are.
package enum BrowserColor {
    /// `image` (decoded from `png`, straight alpha) with its colors in sRGB.
    package static func toSRGB(_ image: RGBAImage, png: [UInt8]) -> RGBAImage {
        guard let profile = colorProfile(png), let transform = profile.toSRGB() else { return image }
        var out = image
        out.pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i + 3 < p.count {
                let (r, g, b) = transform(p[i], p[i + 1], p[i + 2])
                p[i] = r; p[i + 1] = g; p[i + 2] = b
                i += 4
            }
        }
        return out
    }

    /// The colors `png` declares before its image data: an `iCCP` profile, else `gAMA` (with
    /// `cHRM`'s primaries, or sRGB's); nil with an `sRGB` chunk, with none of them, or when the
    /// chunks are malformed.
    static func colorProfile(_ png: [UInt8]) -> ICCMatrixProfile? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard png.count > 8, Array(png[0..<8]) == signature else { return nil }
        var at = 8
        var icc: [UInt8]?, gamma: Double?, chromaticities: [Double]?
        while at + 12 <= png.count {
            let length = Int(ICCMatrixProfile.u32(png, at))
            let type = String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self)
            let start = at + 8
            guard length <= png.count - start - 4 else { return nil }
            let body = Array(png[start..<(start + length)])
            switch type {
            case "sRGB": return nil
            case "IDAT", "IEND":
                if let icc { return ICCMatrixProfile(icc) }
                guard let gamma, gamma > 0 else { return nil }
                return ICCMatrixProfile(gamma: gamma, chromaticities: chromaticities)
            case "iCCP":
                // name (1-79 bytes), NUL, compression method 0, zlib stream.
                guard let nul = body.firstIndex(of: 0), nul + 2 <= body.count, body[nul + 1] == 0 else { return nil }
                icc = try? Inflate.inflate(Array(body[(nul + 2)...]), limit: maxProfileBytes)
            case "gAMA" where length == 4:
                gamma = Double(ICCMatrixProfile.u32(body, 0)) / 100_000
            case "cHRM" where length == 32:
                chromaticities = (0..<8).map { Double(ICCMatrixProfile.u32(body, 4 * $0)) / 100_000 }
            default: break
            }
            at = start + length + 4
        }
        return nil
    }

    /// Larger embedded profiles are ignored (real RGB profiles are a few kilobytes).
    static let maxProfileBytes = 1 << 20
}

/// An RGB ICC profile described by its colorants (D50 XYZ of red, green and blue) and a tone
/// curve per channel (`curv` or `para`).
struct ICCMatrixProfile {
    var colorants: [[Double]]           // columns: red, green, blue
    var curves: [(Double) -> Double]    // encoded 0...1 to linear, per channel

    init?(_ icc: [UInt8]) {
        guard icc.count >= 132, ICCMatrixProfile.tag(icc, 16) == "RGB ", ICCMatrixProfile.tag(icc, 20) == "XYZ " else { return nil }
        let count = Int(ICCMatrixProfile.u32(icc, 128))
        guard count <= (icc.count - 132) / 12 else { return nil }
        var tags: [String: ArraySlice<UInt8>] = [:]
        for k in 0..<count {
            let entry = 132 + 12 * k
            let offset = Int(ICCMatrixProfile.u32(icc, entry + 4)), size = Int(ICCMatrixProfile.u32(icc, entry + 8))
            guard offset >= 0, size >= 0, offset <= icc.count, size <= icc.count - offset else { return nil }
            tags[ICCMatrixProfile.tag(icc, entry)] = icc[offset..<(offset + size)]
        }
        var colorants: [[Double]] = []
        var curves: [(Double) -> Double] = []
        for c in ["r", "g", "b"] {
            guard let xyz = tags[c + "XYZ"].map(Array.init), xyz.count >= 20, ICCMatrixProfile.tag(xyz, 0) == "XYZ ",
                  let trc = tags[c + "TRC"].map(Array.init), let curve = ICCMatrixProfile.curve(trc) else { return nil }
            colorants.append((0..<3).map { ICCMatrixProfile.s15Fixed16(xyz, 8 + 4 * $0) })
            curves.append(curve)
        }
        self.colorants = colorants
        self.curves = curves
    }

    /// PNG's `gAMA` (the encoding exponent) and `cHRM` (white, red, green, blue as x, y pairs;
    /// nil: sRGB's), the colorants adapted to D50 by Bradford's transform as ICC profiles are.
    init?(gamma: Double, chromaticities c: [Double]?) {
        let exponent = 1 / gamma
        curves = [(Double) -> Double](repeating: { pow($0, exponent) }, count: 3)
        guard let c else { colorants = ICCMatrixProfile.srgbColorants; return }
        func xyz(_ x: Double, _ y: Double) -> [Double] { [x / y, 1, (1 - x - y) / y] }
        guard c.count == 8, c[1] > 0, c[3] > 0, c[5] > 0, c[7] > 0 else { return nil }
        let white = xyz(c[0], c[1]), primaries = [xyz(c[2], c[3]), xyz(c[4], c[5]), xyz(c[6], c[7])]
        guard let inverse = ICCMatrixProfile.inverse(columns: primaries) else { return nil }
        let scale = (0..<3).map { r in (0..<3).reduce(0) { $0 + inverse[r][$1] * white[$1] } }
        let bradford: [[Double]] = [[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]]
        let d50 = [0.9642, 1, 0.8249]
        func times(_ m: [[Double]], _ v: [Double]) -> [Double] { m.map { row in (0..<3).reduce(0) { $0 + row[$1] * v[$1] } } }
        let source = times(bradford, white), target = times(bradford, d50)
        guard let unbradford = ICCMatrixProfile.inverse(columns: (0..<3).map { col in bradford.map { $0[col] } }) else { return nil }
        colorants = (0..<3).map { i in
            let cone = times(bradford, primaries[i].map { $0 * scale[i] })
            return times(unbradford, (0..<3).map { cone[$0] * target[$0] / source[$0] })
        }
    }

    /// The D50 colorants of the ICC sRGB profile (red, green, blue).
    static let srgbColorants: [[Double]] = [[0.4360747, 0.2225045, 0.0139322], [0.3850649, 0.7168786, 0.0971045],
                                            [0.1430804, 0.0606169, 0.7141733]]

    /// A per-pixel conversion to sRGB: the tone curves through lookup tables, the colorants into
    /// sRGB's (the D50 colorants of the ICC sRGB profile), sRGB's curve, rounded.
    func toSRGB() -> ((UInt8, UInt8, UInt8) -> (UInt8, UInt8, UInt8))? {
        guard let inverse = ICCMatrixProfile.inverse(columns: ICCMatrixProfile.srgbColorants) else { return nil }
        // m = inverse(sRGB) * profile, both as matrices whose columns are the colorants.
        var m = [[Double]](repeating: [0, 0, 0], count: 3)   // m[row][column]
        for row in 0..<3 { for col in 0..<3 { m[row][col] = (0..<3).reduce(0) { $0 + inverse[row][$1] * colorants[col][$1] } } }
        let luts = curves.map { curve in (0..<256).map { curve(Double($0) / 255) } }
        func encode(_ v: Double) -> UInt8 {
            let c = min(1, max(0, v))
            let e = c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055
            return UInt8((e * 255).rounded())
        }
        return { r, g, b in
            let lin = [luts[0][Int(r)], luts[1][Int(g)], luts[2][Int(b)]]
            let out = (0..<3).map { row in encode(m[row][0] * lin[0] + m[row][1] * lin[1] + m[row][2] * lin[2]) }
            return (out[0], out[1], out[2])
        }
    }

    /// A `curv` (identity, gamma, or table) or `para` (ICC parametric types 0-4) tone curve.
    static func curve(_ t: [UInt8]) -> ((Double) -> Double)? {
        guard t.count >= 12 else { return nil }
        switch tag(t, 0) {
        case "curv":
            let n = Int(u32(t, 8))
            guard n <= (t.count - 12) / 2 else { return nil }
            if n == 0 { return { $0 } }
            if n == 1 { let g = Double(u16(t, 12)) / 256; return { pow($0, g) } }
            let table = (0..<n).map { Double(u16(t, 12 + 2 * $0)) / 65535 }
            return { x in
                let p = min(1, max(0, x)) * Double(n - 1), i = min(n - 2, Int(p)), f = p - Double(i)
                return table[i] + (table[i + 1] - table[i]) * f
            }
        case "para":
            let type = Int(u16(t, 8)), counts = [1, 3, 4, 5, 7]
            guard type < counts.count, t.count >= 12 + 4 * counts[type] else { return nil }
            var p = (0..<counts[type]).map { s15Fixed16(t, 12 + 4 * $0) }
            p += [Double](repeating: 0, count: 7 - p.count)
            let (g, a, b, c, d, e, f) = (p[0], p[1], p[2], p[3], p[4], p[5], p[6])
            switch type {
            case 0: return { pow(max(0, $0), g) }
            case 1: return { x in x >= -b / a ? pow(max(0, a * x + b), g) : 0 }
            case 2: return { x in x >= -b / a ? pow(max(0, a * x + b), g) + c : c }
            case 3: return { x in x >= d ? pow(max(0, a * x + b), g) : c * x }
            default: return { x in x >= d ? pow(max(0, a * x + b), g) + e : c * x + f }
            }
        default: return nil
        }
    }

    /// The inverse of the matrix whose columns are `columns`, as rows; nil when singular.
    static func inverse(columns c: [[Double]]) -> [[Double]]? {
        // a[row][col] = c[col][row]
        let a = (0..<3).map { r in (0..<3).map { c[$0][r] } }
        let det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
            + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
        guard abs(det) > 1e-12 else { return nil }
        func cof(_ r: Int, _ col: Int) -> Double {
            let rs = (0..<3).filter { $0 != r }, cs = (0..<3).filter { $0 != col }
            let minor = a[rs[0]][cs[0]] * a[rs[1]][cs[1]] - a[rs[0]][cs[1]] * a[rs[1]][cs[0]]
            return (r + col) % 2 == 0 ? minor : -minor
        }
        return (0..<3).map { r in (0..<3).map { col in cof(col, r) / det } }
    }

    static func u32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
    }
    static func u16(_ b: [UInt8], _ at: Int) -> UInt16 { UInt16(b[at]) << 8 | UInt16(b[at + 1]) }
    static func s15Fixed16(_ b: [UInt8], _ at: Int) -> Double { Double(Int32(bitPattern: u32(b, at))) / 65536 }
    static func tag(_ b: [UInt8], _ at: Int) -> String { String(decoding: b[at..<(at + 4)], as: UTF8.self) }
}
