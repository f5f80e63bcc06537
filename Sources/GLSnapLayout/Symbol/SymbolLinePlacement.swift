import Foundation
import GLSnapStyle

/// A glyph set on a line: its center and the angle it is turned to.
struct LineGlyph {
    var x: Double, y: Double
    var angle: Double
}

/// Walks a line (projected to the screen, or in the map plane) from a label's anchor, to set
/// glyphs on it as GL JS's placeGlyphAlongLine does: each glyph at its distance from the anchor,
/// forward when positive, turned with the segment it falls on. A label offset across the line
/// (text-offset's y) walks a path parallel to the line instead, its segments moved along their
/// normals and met at their crossings, so glyphs crowd inside a bend and spread outside it.
struct LineWalk {
    let line: [(x: Double, y: Double)]
    let anchor: (x: Double, y: Double)
    /// The segment the anchor lies on (from point `segment` to `segment + 1`).
    let segment: Int

    /// The point `dist` from the anchor on the line itself; nil past the line's end.
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

    /// A glyph `offsetX` from the anchor (its own distance, before the label's offset), with the
    /// label moved `lineOffset` along and across the line; `flip`: the label runs backward along
    /// the line, turned half around. Along, the label's offset keeps the line's direction when
    /// flipped; across, it keeps the line's side (the right of its direction for positive y), as
    /// GL JS places them. Nil past the line's end.
    func glyph(_ offsetX: Double, lineOffset: (x: Double, y: Double), flip: Bool) -> LineGlyph? {
        let dist = flip ? -(offsetX - lineOffset.x) : offsetX + lineOffset.x
        guard lineOffset.y != 0 else {
            guard let p = point(at: dist) else { return nil }
            return LineGlyph(x: p.x, y: p.y, angle: p.angle + (flip ? .pi : 0))
        }
        guard let p = offsetPoint(at: dist, by: lineOffset.y) else { return nil }
        return LineGlyph(x: p.x, y: p.y, angle: p.angle + (flip ? .pi : 0))
    }

    /// The point `dist` from the anchor on the path `by` to the right of the line (left when
    /// negative), and the angle of the line's segment under it.
    func offsetPoint(at dist: Double, by offset: Double) -> (x: Double, y: Double, angle: Double)? {
        let step = dist >= 0 ? 1 : -1
        var remaining = abs(dist)
        // The anchor moved across its own segment (the next one when it sits on a vertex).
        var index = step > 0 ? segment + 1 : segment
        guard index >= 0, index < line.count else { return nil }
        var normal = normalOfSegment(from: segment, offset)
        if normal == nil { normal = normalOfSegment(from: segment + step, offset) ?? normalOfSegment(from: segment - step, offset) }
        guard let n0 = normal else { return point(at: dist) }
        var from = (x: anchor.x + n0.x, y: anchor.y + n0.y)
        while index >= 0 && index < line.count {
            // The segment's own angle, in the line's direction.
            let s = step > 0 ? index - 1 : index
            let angle = atan2(line[s + 1].y - line[s].y, line[s + 1].x - line[s].x)
            let corner = offsetCorner(index, step: step, offset)
            let d = hypot(corner.x - from.x, corner.y - from.y)
            if d >= remaining {
                let t = d == 0 ? 0 : remaining / d
                return (from.x + (corner.x - from.x) * t, from.y + (corner.y - from.y) * t, angle)
            }
            remaining -= d; from = corner; index += step
        }
        return nil
    }

    /// The normal of segment `s` (point s to s + 1) scaled to `offset`: the right of the line's
    /// direction on a y-down plane; nil for a segment of no length or none at all.
    private func normalOfSegment(from s: Int, _ offset: Double) -> (x: Double, y: Double)? {
        guard s >= 0, s + 1 < line.count else { return nil }
        let dx = line[s + 1].x - line[s].x, dy = line[s + 1].y - line[s].y
        let l = hypot(dx, dy)
        guard l > 0 else { return nil }
        return (-dy / l * offset, dx / l * offset)
    }

    /// Where the offset paths of the segments before and after point `i` (in the walk's
    /// direction `step`) cross: point i moved by the normal at a line's end, or where the two
    /// segments are parallel (or one has no length).
    private func offsetCorner(_ i: Int, step: Int, _ offset: Double) -> (x: Double, y: Double) {
        let before = step > 0 ? i - 1 : i, after = step > 0 ? i : i - 1
        let p = line[i]
        guard let nb = normalOfSegment(from: before, offset) else {
            let na = normalOfSegment(from: after, offset) ?? (0, 0)
            return (p.x + na.x, p.y + na.y)
        }
        let moved = (x: p.x + nb.x, y: p.y + nb.y)
        guard let na = normalOfSegment(from: after, offset) else { return moved }
        // Line 1 through the moved segment before, line 2 through the moved segment after.
        let a1 = (x: line[before].x + nb.x, y: line[before].y + nb.y)
        let d1 = (x: moved.x - a1.x, y: moved.y - a1.y)
        let b1 = (x: p.x + na.x, y: p.y + na.y)
        let d2 = (x: line[after + 1].x - line[after].x, y: line[after + 1].y - line[after].y)
        let denominator = d2.y * d1.x - d2.x * d1.y
        guard denominator != 0 else { return moved }
        let t = (d2.x * (a1.y - b1.y) - d2.y * (a1.x - b1.x)) / denominator
        return (a1.x + d1.x * t, a1.y + d1.y * t)
    }
}

