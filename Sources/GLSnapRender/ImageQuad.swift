/// Projective texturing of an image source's quad. Two triangles textured affinely kink the
/// picture along their shared diagonal when the four corners are not a parallelogram; weighting
/// each corner's texture position by q (divided out per pixel) maps the picture as a plane seen in
/// perspective (a homography), as GL JS 6 maps it:
///
///     p0 ─────── p1       c: where the diagonals p0–p2 and p1–p3 cross
///      │ ╲     ╱ │      d_i: the distance from corner i to c
///      │   c     │      q_i = (d_i + d_(i+2)) / d_(i+2)
///      │ ╱     ╲ │
///     p3 ─────── p2
enum ImageQuad {
    /// The corners' weights (top-left, top-right, bottom-right, bottom-left) for `corners`, x and y
    /// in turn; nil for a parallelogram (equal weights: plain texturing is exact) or for a quad
    /// that is not convex (the diagonals do not cross inside it), which stays affine.
    static func weights(_ corners: [Int16]) -> [Float]? {
        guard corners.count == 8 else { return nil }
        let x = (0..<4).map { Double(corners[$0 * 2]) }, y = (0..<4).map { Double(corners[$0 * 2 + 1]) }
        // p0 + s (p2 − p0) = p1 + t (p3 − p1), by Cramer's rule.
        let ax: Double = x[2] - x[0], ay: Double = y[2] - y[0]
        let bx: Double = x[3] - x[1], by: Double = y[3] - y[1]
        let rx: Double = x[1] - x[0], ry: Double = y[1] - y[0]
        let det: Double = by * ax - bx * ay
        guard abs(det) > 1e-9 else { return nil }
        let s: Double = (by * rx - bx * ry) / det
        let t: Double = (ay * rx - ax * ry) / det
        guard s > 0, s < 1, t > 0, t < 1 else { return nil }
        // Distances along each diagonal, as shares of it (the weights are ratios of them).
        let d: [Double] = [s, t, 1 - s, 1 - t]
        let q: [Double] = (0..<4).map { i -> Double in
            let opposite = d[(i + 2) % 4]
            return (d[i] + opposite) / opposite
        }
        // Equal weights (a parallelogram's, 2 each) divide out: plain texturing is the same.
        if q.allSatisfy({ abs($0 / q[0] - 1) < 1e-6 }) { return nil }
        return q.map(Float.init)
    }
}
