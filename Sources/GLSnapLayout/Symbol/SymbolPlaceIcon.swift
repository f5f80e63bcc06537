import Foundation
import GLSnapStyle

/// A symbol's icon in one view, before it is combined with its text.
struct PlacedIcon {
    var verts: [Float] = []
    var shape: CollisionShape?
    var placed = false
    /// Placed (its box counts) but not drawn: a fitted icon whose text took no variable anchor.
    var hidden = false
    var sdf = false
}

extension SymbolPlacement {
    /// An icon's vertices and collision box, at its text's variable anchor when fitted to it.
    static func placeIcon(_ icon: IconQuad, _ inst: SymbolInstance, _ symbols: SymbolTile, _ v: SymbolView, _ ctx: EvaluationContext,
                          _ pr: LayerParams, text: PlacedText, projector: TileProjector, grid: CollisionGrid,
                          draw: inout SymbolDrawData) -> PlacedIcon {
        var out = PlacedIcon()
        out.sdf = icon.sdf
        let fitted = pr.fitted && !icon.parts.isEmpty
        // A fitted icon follows its text's variable anchor.
        let followsText = fitted && !inst.variableAnchors.isEmpty && inst.hasText
        // GL JS gives the icon's box its text's shift only then (a shifted frame, see
        // `SymbolBoxFrame.shifted`); otherwise none, not a zero one.
        let iconShift: Vec2? = followsText && text.placed ? text.shift : nil
        let drawShift = followsText ? text.renderShift : (0, 0)
        let ia = (v.a.x + v.iconTranslate.0 + drawShift.0, v.a.y + v.iconTranslate.1 + drawShift.1)
        let o = Float(pr.iconOpacity.evaluate(ctx))
        let fill = out.sdf ? pr.iconColor.evaluate(ctx) : Color.white
        let halo = out.sdf ? pr.iconHaloColor.evaluate(ctx) : Color.transparent
        let paint: [Float] = [Float(pr.iconHaloWidth.evaluate(ctx)), Float(pr.iconHaloBlur.evaluate(ctx)), Float(v.iconSize)]
        let (turn, alongLine, offLine) = iconTurn(inst, icon, symbols, v, pr, projector: projector)
        var planeTurn = alongLine && pr.iconFlat ? segmentTurn(inst, icon, symbols) : nil
        var anchor = Vec2(v.planeAnchor.x + v.iconPlaneTranslate.x, v.planeAnchor.y + v.iconPlaneTranslate.y)
        var screenTurn = turn, screenAnchor = ia
        var standsOff = false
        if alongLine, icon.offsetX != 0 || icon.offsetY != 0 {
            switch iconLineStand(icon, inst, symbols, v, pr, ctx, from: pr.iconFlat ? anchor : Vec2(v.a.x, v.a.y), projector: projector) {
            case .walked(let g) where pr.iconFlat:
                anchor = Vec2(g.x, g.y); planeTurn = (cos(g.angle), sin(g.angle))
            case .walked(let g):
                screenAnchor = (ia.0 + g.x - v.a.x, ia.1 + g.y - v.a.y); screenTurn = (cos(g.angle), sin(g.angle))
            case .offLine: standsOff = true
            case .behindCamera: break
            }
        }
        var level = true
        for piece in iconPieces(icon, fitted: fitted, size: v.iconSize) {
            var corners = piece.corners
            if pr.iconFlat {
                let flat: [Vec2]
                if alongLine, let t = planeTurn {
                    // Laid in the map plane along its segment, then projected: farther icons shrink.
                    flat = corners.map { Vec2(anchor.x + $0.x * t.c - $0.y * t.s, anchor.y + $0.x * t.s + $0.y * t.c) }
                } else {
                    flat = flatCorners(corners, anchor, shift: (0, 0), rotateWithMap: pr.iconRotMap, pr)
                }
                guard let screen = projectAll(flat, v.toScreen, translate: (0, 0)) else { continue }
                corners = screen.map { Vec2($0.x + drawShift.0, $0.y + drawShift.1) }
            } else {
                if let t = screenTurn { corners = corners.map { Vec2($0.x * t.c - $0.y * t.s, $0.x * t.s + $0.y * t.c) } }
                corners = corners.map { Vec2(screenAnchor.0 + $0.x, screenAnchor.1 + $0.y) }
            }
            // A vertical label's fitted icon, turned a quarter with its text, keeps nearest
            // filtering as the horizontal one does (icon-rotate still asks for linear).
            let turned = fitted && icon.parts.first?.turned == true
            level = level && (corners[0].y == corners[1].y || (turned && corners[0].x == corners[1].x))
            emitQuad(&out.verts, corners[0], corners[1], corners[2], corners[3], uv: piece.uv, fill, halo, o, paint)
        }
        if let shape = iconCollisionBox(inst, icon, pr, frame: iconShift.map { v.iconFrame.shifted($0) } ?? v.iconFrame) {
            out.shape = shape
            out.placed = !v.iconNearHorizon && fits(shape, mode: pr.iconOverlap, pr, grid: grid, projector: projector)
        }
        // A fitted icon follows its text's anchor; where the text took none, it is hidden too.
        // GL JS draws a layer's fitted icons at their text's variable anchor only: an icon
        // whose text took no anchor (or that has no text) is hidden.
        // Its collision box still counts.
        out.hidden = pr.fitted && pr.hasVariableAnchors && !(followsText && text.placed)
        // A line icon on its line's first vertex, walking back, finds no segment: GL JS hides it.
        out.hidden = out.hidden || offLine || standsOff
        // Scaled by icon-size, not by the distance, as GL JS decides: pitch, which also sizes icons
        // by their distance, turns linear sampling on in the draw; the globe and terrain, whose
        // anchors lie at their own distances unpitched, do not.
        if pr.iconSize.evaluate(ctx) != 1 || icon.resampled || !level { draw.iconsLinear = true }
        return out
    }