extension SymbolPlacement {
    /// Places a line label's glyphs along the line (projected to the screen, or in the map plane
    /// with `toScreen` projecting each corner), each centered on its point of the line and turned
    /// with its segment unless `rotate` is false (text-rotation-alignment viewport-glyph: glyphs
    /// follow the line, level on the screen). False when a glyph runs off the line.
    static func lineGlyphs(_ inst: SymbolInstance, _ symbols: SymbolTile, line: [(x: Double, y: Double)],
                           anchor: (x: Double, y: Double), translate: (Double, Double), fontScale: Double, keepUpright: Bool,
                           rotate: Bool = true, style: TextPaint, verts: inout [Float], images: inout [Float],
                           toScreen: ((Vec2) -> Vec2?)? = nil) -> Bool {
        guard inst.segment >= 0, inst.segment + 1 < line.count else { return false }
        let walk = LineWalk(line: line, anchor: anchor, segment: inst.segment)
        var quads = symbols.glyphQuads[inst.glyphs]
        guard !quads.isEmpty else { return false }
        let lineOffset = (inst.lineOffset.x * fontScale, inst.lineOffset.y * fontScale)
        var flip = false
        if keepUpright {
            guard let upright = uprightLayout(inst, symbols, walk, fontScale: fontScale, lineOffset: lineOffset,
                                              toScreen: toScreen) else { return false }
            (quads, flip) = upright
        }
        for q in quads {
            guard let p = walk.glyph(q.along * fontScale, lineOffset: lineOffset, flip: flip) else {
                verts.removeAll(); images.removeAll(); return false
            }
            let angle = rotate ? p.angle : 0
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
    ///
    /// As GL JS decides it, on the screen: a label of several glyphs by where its first and last
    /// glyphs land, a single glyph by the direction of the segment under its anchor. A label
    /// with a vertical layout stands vertical where that direction rises more than it runs.
    static func uprightLayout(_ inst: SymbolInstance, _ symbols: SymbolTile, _ walk: LineWalk, fontScale: Double,
                              lineOffset: (x: Double, y: Double), toScreen: ((Vec2) -> Vec2?)?)
        -> (quads: ArraySlice<GlyphQuad>, flip: Bool)? {
        let horizontal = symbols.glyphQuads[inst.glyphs]
        guard let ends = screenEnds(horizontal, walk, fontScale: fontScale, lineOffset: lineOffset, toScreen: toScreen) else { return nil }
        let vertical = symbols.glyphQuads[inst.verticalGlyphs]
        if !vertical.isEmpty, abs(ends.last.y - ends.first.y) > abs(ends.last.x - ends.first.x) {
            guard let v = screenEnds(vertical, walk, fontScale: fontScale, lineOffset: lineOffset, toScreen: toScreen) else { return nil }
            // Vertical text reads down: flipped where its first glyph would lie below its last.
            return (vertical, v.first.y > v.last.y)
        }
        return (horizontal, ends.first.x > ends.last.x)
    }

    /// Where a layout's first and last glyphs land on the screen, unflipped; for a single glyph
    /// the anchor and the end of its segment (nil when they are behind the camera).
    static func screenEnds(_ quads: ArraySlice<GlyphQuad>, _ walk: LineWalk, fontScale: Double, lineOffset: (x: Double, y: Double),
                           toScreen: ((Vec2) -> Vec2?)?) -> (first: Vec2, last: Vec2)? {
        guard let firstQ = quads.first, let lastQ = quads.last else { return nil }
        let f: (x: Double, y: Double), l: (x: Double, y: Double)
        if quads.count > 1 {
            guard let a = walk.glyph(firstQ.along * fontScale, lineOffset: lineOffset, flip: false),
                  let b = walk.glyph(lastQ.along * fontScale, lineOffset: lineOffset, flip: false) else { return nil }
            f = (a.x, a.y); l = (b.x, b.y)
        } else {
            f = walk.anchor; l = walk.line[walk.segment + 1]
        }
        guard let toScreen else { return (Vec2(f.x, f.y), Vec2(l.x, l.y)) }
        // Laid flat on the map: compared projected, where bearing and pitch may turn the answer.
        guard let fs = toScreen(Vec2(f.x, f.y)), let ls = toScreen(Vec2(l.x, l.y)) else { return nil }
        return (fs, ls)
    }
}
