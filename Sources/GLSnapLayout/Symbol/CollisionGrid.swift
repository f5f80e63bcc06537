/// text-overlap / icon-overlap: whether a symbol may overlap those placed before it: never, always,
/// or only those that themselves allow overlap (cooperative).
enum OverlapMode: UInt8, Sendable {
    case never, always, cooperative
}

/// A placed symbol's collision shape in screen pixels: a box (x1, y1, x2, y2) or, for line
/// labels, a circle (center x, center y, radius; `isCircle`). Its edges keep double precision,
/// as GL JS's grid keeps them (JavaScript numbers): two boxes that touch on paper (icons 26 px
/// apart with 26 px boxes) then touch or part by the last bits of the projection of their anchors,
/// instead of both rounding to the same single-precision edge (which always collides). Such a
/// tie is decided by rounding in GL JS too, and not alike everywhere: its images of
/// symbol-visibility/visible differ by platform exactly there (expected-ubuntu-22.png and the
/// older suite show the second icon, as glsnap now does; expected.png hides it).
struct CollisionShape {
    var x1: Double, y1: Double, x2: Double, y2: Double
    var isCircle = false
    /// The collision group (0: collides with every group).
    var group: Int32 = 0
    /// The overlap mode of the symbol the shape was inserted for.
    var overlap: OverlapMode = .never

    static func box(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> CollisionShape {
        CollisionShape(x1: x1, y1: y1, x2: x2, y2: y2)
    }
    static func box(_ r: Rect) -> CollisionShape {
        .box(r.minX, r.minY, r.maxX, r.maxY)
    }
    static func circle(_ cx: Double, _ cy: Double, _ r: Double) -> CollisionShape {
        CollisionShape(x1: cx - r, y1: cy - r, x2: cx + r, y2: cy + r, isCircle: true)
    }
    var cx: Double { (x1 + x2) / 2 }
    var cy: Double { (y1 + y2) / 2 }
    var radius: Double { (x2 - x1) / 2 }

    /// MapLibre's GridIndex tests: box-box (edges touching count), circle-circle, circle-box.
    func hits(_ o: CollisionShape) -> Bool {
        switch (isCircle, o.isCircle) {
        case (false, false):
            return x1 <= o.x2 && y1 <= o.y2 && x2 >= o.x1 && y2 >= o.y1
        case (true, true):
            let dx = o.cx - cx, dy = o.cy - cy, r = radius + o.radius
            return r * r > dx * dx + dy * dy
        case (true, false): return CollisionShape.circleHitsBox(self, o)
        case (false, true): return CollisionShape.circleHitsBox(o, self)
        }
    }

    private static func circleHitsBox(_ c: CollisionShape, _ b: CollisionShape) -> Bool {
        let halfW = (b.x2 - b.x1) / 2, halfH = (b.y2 - b.y1) / 2
        let distX = abs(c.cx - (b.x1 + halfW)), distY = abs(c.cy - (b.y1 + halfH))
        let r = c.radius
        if distX > halfW + r || distY > halfH + r { return false }
        if distX <= halfW || distY <= halfH { return true }
        let dx = distX - halfW, dy = distY - halfH
        return dx * dx + dy * dy <= r * r
    }
}

/// Placed symbols' shapes in a uniform grid over the view plus a margin (MapLibre's collision
/// index: 25 px cells, `viewportPadding` around the view). Coordinates are screen pixels; the
/// margin is handled inside.
struct CollisionGrid {
    /// How far past the view's edges shapes are placed (GL JS's viewportPadding, pitched or not):
    /// a label whose box lies wholly farther out is not placed, so it hides nothing.
    static let viewportPadding = 100.0

    private let cell: Double = 25
    private let padding: Double
    private let gridWidth: Double, gridHeight: Double
    private let cols: Int, rows: Int
    private var cells: [[Int32]]
    private var shapes: [CollisionShape] = []
    private let viewWidth: Double, viewHeight: Double
    /// View edges where a shape reaching past the edge counts as colliding (see `PlacementSeams`).
    var seams = PlacementSeams.none

