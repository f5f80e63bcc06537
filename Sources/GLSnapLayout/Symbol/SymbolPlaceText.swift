import Foundation
import GLSnapStyle

/// A symbol's text in one view, before it is combined with its icon: its vertices, the
/// collision shapes it would insert, whether it found room, and where a variable anchor moved it.
struct PlacedText {
    var verts: [Float] = [], images: [Float] = []
    var shapes: [CollisionShape] = []
    var placed = false
    /// The variable anchor's shift of the collision boxes (layout px, along the box frame's axes).
    var shift = Vec2(0, 0)
    /// The same shift as drawn (screen px, or map-plane px for text laid flat).
    var renderShift = (0.0, 0.0)
}

/// A label's text paint at its feature: its sections' colors, fill, halo, opacity, and the
/// shader's halo width, halo blur and scale.
struct TextPaint {
    let sections: [TextSection]
    let fill: Color, halo: Color
    let paint: [Float]
    let opacity: Float

    init(_ inst: SymbolInstance, _ symbols: SymbolTile, _ ctx: EvaluationContext, _ pr: LayerParams, fontScale: Double) {
        sections = symbols.sections[safe: inst.text] ?? []
        fill = pr.textColor.evaluate(ctx); halo = pr.haloColor.evaluate(ctx)
        paint = [Float(pr.haloWidth.evaluate(ctx)), Float(pr.haloBlur.evaluate(ctx)), Float(fontScale)]
        opacity = Float(pr.textOpacity.evaluate(ctx))
    }
}

extension SymbolPlacement {
    /// A line label's text: its glyphs along the line, its collision circles tested. Nil when a
    /// glyph runs off the line (or the line is behind the camera): the symbol is not shown.
    static func lineText(_ inst: SymbolInstance, _ symbols: SymbolTile, _ v: SymbolView, _ style: TextPaint, _ pr: LayerParams,
                         projector: inout TileProjector, grid: CollisionGrid) -> PlacedText? {
        var out = PlacedText()
        // How far along the line (tile units) the label reaches back and forward: its glyphs'
        // distances, scaled to the map plane, which the screen shows uniformly unless pitched.
        let quads = symbols.glyphQuads[inst.glyphs]
        guard let first = quads.first, let last = quads.last else { return nil }
        let unitsPerPixel = projector.glyphUnitsPerPixel(at: inst.anchor)
        var reach = (back: abs(first.along + inst.lineOffset.x) * v.fontScale * unitsPerPixel,
                     forward: abs(last.along + inst.lineOffset.x) * v.fontScale * unitsPerPixel)
        if pr.textFlat {
            // Laid in the map plane, translated there (before projection). On the globe each
            // glyph is stretched by the latitude where it lands rather than the anchor's, as GL
            // JS's shader scales it there (`glyphScale`; the walk along the line keeps the anchor's).
            let tp = v.textPlaneTranslate, tupp = v.tileUnitsPerPixel
            let glyphScale: ((Vec2) -> Double)? = projector.projection.globe.map { globe in
                let atAnchor = globe.latitudeCorrection(at: inst.anchor)
                return { p in globe.latitudeCorrection(at: Vec2(p.x * tupp, p.y * tupp)) / atAnchor }
            }
            guard let source = symbols.lines[safe: inst.line],
                  lineGlyphs(inst, symbols, line: source.map { ($0.x / tupp + tp.x, $0.y / tupp + tp.y) },
                             anchor: (v.planeAnchor.x + tp.x, v.planeAnchor.y + tp.y),
                             translate: (0, 0), fontScale: v.fontScale, keepUpright: pr.keepUpright, rotate: pr.textRotMap,
                             style: style, verts: &out.verts, images: &out.images, toScreen: v.toScreen, glyphScale: glyphScale)
            else { return nil }
        } else {
            guard let line = projector.line(inst.line),
                  lineGlyphs(inst, symbols, line: line, anchor: (v.a.x, v.a.y), translate: v.textTranslate, fontScale: v.fontScale,
                             keepUpright: pr.keepUpright, rotate: pr.textRotMap, style: style, verts: &out.verts,
                             images: &out.images) else { return nil }
            // Standing on a pitched map, the glyphs' screen distances stretch over more of the
            // line where it recedes: measured along the line itself, as MapLibre measures it.
            if pr.pitched, let tileLine = symbols.lines[safe: inst.line] {
                let walk = LineWalk(line: line, anchor: (v.a.x, v.a.y), segment: inst.segment)
                let fontScale = v.fontScale, along = inst.lineOffset.x
                if let b = walk.tileDistance(at: (first.along + along) * fontScale, on: tileLine, from: inst.anchor),
                   let f = walk.tileDistance(at: (last.along + along) * fontScale, on: tileLine, from: inst.anchor) {
                    reach = (b, f)
                }
            }
        }
        if projector.projection.globe != nil {
            let radius = inst.circleRadius / symbols.tilePixelRatio * v.perspective
            out.placed = GlobeLineCircles.place(inst, symbols, projector: projector, reach: reach, radius: radius, overlap: pr.textOverlap,
                                                grid: grid, width: projector.projection.width, height: projector.projection.height,
                                                debug: pr.collisionDebug, shapes: &out.shapes)
        } else {
            out.placed = placeLineCircles(inst, symbols, projector: projector, reach: reach, perspective: v.perspective,
                                          translate: (0, 0), overlap: pr.textOverlap, grid: grid,
                                          debug: pr.collisionDebug, shapes: &out.shapes)
        }
        // Near the horizon GL JS keeps no circle, so nothing is placed nor drawn for debug.
        if v.anchorNearHorizon { out.placed = false; out.shapes = [] }
        return out
    }