    /// How an icon turns on the screen: line icons with their line (`alongLine`), others with
    /// the map when rotating with it; nil: not at all. `offLine`: a line icon whose walk from its
    /// anchor leaves the line (GL JS does not draw it).
    static func iconTurn(_ inst: SymbolInstance, _ icon: IconQuad, _ symbols: SymbolTile, _ v: SymbolView, _ pr: LayerParams,
                         projector: TileProjector) -> (turn: (c: Double, s: Double)?, alongLine: Bool, offLine: Bool) {
        if inst.line >= 0 && pr.iconRotMap, let line = symbols.lines[safe: inst.line], inst.segment + 1 < line.count {
            switch lineDirection(line, segment: inst.segment, from: Vec2(v.a.x, v.a.y), forward: icon.offsetX > 0,
                                 project: { projector.project($0).map { Vec2($0.x, $0.y) } }) {
            case .angle(let ang): return ((cos(ang), sin(ang)), true, false)
            case .offLine: return (nil, true, true)
            case .behindCamera: break
            }
        }
        return (pr.iconRotMap ? (v.iconEast.x, v.iconEast.y) : nil, false, false)
    }

    enum IconStand {
        case walked(LineGlyph)
        /// The walk ran off the line's end: GL JS hides the icon.
        case offLine
        /// A vertex of the line is behind the camera: the icon stays at its anchor.
        case behindCamera
    }