    /// A grid over a `width` × `height` view plus `padding` pixels on each side.
    init(width: Double, height: Double, padding: Double = CollisionGrid.viewportPadding) {
        self.padding = padding
        viewWidth = width; viewHeight = height
        gridWidth = width + 2 * padding; gridHeight = height + 2 * padding
        cols = max(1, Int((gridWidth / 25).rounded(.up)))
        rows = max(1, Int((gridHeight / 25).rounded(.up)))
        cells = Array(repeating: [], count: cols * rows)
    }

    /// The cells a shape's box covers: columns and rows of the grid.
    private struct Cells {
        var cols: ClosedRange<Int>, rows: ClosedRange<Int>
    }

    private func range(_ s: CollisionShape) -> Cells? {
        let x1 = s.x1 + padding, y1 = s.y1 + padding, x2 = s.x2 + padding, y2 = s.y2 + padding
        guard x2 >= 0, y2 >= 0, x1 < gridWidth, y1 < gridHeight, x1.isFinite, y1.isFinite, x2.isFinite, y2.isFinite else { return nil }
        func clampCol(_ v: Double) -> Int { min(cols - 1, max(0, Int((v / cell).rounded(.down)))) }
        func clampRow(_ v: Double) -> Int { min(rows - 1, max(0, Int((v / cell).rounded(.down)))) }
        return Cells(cols: clampCol(x1)...clampCol(x2), rows: clampRow(y1)...clampRow(y2))
    }

    /// Whether `s` lies at least partly inside the grid (view plus padding).
    func isInside(_ s: CollisionShape) -> Bool { range(s) != nil }

    /// Whether `s` overlaps a shape already inserted (of the same group, or any group when
    /// `s.group` is 0).
    /// With `mode` always nothing collides (a label placed whatever its neighbours is drawn
    /// alike on both sides of a seam); with cooperative only shapes inserted with never do.
    func collides(_ s: CollisionShape, mode: OverlapMode = .never) -> Bool {
        if mode == .always { return false }
        if seams != .none && seams.crossed(by: s, width: viewWidth, height: viewHeight) { return true }
        guard let covered = range(s) else { return false }
        for y in covered.rows {
            for x in covered.cols {
                for i in cells[y * cols + x] {
                    let o = shapes[Int(i)]
                    if s.group != 0 && o.group != s.group { continue }
                    if mode == .cooperative && o.overlap != .never { continue }
                    if s.hits(o) { return true }
                }
            }
        }
        return false
    }

    mutating func insert(_ s: CollisionShape) {
        guard let covered = range(s) else { return }
        let index = Int32(shapes.count)
        shapes.append(s)
        for y in covered.rows { for x in covered.cols { cells[y * cols + x].append(index) } }
    }
}

/// Edges of a view shared with a neighbouring image whose labels are placed apart (the blocks of
/// a tile pyramid level too large to place at once). The rule both neighbours reach alike: a
/// label is shown by a view only when its collision shapes lie wholly on the view's side of
/// every seam, so a label crossing a seam is dropped by both sides (each sees it cross), and a
/// label wholly on one side is decided by that side alone; the other side treats it as
/// colliding and never draws it. So no label is cut or doubled at a seam, and labels on the two
/// sides cannot overlap (their shapes, padding included, lie on different sides). Labels that
/// ignore collisions (allow-overlap) are placed by both sides, each drawing its part.
public struct PlacementSeams: Sendable, Equatable {
    public var left: Bool, top: Bool, right: Bool, bottom: Bool
    public init(left: Bool = false, top: Bool = false, right: Bool = false, bottom: Bool = false) {
        self.left = left; self.top = top; self.right = right; self.bottom = bottom
    }
    public static let none = PlacementSeams()

    /// Whether `s` reaches past a seam of a `width` x `height` view.
    func crossed(by s: CollisionShape, width: Double, height: Double) -> Bool {
        (left && s.x1 < 0) || (top && s.y1 < 0) || (right && s.x2 > width) || (bottom && s.y2 > height)
    }
}
