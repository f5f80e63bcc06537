import Foundation

extension DebugOverlay {
    /// A collision box's edge from a to b (CSS px) as GL JS's expected images show its
    /// `gl.LINES` drawn: a 1-pixel line walked from the pixel holding `a` toward the pixel holding
    /// `b`, that last pixel left out, one pixel per column (or row, for steep edges). A box's four
    /// edges, each leaving out its end, so light each corner once: the corner's pixel belongs to
    /// the edge that starts there.
    ///
    ///     (x1,y1) ──────▶ (x2,y1)     top edge: columns floor(x1) ..< floor(x2)
    ///        ▲               │        right edge: rows floor(y1) ..< floor(y2)
    ///        │               ▼        and so on round the box
    ///     (x1,y2) ◀────── (x2,y2)
    mutating func boxEdge(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double), _ c: (Double, Double, Double, Double)) {
        let ax = a.x * pixelRatio, ay = a.y * pixelRatio, bx = b.x * pixelRatio, by = b.y * pixelRatio
        let limit = Double(max(image.width, image.height)) * 4
        guard ax.isFinite, ay.isFinite, bx.isFinite, by.isFinite,
              max(abs(ax), abs(ay), abs(bx), abs(by)) < limit else { return }
        let dx = bx - ax, dy = by - ay
        let xMajor = abs(dx) >= abs(dy)
        // The walk along the major axis, in whole pixels.
        let start = Int((xMajor ? ax : ay).rounded(.down)), end = Int((xMajor ? bx : by).rounded(.down))
        guard start != end else { return }
        let step = end > start ? 1 : -1
        var i = start
        while i != end {
            let center = Double(i) + 0.5
            if xMajor {
                let y = ay + (center - ax) / dx * dy
                blend(i, Int(y.rounded(.down)), c)
            } else {
                let x = ax + (center - ay) / dy * dx
                blend(Int(x.rounded(.down)), i, c)
            }
            i += step
        }
    }
}