    /// Where GL JS 6 stands a line icon offset by icon-offset.
    /// Besides the offset its quad carries (scaled by icon-size), it treats the offset as a line
    /// label's text-offset, in 24 px units: it walks the line from the anchor `from` by the offset
    /// times the icon's size over 24 (along the line by x, on a path parallel to it by y; about 4%
    /// of the offset more at icon-size 1), and turns the icon with the line there. The size is
    /// GL JS's for line labels: shrunk by the anchor's perspective ratio in the map plane
    /// (icon-pitch-alignment map), grown by it on the screen. `from`, the result and the walk are
    /// in the map plane when the icon lies flat, else on the screen.
    static func iconLineStand(_ icon: IconQuad, _ inst: SymbolInstance, _ symbols: SymbolTile, _ v: SymbolView, _ pr: LayerParams,
                              _ ctx: EvaluationContext, from: Vec2, projector: TileProjector) -> IconStand {
        guard let source = symbols.lines[safe: inst.line], inst.segment + 1 < source.count else { return .offLine }
        let size = pr.iconSize.evaluate(ctx)
        let line: [(x: Double, y: Double)]
        let scale: Double
        if pr.iconFlat {
            let tupp = v.tileUnitsPerPixel, t = v.iconPlaneTranslate
            line = source.map { ($0.x / tupp + t.x, $0.y / tupp + t.y) }
            scale = size / v.perspective / TextShaper.oneEm
        } else {
            var projected: [(x: Double, y: Double)] = []
            projected.reserveCapacity(source.count)
            for p in source {
                guard let s = projector.project(p) else { return .behindCamera }
                projected.append((s.x, s.y))
            }
            line = projected
            scale = size * v.perspective / TextShaper.oneEm
        }
        let walk = LineWalk(line: line, anchor: (from.x, from.y), segment: inst.segment)
        return walk.glyph(0, lineOffset: (icon.offsetX * scale, icon.offsetY * scale), flip: false).map { .walked($0) } ?? .offLine
    }

    /// The direction of a line icon in the map plane (tile units, unprojected), taken as on the
    /// screen; nil where it has none.
    static func segmentTurn(_ inst: SymbolInstance, _ icon: IconQuad, _ symbols: SymbolTile) -> (c: Double, s: Double)? {
        guard let line = symbols.lines[safe: inst.line], inst.segment + 1 < line.count,
              case .angle(let ang) = lineDirection(line, segment: inst.segment, from: inst.anchor, forward: icon.offsetX > 0,
                                                   project: { $0 }) else { return nil }
        return (cos(ang), sin(ang))
    }

    enum LineDirection: Equatable {
        case angle(Double)
        /// The walk ran off the line's end.
        case offLine
        /// A vertex it needed is behind the camera.
        case behindCamera
    }

    /// The direction of `line` (tile units, `project`ed) at its anchor `from` (already
    /// projected) on `segment`, as GL JS's placeGlyphAlongLine turns a glyph or icon right at the
    /// anchor: toward the next vertex (`forward`, an icon offset ahead along the line) or from the
    /// one before; a vertex where the anchor lies (the anchor is rounded in the tile) passes the
    /// walk on to the segment beyond it.
    static func lineDirection(_ line: [Vec2], segment: Int, from anchor: Vec2, forward: Bool,
                              project: (Vec2) -> Vec2?) -> LineDirection {
        var i = forward ? segment + 1 : segment
        var prev = anchor
        while i >= 0 && i < line.count {
            guard let p = project(line[i]) else { return .behindCamera }
            if p.x != prev.x || p.y != prev.y {
                return .angle(forward ? atan2(p.y - prev.y, p.x - prev.x) : atan2(prev.y - p.y, prev.x - p.x))
            }
            prev = p
            i += forward ? 1 : -1
        }
        return .offLine
    }

    /// The textured pieces an icon is drawn in at icon size `size` (CSS px around the anchor,
    /// corners tl, tr, bl, br): its stretched parts when fitted, else its one quad.
    static func iconPieces(_ icon: IconQuad, fitted: Bool, size: Double) -> [(corners: [Vec2], uv: (Float, Float, Float, Float))] {
        guard !fitted else {
            return icon.parts.map { part in
                let (tl, tr, bl, br) = part.corners(size: size)
                return ([tl, tr, bl, br], (part.u0, part.v0, part.u1, part.v1))
            }
        }
        let r = icon.tex
        return [([icon.tl, icon.tr, icon.bl, icon.br].map { Vec2($0.x * size, $0.y * size) },
                 (Float(r.x), Float(r.y), Float(r.x + r.w), Float(r.y + r.h)))]
    }
}
