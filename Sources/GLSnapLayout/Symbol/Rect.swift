import Foundation

/// An axis-aligned box, y down: (minX, minY) its top left, (maxX, maxY) its bottom right. The
/// boxes of symbol layout and placement: text boxes (24 px units), icon boxes (CSS px around
/// the anchor), collision boxes before they are projected.
///
/// Each operation is the plain expression per edge (`minX * k - pad`, not a precomputed
/// factor), so that moving box arithmetic into it keeps every rounding, and images, as they were.
struct Rect: Equatable, Sendable {
    var minX: Double, minY: Double, maxX: Double, maxY: Double

    @inline(__always) init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
    }

    /// The box of one point.
    @inline(__always) init(_ p: Vec2) {
        self.init(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y)
    }

    static let zero = Rect(minX: 0, minY: 0, maxX: 0, maxY: 0)
    /// Holds nothing: its union with a box is that box (a bounding box grows from it).
    static let empty = Rect(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)

    var width: Double { maxX - minX }
    var height: Double { maxY - minY }

    /// Whether the two boxes share a point (edges touching count, as in MapLibre's GridIndex).
    func intersects(_ o: Rect) -> Bool {
        minX <= o.maxX && minY <= o.maxY && maxX >= o.minX && maxY >= o.minY
    }

    /// The smallest box holding both.
    func union(_ o: Rect) -> Rect {
        Rect(minX: min(minX, o.minX), minY: min(minY, o.minY), maxX: max(maxX, o.maxX), maxY: max(maxY, o.maxY))
    }

    /// The box moved by `d`.
    func translated(by d: Vec2) -> Rect {
        Rect(minX: minX + d.x, minY: minY + d.y, maxX: maxX + d.x, maxY: maxY + d.y)
    }

    /// Each edge multiplied by `k` (about the origin, not the center).
    func scaled(by k: Double) -> Rect {
        Rect(minX: minX * k, minY: minY * k, maxX: maxX * k, maxY: maxY * k)
    }

    /// Grown by `pad` on every side (shrunk when negative).
    func outset(by pad: Double) -> Rect {
        Rect(minX: minX - pad, minY: minY - pad, maxX: maxX + pad, maxY: maxY + pad)
    }

    /// Grown by each side's margin of `m` (`m.minX` to the left, `m.minY` above, `m.maxX` to the
    /// right, `m.maxY` below).
    func outset(by m: Rect) -> Rect {
        Rect(minX: minX - m.minX, minY: minY - m.minY, maxX: maxX + m.maxX, maxY: maxY + m.maxY)
    }

    /// Turned a quarter clockwise about the origin (y down): how a vertical point label is drawn.
    var turnedQuarterClockwise: Rect {
        Rect(minX: -maxY, minY: minX, maxX: -minY, maxY: maxX)
    }

    /// The corners top left, top right, bottom left, bottom right (the order of glyph quads).
    var corners: (tl: Vec2, tr: Vec2, bl: Vec2, br: Vec2) {
        (Vec2(minX, minY), Vec2(maxX, minY), Vec2(minX, maxY), Vec2(maxX, maxY))
    }

    /// The bounding box of this box turned `angle` radians (clockwise on the screen) about the
    /// origin: a turned symbol's collision box (MapLibre's envelope for text-rotate and
    /// icon-rotate). The box itself at 0.
    func turnedEnvelope(_ angle: Double) -> Rect {
        guard angle != 0 else { return self }
        let c = cos(angle), s = sin(angle)
        var out = Rect.empty
        for p in [Vec2(minX, minY), Vec2(maxX, minY), Vec2(minX, maxY), Vec2(maxX, maxY)] {
            out = out.union(Rect(Vec2(p.x * c - p.y * s, p.x * s + p.y * c)))
        }
        return out
    }
}
