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

    /// The point `dist` (0 or more) from the anchor on the line itself, walking `forward` or
    /// back, and the line's direction there; nil past the line's end. As GL JS walks it: the
    /// first leg runs from the anchor (rounded in the tile, so its direction may differ from the
    /// whole segment's) and a leg that ends right at the distance gives way to the next, so a
    /// glyph on a vertex takes the segment beyond it.
    func point(_ dist: Double, forward: Bool) -> (x: Double, y: Double, angle: Double)? {
        var remaining = dist
        var prev = anchor
        var i = forward ? segment + 1 : segment
        while i >= 0 && i < line.count {
            let next = line[i]
            let d = hypot(next.x - prev.x, next.y - prev.y)
            if d > remaining {
                let t = remaining / d
                let angle = forward ? atan2(next.y - prev.y, next.x - prev.x) : atan2(prev.y - next.y, prev.x - next.x)
                return (prev.x + (next.x - prev.x) * t, prev.y + (next.y - prev.y) * t, angle)
            }
            remaining -= d; prev = next; i += forward ? 1 : -1
        }
        return nil
    }

    /// The distance along `tileLine` (the same line in tile units, `tileAnchor` on it) of the
    /// point `dist` from the anchor on this line: whole segments by their tile length, the last
    /// in the share of it walked. Nil past the line's end.
    func tileDistance(at dist: Double, on tileLine: [Vec2], from tileAnchor: Vec2) -> Double? {
        guard tileLine.count == line.count else { return nil }
        var remaining = abs(dist), total = 0.0
        var cur = anchor, tileCur = tileAnchor
        var i = dist >= 0 ? segment + 1 : segment
        let step = dist >= 0 ? 1 : -1
        while i >= 0 && i < line.count {
            let n = line[i], tn = tileLine[i]
            let d = hypot(n.x - cur.x, n.y - cur.y), td = tileCur.dist(tn)
            if d >= remaining { return total + (d == 0 ? 0 : td * remaining / d) }
            remaining -= d; total += td
            cur = n; tileCur = tn; i += step
        }
        return nil
    }

    /// A glyph `offsetX` from the anchor (its own distance, before the label's offset), with the
    /// label moved `lineOffset` along and across the line; `flip`: the label runs backward along
    /// the line, turned half around. Along, the label's offset keeps the line's direction when
    /// flipped; across, it keeps the line's side (the right of its direction for positive y), as
    /// GL JS places them. Nil past the line's end.
    func glyph(_ offsetX: Double, lineOffset: (x: Double, y: Double), flip: Bool) -> LineGlyph? {
        let combined = flip ? offsetX - lineOffset.x : offsetX + lineOffset.x
        let turn = flip ? Double.pi : 0
        // A glyph right at the anchor walks backward (forward when flipped), as in GL JS: the
        // first leg's direction decides where the path starts.
        let step = (combined > 0 ? 1 : -1) * (flip ? -1 : 1)
        guard lineOffset.y != 0 else {
            guard let p = point(abs(combined), forward: step > 0) else { return nil }
            return LineGlyph(x: p.x, y: p.y, angle: p.angle + turn)
        }
        guard let p = offsetPoint(abs(combined), step: step, by: lineOffset.y) else { return nil }
        return LineGlyph(x: p.x, y: p.y, angle: p.angle + turn)
    }

    /// The point `dist` from the anchor, forward (`step` 1) or backward (-1), on the path `by`
    /// to the right of the line (left when negative), and the angle of the line under it (in
    /// the line's direction). As GL JS walks it: each leg from the previous point (the anchor
    /// first) to the next vertex is moved along its normal and cut where it meets the next
    /// segment moved likewise.
    func offsetPoint(_ dist: Double, step: Int, by offset: Double) -> (x: Double, y: Double, angle: Double)? {
        func moved(_ from: (x: Double, y: Double), _ to: (x: Double, y: Double)) -> (x: Double, y: Double)? {
            let dx = to.x - from.x, dy = to.y - from.y, l = hypot(dx, dy)
            guard l > 0 else { return nil }
            let k = offset * Double(step) / l
            return (-dy * k, dx * k)
        }
        var remaining = dist
        var index = step > 0 ? segment : segment + 1
        var prev = anchor, cur = anchor
        var start = anchor, corner: (x: Double, y: Double)?
        var leg = (x: 0.0, y: 0.0), legLength = 0.0
        repeat {
            remaining -= legLength
            index += step
            guard index >= 0, index < line.count else { return nil }
            prev = cur; cur = line[index]
            // From the anchor right on a vertex, the next segment gives the normal.
            guard let n = moved(prev, cur) ?? (line.indices.contains(index + step) ? moved(cur, line[index + step]) : nil) else {
                return nil
            }
            start = corner ?? (prev.x + n.x, prev.y + n.y)
            let end = (x: cur.x + n.x, y: cur.y + n.y)
            var next = end
            if line.indices.contains(index + step), let n2 = moved(cur, line[index + step]) {
                let after = line[index + step]
                next = Self.crossing(start, end, (cur.x + n2.x, cur.y + n2.y), (after.x + n2.x, after.y + n2.y)) ?? end
            }
            corner = next
            leg = (next.x - start.x, next.y - start.y)
            legLength = hypot(leg.x, leg.y)
        } while legLength <= remaining
        let t = legLength > 0 ? remaining / legLength : 0
        let angle = atan2(cur.y - prev.y, cur.x - prev.x) + (step < 0 ? .pi : 0)
        return (start.x + leg.x * t, start.y + leg.y * t, angle)
    }

    /// Where the line through a1 and a2 meets the line through b1 and b2; nil when parallel.
    static func crossing(_ a1: (x: Double, y: Double), _ a2: (x: Double, y: Double), _ b1: (x: Double, y: Double),
                         _ b2: (x: Double, y: Double)) -> (x: Double, y: Double)? {
        let da = (x: a2.x - a1.x, y: a2.y - a1.y), db = (x: b2.x - b1.x, y: b2.y - b1.y)
        let denominator = db.y * da.x - db.x * da.y
        guard denominator != 0 else { return nil }
        let t = (db.x * (a1.y - b1.y) - db.y * (a1.x - b1.x)) / denominator
        return (a1.x + da.x * t, a1.y + da.y * t)
    }
}

