import Foundation
import GLSnapStyle

/// Walks a projected line from a label's anchor: the point at a distance along it (forward
/// when positive, backward when negative) and the angle of the segment it falls on.
struct LineWalk {
    let line: [(x: Double, y: Double)]
    let anchor: (x: Double, y: Double)
    /// The segment the anchor lies on (from point `segment` to `segment + 1`).
    let segment: Int

    /// The point `dist` from the anchor; nil past the line's end.
    func point(at dist: Double) -> (x: Double, y: Double, angle: Double)? {
        var remaining = abs(dist)
        var cur = anchor
        if dist >= 0 {
            var i = segment + 1
            while i < line.count {
                let n = line[i]
                let d = hypot(n.x - cur.x, n.y - cur.y)
                let angle = atan2(n.y - line[i - 1].y, n.x - line[i - 1].x)
                if d >= remaining {
                    let t = d == 0 ? 0 : remaining / d
                    return (cur.x + (n.x - cur.x) * t, cur.y + (n.y - cur.y) * t, angle)
                }
                remaining -= d; cur = n; i += 1
            }
        } else {
            var i = segment
            while i >= 0 {
                let n = line[i]
                let d = hypot(n.x - cur.x, n.y - cur.y)
                let angle = atan2(line[i + 1].y - n.y, line[i + 1].x - n.x)
                if d >= remaining {
                    let t = d == 0 ? 0 : remaining / d
                    return (cur.x + (n.x - cur.x) * t, cur.y + (n.y - cur.y) * t, angle)
                }
                remaining -= d; cur = n; i -= 1
            }
        }
        return nil
    }
}

extension SymbolPlacement {
    /// Places a line label's glyphs along the projected line, each centered on the line at its
    /// distance from the anchor and turned with the segment it falls on (MapLibre's
    /// placeGlyphsAlongLine in screen space). False when a glyph runs off the line.
    static func lineGlyphs(_ inst: SymbolInstance, _ symbols: SymbolTile, line: [(x: Double, y: Double)],
                           anchor: (x: Double, y: Double), translate: (Double, Double), fontScale: Double, keepUpright: Bool,
                           style: TextPaint, verts: inout [Float], images: inout [Float], toScreen: ((Vec2) -> Vec2?)? = nil) -> Bool {
        guard inst.segment >= 0, inst.segment + 1 < line.count else { return false }
        let walk = LineWalk(line: line, anchor: anchor, segment: inst.segment)
        var quads = symbols.glyphQuads[inst.glyphs]
        guard !quads.isEmpty else { return false }
        var flip = false
        if keepUpright {
            guard let upright = uprightLayout(inst, symbols, walk, fontScale: fontScale, toScreen: toScreen) else { return false }
            (quads, flip) = upright
        }
        let sign = flip ? -1.0 : 1.0
        for q in quads {
            guard let p = walk.point(at: q.along * fontScale * sign) else { verts.removeAll(); images.removeAll(); return false }
            let angle = p.angle + (flip ? .pi : 0)
            let c = cos(angle), s = sin(angle)
            @inline(__always) func corner(_ v: Vec2) -> Vec2 {
                let x = v.x * fontScale, y = v.y * fontScale
                return Vec2(p.x + translate.0 + x * c - y * s, p.y + translate.1 + x * s + y * c)
            }
            var tl = corner(q.tl), tr = corner(q.tr), bl = corner(q.bl), br = corner(q.br)
            if let toScreen {
                // Laid out flat on the map (text-pitch-alignment map): project each corner.
                guard let ptl = toScreen(tl), let ptr = toScreen(tr), let pbl = toScreen(bl), let pbr = toScreen(br) else {
                    verts.removeAll(); images.removeAll(); return false
                }
                tl = ptl; tr = ptr; bl = pbl; br = pbr
            }
            if q.isImage { emitTextImage(&images, [tl, tr, bl, br], q, style.opacity, fontScale); continue }
            let color = style.sections[safe: q.section]?.color ?? style.fill
            emitQuad(&verts, tl, tr, bl, br, q.tex, color, style.halo, style.opacity, style.paint)
        }
        return true
    }

    /// The layout of a line label kept upright, and whether it is flipped to read left to right
    /// (or top to bottom in its vertical layout); nil when an end glyph runs off the line.
    static func uprightLayout(_ inst: SymbolInstance, _ symbols: SymbolTile, _ walk: LineWalk, fontScale: Double,
                              toScreen: ((Vec2) -> Vec2?)?) -> (quads: ArraySlice<GlyphQuad>, flip: Bool)? {
        let quads = symbols.glyphQuads[inst.glyphs]
        guard let firstQ = quads.first, let lastQ = quads.last,
              let f = walk.point(at: firstQ.along * fontScale), let l = walk.point(at: lastQ.along * fontScale) else { return nil }
        // Upright on the screen: a label laid flat on the map compares its first and last
        // glyphs projected (as GL JS does), not in the map plane, where bearing and pitch
        // would turn the answer around.
        let flip: Bool
        if let toScreen {
            guard let fs = toScreen(Vec2(f.x, f.y)), let ls = toScreen(Vec2(l.x, l.y)) else { return nil }
            flip = fs.x > ls.x
        } else {
            flip = f.x > l.x
        }
        if let verticalFlip = verticalLayout(inst, symbols, first: f, last: l, fontScale: fontScale, walk: walk.point(at:)) {
            return (symbols.glyphQuads[inst.verticalGlyphs], verticalFlip)
        }
        return (quads, flip)
    }
}
