/// Screen-space boxes of placed symbols in a uniform grid, for collision tests.
struct CollisionGrid {
    private let cell: Float = 32
    private let minX: Float, minY: Float
    private let cols: Int, rows: Int
    private var cells: [[Int32]]
    private var boxes: [(Float, Float, Float, Float)] = []

    /// A grid over the view plus `padding` pixels on each side.
    init(width: Double, height: Double, padding: Double = 100) {
        minX = Float(-padding); minY = Float(-padding)
        cols = max(1, Int((width + 2 * padding) / 32) + 1)
        rows = max(1, Int((height + 2 * padding) / 32) + 1)
        cells = Array(repeating: [], count: cols * rows)
    }

    private func range(_ b: (Float, Float, Float, Float)) -> (Int, Int, Int, Int)? {
        let x0 = Int(((b.0 - minX) / cell).rounded(.down)), y0 = Int(((b.1 - minY) / cell).rounded(.down))
        let x1 = Int(((b.2 - minX) / cell).rounded(.down)), y1 = Int(((b.3 - minY) / cell).rounded(.down))
        if x1 < 0 || y1 < 0 || x0 >= cols || y0 >= rows { return nil }
        return (max(0, x0), max(0, y0), min(cols - 1, x1), min(rows - 1, y1))
    }

    /// Whether `b` lies at least partly inside the grid.
    func isInside(_ b: (Float, Float, Float, Float)) -> Bool { range(b) != nil }

    /// Whether `b` overlaps a box already inserted.
    func collides(_ b: (Float, Float, Float, Float)) -> Bool {
        guard let (x0, y0, x1, y1) = range(b) else { return true }
        for y in y0...y1 {
            for x in x0...x1 {
                for i in cells[y * cols + x] {
                    let o = boxes[Int(i)]
                    if b.0 < o.2 && b.2 > o.0 && b.1 < o.3 && b.3 > o.1 { return true }
                }
            }
        }
        return false
    }

    mutating func insert(_ b: (Float, Float, Float, Float)) {
        guard let (x0, y0, x1, y1) = range(b) else { return }
        let index = Int32(boxes.count)
        boxes.append(b)
        for y in y0...y1 { for x in x0...x1 { cells[y * cols + x].append(index) } }
    }
}