    /// A point label's text (or a line label's that does not rotate with the map): its box tested
    /// at its anchor, or at each variable anchor in turn; its glyphs around where it lands.
    static func pointText(_ inst: SymbolInstance, _ symbols: SymbolTile, _ v: SymbolView, _ style: TextPaint, _ pr: LayerParams,
                          projector: TileProjector, grid: CollisionGrid) -> PlacedText {
        var out = PlacedText()
        let boxScale = inst.textLayoutSize / TextShaper.oneEm
        let box = inst.textBox.scaled(by: boxScale).outset(by: pr.textPadding).turnedEnvelope(inst.textBoxTurn)
        var glyphs = inst.glyphs
        var hideText = false
        if inst.variableAnchors.isEmpty {
            if let shape = v.textFrame.box(box) {
                out.placed = !v.textNearHorizon && fits(shape, mode: pr.textOverlap, pr, grid: grid, projector: projector)
                out.shapes = [shape]
            }
        } else {
            if let c = variableAnchorCandidate(inst, box: box, boxScale: boxScale, v, pr, projector: projector, grid: grid) {
                out.shift = c.shift
                out.renderShift = c.renderShift
                glyphs = c.glyphs
                out.shapes = [c.shape]
                out.placed = true
            }
            // Not placed at any anchor: MapLibre has no offset for it and hides its text.
            hideText = !out.placed
            // Its debug box stays where the layout put it (GL JS draws it unshifted), sized as
            // GL JS sizes boxes tried at variable anchors (a zero shift: not grown on the map).
            if hideText && pr.collisionDebug, let shape = v.textFrame.shifted(Vec2(0, 0)).box(box) { out.shapes = [shape] }
        }
        emitPointGlyphs(symbols.glyphQuads[hideText ? 0..<0 : glyphs], v, style, renderShift: out.renderShift, pr, into: &out)
        return out
    }

