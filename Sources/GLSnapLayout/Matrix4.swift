import Foundation

/// 4x4 matrix helpers over column-major `[Double]` of 16 elements, with the exact semantics of
/// gl-matrix (which MapLibre GL JS uses): every `translate/scale/rotate` post-multiplies, so the
/// last transform applied in code is the first one applied to a vertex.
enum Mat4 {
    static var identity: [Double] { [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] }

    /// gl-matrix `mat4.perspective` with a finite far plane (OpenGL clip space, z in -1...1).
    static func perspective(fovy: Double, aspect: Double, near: Double, far: Double) -> [Double] {
        let f = 1.0 / tan(fovy / 2)
        let nf = 1 / (near - far)
        var m = [Double](repeating: 0, count: 16)
        m[0] = f / aspect
        m[5] = f
        m[10] = (far + near) * nf
        m[11] = -1
        m[14] = 2 * far * near * nf
        return m
    }

    static func translate(_ a: inout [Double], _ x: Double, _ y: Double, _ z: Double) {
        for i in 0..<4 {
            a[12 + i] = a[i] * x + a[4 + i] * y + a[8 + i] * z + a[12 + i]
        }
    }

    static func scale(_ a: inout [Double], _ x: Double, _ y: Double, _ z: Double) {
        for i in 0..<4 {
            a[i] *= x; a[4 + i] *= y; a[8 + i] *= z
        }
    }

    static func rotateX(_ a: inout [Double], _ rad: Double) {
        let s = sin(rad), c = cos(rad)
        for i in 0..<4 {
            let a1 = a[4 + i], a2 = a[8 + i]
            a[4 + i] = a1 * c + a2 * s
            a[8 + i] = a2 * c - a1 * s
        }
    }

    static func rotateZ(_ a: inout [Double], _ rad: Double) {
        let s = sin(rad), c = cos(rad)
        for i in 0..<4 {
            let a0 = a[i], a1 = a[4 + i]
            a[i] = a0 * c + a1 * s
            a[4 + i] = a1 * c - a0 * s
        }
    }

    /// a * b (apply b first, then a).
    static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        var out = [Double](repeating: 0, count: 16)
        for col in 0..<4 {
            for row in 0..<4 {
                var s = 0.0
                for k in 0..<4 { s += a[k * 4 + row] * b[col * 4 + k] }
                out[col * 4 + row] = s
            }
        }
        return out
    }

    /// The inverse, or nil when the matrix is singular.
    static func invert(_ a: [Double]) -> [Double]? {
        let a00 = a[0], a01 = a[1], a02 = a[2], a03 = a[3]
        let a10 = a[4], a11 = a[5], a12 = a[6], a13 = a[7]
        let a20 = a[8], a21 = a[9], a22 = a[10], a23 = a[11]
        let a30 = a[12], a31 = a[13], a32 = a[14], a33 = a[15]
        let b00 = a00 * a11 - a01 * a10, b01 = a00 * a12 - a02 * a10
        let b02 = a00 * a13 - a03 * a10, b03 = a01 * a12 - a02 * a11
        let b04 = a01 * a13 - a03 * a11, b05 = a02 * a13 - a03 * a12
        let b06 = a20 * a31 - a21 * a30, b07 = a20 * a32 - a22 * a30
        let b08 = a20 * a33 - a23 * a30, b09 = a21 * a32 - a22 * a31
        let b10 = a21 * a33 - a23 * a31, b11 = a22 * a33 - a23 * a32
        let det = b00 * b11 - b01 * b10 + b02 * b09 + b03 * b08 - b04 * b07 + b05 * b06
        guard det != 0, det.isFinite else { return nil }
        let d = 1 / det
        return [
            (a11 * b11 - a12 * b10 + a13 * b09) * d,
            (a02 * b10 - a01 * b11 - a03 * b09) * d,
            (a31 * b05 - a32 * b04 + a33 * b03) * d,
            (a22 * b04 - a21 * b05 - a23 * b03) * d,
            (a12 * b08 - a10 * b11 - a13 * b07) * d,
            (a00 * b11 - a02 * b08 + a03 * b07) * d,
            (a32 * b02 - a30 * b05 - a33 * b01) * d,
            (a20 * b05 - a22 * b02 + a23 * b01) * d,
            (a10 * b10 - a11 * b08 + a13 * b06) * d,
            (a01 * b08 - a00 * b10 - a03 * b06) * d,
            (a30 * b04 - a31 * b02 + a33 * b00) * d,
            (a21 * b02 - a20 * b04 - a23 * b00) * d,
            (a11 * b07 - a10 * b09 - a12 * b06) * d,
            (a00 * b09 - a01 * b07 + a02 * b06) * d,
            (a31 * b01 - a30 * b03 - a32 * b00) * d,
            (a20 * b03 - a21 * b01 + a22 * b00) * d,
        ]
    }

    /// m * (x, y, z, w).
    static func transform(_ m: [Double], _ x: Double, _ y: Double, _ z: Double, _ w: Double) -> (Double, Double, Double, Double) {
        (m[0] * x + m[4] * y + m[8] * z + m[12] * w,
         m[1] * x + m[5] * y + m[9] * z + m[13] * w,
         m[2] * x + m[6] * y + m[10] * z + m[14] * w,
         m[3] * x + m[7] * y + m[11] * z + m[15] * w)
    }
}