extension TileProjector {
    /// How far (CSS px) a point standing in for one behind the camera lies from its neighbour:
    /// farther than any label reaches.
    static let behindCameraReach = 1e7

    /// `source` projected to the screen where a point behind the camera cannot be: each such
    /// point stands in its visible neighbour's line, far out in the direction the segment
    /// leaves that neighbour on the screen (GL JS's projectTruncatedLineSegment), so that
    /// glyphs near the camera still follow the line. Nil when no point is in front.
    static func behindCamera(_ source: [Vec2], _ projection: TileProjection) -> [(x: Double, y: Double)]? {
        let projected = source.map { projection.project($0).map { (x: $0.x, y: $0.y) } }
        guard projected.contains(where: { $0 != nil }) else { return nil }
        var out = projected
        // From the visible point `from` toward `to` behind the camera.
        func standIn(_ from: Int, toward to: Int) -> (x: Double, y: Double)? {
            guard let a = projected[from] else { return nil }
            let p = source[from], q = source[to]
            let l = p.dist(q)
            guard l > 0, let b = projection.project(Vec2(p.x + (p.x - q.x) / l, p.y + (p.y - q.y) / l)) else { return nil }
            let dx = a.x - b.x, dy = a.y - b.y, m = hypot(dx, dy)
            guard m > 0 else { return nil }
            return (a.x + dx / m * behindCameraReach, a.y + dy / m * behindCameraReach)
        }
        // Forward from each visible point into the run behind it, then backward.
        for i in 1..<max(1, source.count) where projected[i] == nil {
            if projected[i - 1] != nil { out[i] = standIn(i - 1, toward: i) } else if out[i] == nil { out[i] = out[i - 1] }
        }
        for i in stride(from: source.count - 2, through: 0, by: -1) where projected[i] == nil && out[i] == nil {
            out[i] = projected[i + 1] != nil ? standIn(i + 1, toward: i) : out[i + 1]
        }
        var line: [(x: Double, y: Double)] = []
        line.reserveCapacity(out.count)
        for p in out {
            guard let p else { return nil }
            line.append(p)
        }
        return line
    }
}

extension SymbolPlacement {
    /// Places a line label's glyphs along the line (projected to the screen, or in the map plane
    /// with `toScreen` projecting each corner), each centered on its point of the line and turned
    /// with its segment unless `rotate` is false (text-rotation-alignment viewport-glyph: glyphs
    /// follow the line, level on the screen). `glyphScale` grows each glyph by a factor of its
    /// point (the globe's latitude stretch). False when a glyph runs off the line.
    static func lineGlyphs(_ inst: SymbolInstance, _ symbols: SymbolTile, line: [(x: Double, y: Double)],
                           anchor: (x: Double, y: Double), translate: (Double, Double), fontScale: Double, keepUpright: Bool,
                           rotate: Bool = true, style: TextPaint, verts: inout [Float], images: inout [Float],
                           toScreen: ((Vec2) -> Vec2?)? = nil, glyphScale: ((Vec2) -> Double)? = nil) -> Bool {
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
            let scale = fontScale * (glyphScale?(Vec2(p.x, p.y)) ?? 1)
            @inline(__always) func corner(_ v: Vec2) -> Vec2 {
                let x = v.x * scale, y = v.y * scale
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
