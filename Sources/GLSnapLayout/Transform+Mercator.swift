import Foundation

extension Transform {
    /// From Mercator coordinates (0...1 across the world; z in the same units) to clip space
    /// (GL JS's `mercatorMatrix`, a custom layer's `mainMatrix` on a flat map). Column-major.
    public var mercatorMatrix: [Float] {
        var m = projMatrix
        // projMatrix takes world pixels across and meters up.
        Mat4.scale(&m, worldSize, worldSize, worldSize / pixelsPerMeter)
        return m.map { Float($0) }
    }
}
