import Foundation

/// How much softer GL JS draws the SDF edges of text and icons laid flat on a pitched map: its
/// symbol_sdf shader scales the edge gamma by the fragment's clip w over `cos(pitch) ×
/// cameraToCenterDistance` (`u_gamma_scale`), so such labels blur with distance (twice as soft at
/// the center of a view pitched 60 degrees). Labels facing the viewer keep a factor of 1.
///
/// On the ground plane 1/w is an affine function of the screen position, so the factor at a
/// screen point (CSS px from the top-left of the whole view) is `1 / (a·x + b·y + c)`.
public struct PitchedGamma: Sendable, Equatable {
    public var a: Double, b: Double, c: Double

    public init(a: Double, b: Double, c: Double) { self.a = a; self.b = b; self.c = c }

    /// The gamma factor at screen point (x, y).
    public func scale(x: Double, y: Double) -> Double { 1 / (a * x + b * y + c) }

    /// The factor for the ground plane of a tile's matrix `m` (column-major, tile units to clip)
    /// in a view `width` × `height` CSS px pitched `pitch` degrees; nil unpitched or degenerate.
    static func make(m: [Float], width: Double, height: Double, pitch: Double, cameraToCenterDistance d: Double) -> PitchedGamma? {
        guard pitch != 0, m.count == 16, width > 0, height > 0 else { return nil }
        let k = m.map(Double.init)
        // A ground point (x, y) with ndc (nx, ny) and clip w solves
        //   [k0 k4 -nx] [x]   [-k12]
        //   [k1 k5 -ny] [y] = [-k13]
        //   [k3 k7 -1 ] [w]   [-k15]
        // By Cramer, w = det(numerator) / det(A), and det(A) is affine in (nx, ny): expanded
        // along its last column, det(A) = -nx·c13 - ny·c23 - c33 with the 2×2 cofactors below.
        let c13 = k[1] * k[7] - k[5] * k[3]
        let c23 = -(k[0] * k[7] - k[4] * k[3])
        let c33 = k[0] * k[5] - k[4] * k[1]
        let numerator = det3(k[0], k[4], -k[12], k[1], k[5], -k[13], k[3], k[7], -k[15])
        guard numerator != 0, numerator.isFinite else { return nil }
        // 1/w = (-nx·c13 - ny·c23 - c33) / numerator, with nx = 2x/width - 1, ny = 1 - 2y/height;
        // the factor is 1 / (w⁻¹ · cos(pitch) · d).
        let s = cos(pitch * .pi / 180) * d / numerator
        let g = PitchedGamma(a: -c13 * 2 / width * s, b: c23 * 2 / height * s, c: (c13 - c23 - c33) * s)
        guard g.a.isFinite, g.b.isFinite, g.c.isFinite else { return nil }
        return g
    }

    static func det3(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double,
                     _ g: Double, _ h: Double, _ i: Double) -> Double {
        a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    }
}
