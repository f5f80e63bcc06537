import GLSnapData

/// A 2D vector of doubles for tessellation math (MapLibre's Point).
struct Vec2: Equatable {
    var x: Double
    var y: Double
    @inline(__always) init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    @inline(__always) init(_ p: TilePoint) { x = Double(p.x); y = Double(p.y) }

    @inline(__always) static func + (a: Vec2, b: Vec2) -> Vec2 { Vec2(a.x + b.x, a.y + b.y) }
    @inline(__always) static func - (a: Vec2, b: Vec2) -> Vec2 { Vec2(a.x - b.x, a.y - b.y) }
    @inline(__always) static func * (a: Vec2, s: Double) -> Vec2 { Vec2(a.x * s, a.y * s) }

    var mag: Double { (x * x + y * y).squareRoot() }
    func dist(_ o: Vec2) -> Double { (self - o).mag }
    /// The unit vector (zero stays zero).
    var unit: Vec2 {
        let m = mag
        return m == 0 ? self : Vec2(x / m, y / m)
    }
    /// Rotated 90 degrees: (-y, x).
    var perp: Vec2 { Vec2(-y, x) }
    /// Each component rounded like JavaScript's Math.round.
    var rounded: Vec2 { Vec2(x.jsRounded, y.jsRounded) }

    /// An integral double as Int, with NaN as 0 and infinities clamped to the Int32 range, so
    /// extreme style values (a huge miter limit) cannot trap.
    @inline(__always) static func storableInt(_ v: Double) -> Int {
        guard v.isFinite else { return v.isNaN ? 0 : (v > 0 ? Int(Int32.max) : Int(Int32.min)) }
        return Int(min(max(v, Double(Int32.min)), Double(Int32.max)))
    }
}

extension Double {
    /// JavaScript's Math.round: halves go towards positive infinity.
    @inline(__always) var jsRounded: Double { (self + 0.5).rounded(.down) }
}
