import GLSnapGL

/// Scissor boxes in place of stencil masks for tiles that are axis-aligned rectangles on screen
/// (a view with no bearing, pitch or roll).
///
/// A tile's clipping mask is its square drawn into the stencil buffer; the pixels it marks are
/// those whose centers lie inside the square (GL's rasterization rule, left and bottom edges in).
/// When the square is a rectangle on screen, a scissor box holds exactly those pixels, and a
/// scissored draw writes the same fragments as a stencil-tested one, without drawing the masks,
/// clearing the stencil buffer or testing stencil per fragment (llvmpipe: about 1 ms per set of
/// masks at @2x). Where the boxes would not hold the same pixels as the masks for certain, the
/// masks are used:
///
/// - a matrix that turns, tilts or divides by a varying w (bearing, pitch, roll): not a rectangle;
/// - an edge within `TileScissor.edgeMargin` of a pixel center (an odd-sized view puts tile edges
///   on centers): which side such a center falls on depends on the rasterizer's fixed-point
///   snapping and tie rule;
/// - rectangles that overlap (a parent tile under its children): the masks let the last one drawn
///   win, the boxes would draw both;
/// - 255 tiles or more (stencil ids run out, and the masked path draws the rest unclipped).
enum TileScissor {
    /// How near a pixel center (in pixels) an edge may come before the box is not trusted: wider
    /// than any rasterizer's subpixel snapping (llvmpipe snaps to 1/256 pixel) and float error.
    static let edgeMargin = 1.0 / 64

    /// The largest count of masks one stencil buffer holds (ids 1...255).
    static let maxTiles = 255

    /// The scissor box of each tile, in order, for tiles whose clip matrices (tile units to clip
    /// space, column-major) are `matrices`, on a `width` × `height` framebuffer; nil where the
    /// masks must be drawn instead (see the type's rules). A tile outside the framebuffer gets an
    /// empty box.
    static func boxes(_ matrices: [[Float]], extent: Double, width: Int, height: Int) -> [ScissorBox]? {
        guard matrices.count <= maxTiles else { return nil }
        var boxes: [ScissorBox] = []
        boxes.reserveCapacity(matrices.count)
        for m in matrices {
            guard let box = box(m, extent: extent, width: width, height: height) else { return nil }
            for other in boxes where overlap(box, other) { return nil }
            boxes.append(box)
        }
        return boxes
    }

    /// One tile's box, or nil (see `boxes`).
    static func box(_ m: [Float], extent: Double, width: Int, height: Int) -> ScissorBox? {
        precondition(m.count == 16, "a 4x4 matrix")
        // x must not depend on the tile's y nor y on its x, and w on neither.
        guard m[1] == 0, m[4] == 0, m[3] == 0, m[7] == 0, m[15] > 0 else { return nil }
        let w = Double(m[15])
        // The square's corners must lie between the near and far planes, or GL clips the mask.
        for a in [0, extent] {
            for b in [0, extent] {
                let z = Double(m[2]) * a + Double(m[6]) * b + Double(m[14])
                guard abs(z) < w else { return nil }
            }
        }
        // Window coordinates of the square's edges (GL's: y up).
        func window(_ clip: Double, _ size: Int) -> Double { (clip / w + 1) * Double(size) / 2 }
        let x0 = window(Double(m[12]), width), x1 = window(Double(m[0]) * extent + Double(m[12]), width)
        let y0 = window(Double(m[13]), height), y1 = window(Double(m[5]) * extent + Double(m[13]), height)
        guard let columns = covered(min(x0, x1), max(x0, x1), size: width),
              let rows = covered(min(y0, y1), max(y0, y1), size: height) else { return nil }
        return ScissorBox(x: columns.lowerBound, y: rows.lowerBound, width: columns.count, height: rows.count)
    }

    /// The pixels `i` in `0..<size` whose centers `i + 0.5` lie in `low..<high`; nil when an edge
    /// is not finite or lies within `edgeMargin` of a center.
    static func covered(_ low: Double, _ high: Double, size: Int) -> Range<Int>? {
        guard low.isFinite, high.isFinite else { return nil }
        for edge in [low, high] {
            let fromCenter = edge - 0.5
            guard abs(fromCenter - fromCenter.rounded()) >= edgeMargin else { return nil }
        }
        // Far outside the framebuffer the count does not matter; clamp before converting.
        let limit = Double(size) + 1
        let first = Int(max(-1, min(limit, (low - 0.5).rounded(.up))))
        let end = Int(max(-1, min(limit, (high - 0.5).rounded(.up))))
        let lower = max(0, min(size, first)), upper = max(0, min(size, end))
        return lower..<max(lower, upper)
    }

    static func overlap(_ a: ScissorBox, _ b: ScissorBox) -> Bool {
        a.width > 0 && a.height > 0 && b.width > 0 && b.height > 0
            && a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
    }
}
