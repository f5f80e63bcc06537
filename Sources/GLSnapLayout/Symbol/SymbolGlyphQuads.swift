import Foundation
import GLSnapData
import GLSnapStyle

extension TextShaper {
    /// Texels of padding the icon atlas keeps around an image (MapLibre's IMAGE_PADDING).
    static let imagePadding = 1.0

    /// An image in text as a glyph: its padded atlas rect and MapLibre's metrics for images
    /// (one padding texel to the left, the glyph border above), advance its width.
    static func imageSlot(_ image: IconSlot) -> GlyphSlot {
        let (w, h) = image.displaySize
        let r = image.rect
        let p = Int(imagePadding)
        return GlyphSlot(left: imagePadding, top: -Double(Glyph.border), width: w, height: h, advance: w,
                         rect: AtlasRect(x: r.x - p, y: r.y - p, w: r.w + 2 * p, h: r.h + 2 * p))
    }
}

extension SymbolLayout {
    /// The quads of a shaped label (MapLibre's getGlyphQuads): around the anchor for point labels
    /// (text-rotate applied), around each glyph's own point on the line for line labels. Glyphs
    /// set upright in a vertical line are turned a quarter counterclockwise about the left middle
    /// of their em box; `turnLabel` then turns a whole vertical point label a quarter clockwise,
    /// as MapLibre does when it draws one, so that it reads top to bottom.
    static func appendGlyphQuads(_ quads: inout [GlyphQuad], _ shaping: Shaping, rotate: Double, alongLine: Bool,
                                 offset: (Double, Double), allowVerticalPlacement: Bool = false, turnLabel: Bool = false) {
        let c = cos(rotate), s = sin(rotate)
        let oneEm = TextShaper.oneEm, defaultOffset = TextShaper.defaultOffset
        for g in shaping.glyphs {
            guard let rect = g.slot.rect else { continue }
            var rectBuffer = Double(Glyph.border) + 1
            var texelsPerUnit = 1.0
            if g.isImage {
                texelsPerUnit = g.imageTexelsPerUnit
                rectBuffer = TextShaper.imagePadding / texelsPerUnit
            }
            let upright = (alongLine || allowVerticalPlacement) && g.vertical
            let halfAdvance = g.slot.advance * g.scale / 2
            // Images and scaled glyphs sit in the middle of a vertical line.
            var lineOffset = 0.0
            if allowVerticalPlacement && shaping.verticalizable {
                let scaledGlyphOffset = (g.scale - 1) * oneEm
                let imageOffset = (oneEm - g.slot.width * g.scale) / 2
                lineOffset = g.lineOffset / 2 - (g.isImage ? -imageOffset : scaledGlyphOffset)
            }
            var builtIn = alongLine ? (0.0, 0.0) : (g.x + halfAdvance + offset.0, g.y + offset.1 - lineOffset)
            // Line labels: the glyph's baseline offset is added after any turn (the label's
            // text-offset is applied where it is set on the line).
            let lineShift = alongLine ? (0.0, g.y) : (0.0, 0.0)
            var turnedShift = (0.0, 0.0)
            if upright { turnedShift = builtIn; builtIn = (0, 0) }
            let x1 = (g.slot.left - rectBuffer) * g.scale - halfAdvance + builtIn.0
            let y1 = (-g.slot.top - rectBuffer) * g.scale + builtIn.1
            let x2 = x1 + Double(rect.w) * g.scale / texelsPerUnit, y2 = y1 + Double(rect.h) * g.scale / texelsPerUnit
            // About (-halfAdvance, halfAdvance + 17): the em box's left middle below the baseline offset.
            let cx = -halfAdvance, cy = halfAdvance - defaultOffset
            // Half-width glyphs (and images) are pulled up to the middle of the column.
            let halfWidthCorrection = oneEm / 2 - halfAdvance
            let dx: Double = 5 - defaultOffset - halfWidthCorrection + turnedShift.0
            let dy: Double = (g.isImage ? -halfWidthCorrection : 0) + turnedShift.1
            let rotated = rotate != 0 && !alongLine
            @inline(__always) func place(_ x: Double, _ y: Double) -> Vec2 {
                var p = upright ? Vec2(cx + (y - cy) + dx, cy - (x - cx) + dy) : Vec2(x, y)
                p = Vec2(p.x + lineShift.0, p.y + lineShift.1)
                if rotated { p = Vec2(c * p.x - s * p.y, s * p.x + c * p.y) }
                return turnLabel ? Vec2(-p.y, p.x) : p
            }
            let corners = (place(x1, y1), place(x2, y1), place(x1, y2), place(x2, y2))
            quads.append(GlyphQuad(tl: corners.0, tr: corners.1, bl: corners.2, br: corners.3, tex: rect,
                                   along: g.x + halfAdvance, section: g.section,
                                   isImage: g.isImage))
        }
    }
}