    /// Where a label with variable anchors is placed: the first anchor, in `VariableAnchors.attempts`
    /// order, whose box (and fitted icon) finds room; nil when none does.
    static func variableAnchorCandidate(_ inst: SymbolInstance, box: Rect, boxScale: Double, _ v: SymbolView, _ pr: LayerParams,
                                        projector: TileProjector, grid: CollisionGrid)
        -> (shape: CollisionShape, shift: Vec2, renderShift: (Double, Double), glyphs: Range<Int>)? {
        // Each anchor without overlap, then each again with the layer's overlap mode.
        let width = box.width, height = box.height
        guard !v.textNearHorizon else { return nil }
        for attempt in VariableAnchors.attempts(count: inst.variableAnchors.count, overlapAllowed: pr.textAllowOverlap) {
            let va = inst.variableAnchors[attempt.index]
            let mode = attempt.overlap ? pr.textOverlap : .never
            let candidate = VariableAnchors.shift(va, width: width, height: height, boxScale: boxScale)
            let frame = v.textFrame.shifted(candidate)
            guard let shape = frame.box(box), fits(shape, mode: mode, pr, grid: grid, projector: projector) else { continue }
            // A fitted icon moves with the text, and must fit there too.
            if pr.fitted, pr.iconOverlap == .never, let icon = inst.icon {
                guard let ib = iconCollisionBox(inst, icon, pr, frame: v.iconFrame.shifted(candidate)),
                      grid.isInside(ib), !grid.collides(ib, mode: mode) else { continue }
            }
            let r = VariableAnchors.shift(va, width: width / boxScale, height: height / boxScale, boxScale: 1)
            var renderShift = (r.x * v.shiftScale, r.y * v.shiftScale)
            // On the screen plane the shift turns to the map's east; in the map plane
            // the projection turns it (flatCorners faces it to the viewer otherwise).
            if pr.textRotMap && !pr.textFlat {
                let east = v.east
                renderShift = (renderShift.0 * east.x - renderShift.1 * east.y, renderShift.0 * east.y + renderShift.1 * east.x)
            }
            return (shape, candidate, renderShift, inst.glyphs(justifiedFor: va.anchor))
        }
        return nil
    }

    /// A point label's glyphs around its anchor moved by `renderShift`: on the screen, turned to
    /// the map's east when rotating with the map, or laid in the map plane and projected.
    static func emitPointGlyphs(_ quads: ArraySlice<GlyphQuad>, _ v: SymbolView, _ style: TextPaint, renderShift: (Double, Double),
                                _ pr: LayerParams, into out: inout PlacedText) {
        let fontScale = v.fontScale, east = v.east
        let ta = (v.a.x + v.textTranslate.0, v.a.y + v.textTranslate.1)
        let origin = (ta.0 + renderShift.0, ta.1 + renderShift.1)
        for q in quads {
            let color = style.sections[safe: q.section]?.color ?? style.fill
            if pr.textFlat {
                let corners = flatCorners([q.tl, q.tr, q.bl, q.br].map { Vec2($0.x * fontScale, $0.y * fontScale) },
                                          Vec2(v.planeAnchor.x + v.textPlaneTranslate.x, v.planeAnchor.y + v.textPlaneTranslate.y),
                                          shift: renderShift, rotateWithMap: pr.textRotMap, pr)
                guard let screen = projectAll(corners, v.toScreen, translate: (0, 0)) else { continue }
                if q.isImage { emitTextImage(&out.images, screen, q, style.opacity, fontScale); continue }
                emitQuad(&out.verts, screen, q.tex, color, style.halo, style.opacity, style.paint)
                continue
            }
            @inline(__always) func corner(_ v: Vec2) -> Vec2 {
                var c = Vec2(v.x * fontScale, v.y * fontScale)
                if pr.textRotMap { c = Vec2(c.x * east.x - c.y * east.y, c.x * east.y + c.y * east.x) }
                return Vec2(origin.0 + c.x, origin.1 + c.y)
            }
            if q.isImage {
                emitTextImage(&out.images, [corner(q.tl), corner(q.tr), corner(q.bl), corner(q.br)], q, style.opacity, fontScale)
                continue
            }
            emitQuad(&out.verts, corner(q.tl), corner(q.tr), corner(q.bl), corner(q.br), q.tex, color, style.halo, style.opacity,
                     style.paint)
        }
    }
}
