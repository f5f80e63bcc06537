import Foundation
import GLSnapStyle

/// A symbol layer's properties evaluated once per view.
struct LayerParams {
    let layer: StyleLayer
    let zoom: Double
    let textOverlap: OverlapMode, iconOverlap: OverlapMode
    /// Overlap allowed at all (always or cooperative).
    let textAllowOverlap: Bool, iconAllowOverlap: Bool
    let textIgnore: Bool, iconIgnore: Bool
    let textOptional: Bool, iconOptional: Bool
    let isLine: Bool
    let textRotMap: Bool, iconRotMap: Bool, textPitchMap: Bool, iconPitchMap: Bool
    /// Pitched view with symbols laid flat on the map: glyphs are placed in the map plane and
    /// projected corner by corner.
    let textFlat: Bool, iconFlat: Bool
    let pitched: Bool
    /// The layer has text-variable-anchor or text-variable-anchor-offset.
    let hasVariableAnchors: Bool
    let keepUpright: Bool
    let textPadding: Double, iconPadding: Double
    let fit: String
    let fitPadding: [Double]
    let textTranslate: (Double, Double), iconTranslate: (Double, Double)
    /// The translations in the map plane (CSS px at the view's zoom, north up): where GL JS
    /// applies them, before projection, so that a pitched view foreshortens them.
    let textTranslatePlane: Vec2, iconTranslatePlane: Vec2
    let cosA: Double, sinA: Double
    /// Where a viewer-facing label's x and y axes lie in the map plane (Transform.skewVectors).
    let skew: (east: (x: Double, y: Double), south: (x: Double, y: Double))
    let zOrder: String
    let sortByKey: Bool, sortByY: Bool
    let avoidEdges: Bool
    /// Text shown even where it was not placed (MapLibre's alwaysShowText / alwaysShowIcon).
    let alwaysShowText: Bool, alwaysShowIcon: Bool
    let textSize: PropertyValue, iconSize: PropertyValue
    let textColor: PropertyValue, haloColor: PropertyValue, haloWidth: PropertyValue, haloBlur: PropertyValue, textOpacity: PropertyValue
    let iconOpacity: PropertyValue, iconColor: PropertyValue, iconHaloColor: PropertyValue, iconHaloWidth: PropertyValue, iconHaloBlur: PropertyValue

    init(_ layer: StyleLayer, transform t: Transform) {
        self.layer = layer
        zoom = t.zoom
        let zctx = EvaluationContext(zoom: zoom)
        let L = { (name: String) in layer.layout(name) }
        textOverlap = SymbolPlacement.overlapMode(layer, "text", zctx)
        iconOverlap = SymbolPlacement.overlapMode(layer, "icon", zctx)
        textAllowOverlap = textOverlap != .never
        iconAllowOverlap = iconOverlap != .never
        textIgnore = L("text-ignore-placement").evaluateBool(zctx); iconIgnore = L("icon-ignore-placement").evaluateBool(zctx)
        textOptional = L("text-optional").evaluateBool(zctx); iconOptional = L("icon-optional").evaluateBool(zctx)
        isLine = L("symbol-placement").evaluateString(zctx) != "point"
        textRotMap = SymbolPlacement.resolve(L("text-rotation-alignment").evaluateString(zctx), isLine) == "map"
        iconRotMap = SymbolPlacement.resolve(L("icon-rotation-alignment").evaluateString(zctx), isLine) == "map"
        let pitch = L("text-pitch-alignment").evaluateString(zctx)
        textPitchMap = pitch == "auto" ? textRotMap : pitch == "map"
        let iconPitch = L("icon-pitch-alignment").evaluateString(zctx)
        iconPitchMap = iconPitch == "auto" ? iconRotMap : iconPitch == "map"
        pitched = t.pitch != 0
        hasVariableAnchors = layer.hasValue("text-variable-anchor", kind: .layout) || layer.hasValue("text-variable-anchor-offset", kind: .layout)
        textFlat = textPitchMap && t.pitch != 0
        iconFlat = iconPitchMap && t.pitch != 0
        keepUpright = L("text-keep-upright").evaluateBool(zctx)
        textPadding = L("text-padding").evaluateNumber(zctx)
        iconPadding = L("icon-padding").evaluateNumbers(zctx).first ?? 2
        fit = L("icon-text-fit").evaluateString(zctx)
        fitPadding = L("icon-text-fit-padding").evaluateNumbers(zctx)
        textTranslate = SymbolPlacement.translate(layer, "text", zctx, t)
        iconTranslate = SymbolPlacement.translate(layer, "icon", zctx, t)
        let angle = t.eastScreenAngle
        cosA = cos(angle); sinA = sin(angle)
        let (c, s) = (cosA, sinA)
        func plane(_ v: (Double, Double)) -> Vec2 { Vec2(v.0 * c + v.1 * s, -v.0 * s + v.1 * c) }
        textTranslatePlane = plane(textTranslate)
        iconTranslatePlane = plane(iconTranslate)
        skew = t.skewVectors
        zOrder = L("symbol-z-order").evaluateString(zctx)
        sortByKey = layer.hasValue("symbol-sort-key", kind: .layout) && zOrder != "viewport-y"
        sortByY = !sortByKey && (zOrder == "viewport-y" || (zOrder == "auto" && (textAllowOverlap || iconAllowOverlap || textIgnore || iconIgnore)))
        avoidEdges = L("symbol-avoid-edges").evaluateBool(zctx)
        let hasText = layer.hasValue("text-field", kind: .layout), hasIcon = layer.hasValue("icon-image", kind: .layout)
        alwaysShowText = textOverlap == .always && (iconOverlap == .always || !hasIcon || iconOptional)
        alwaysShowIcon = iconOverlap == .always && (textOverlap == .always || !hasText || textOptional)
        let P = { (name: String) in layer.paint(name) }
        textSize = L("text-size"); iconSize = L("icon-size")
        textColor = P("text-color"); haloColor = P("text-halo-color"); haloWidth = P("text-halo-width")
        haloBlur = P("text-halo-blur"); textOpacity = P("text-opacity")
        iconOpacity = P("icon-opacity"); iconColor = P("icon-color"); iconHaloColor = P("icon-halo-color")
        iconHaloWidth = P("icon-halo-width"); iconHaloBlur = P("icon-halo-blur")
    }
}

extension SymbolPlacement {
    /// Places one symbol in one orientation: its collision shapes tested and, when shown, inserted;
    /// its vertices returned (nil when neither text nor icon shows). `textPlaced` tells whether
    /// its text found room (before text and icon are combined).
    static func placeOriented(_ inst: SymbolInstance, _ symbols: SymbolTile, params pr: LayerParams, projector: inout TileProjector,
                              grid: inout CollisionGrid, transform t: Transform, draw: inout SymbolDrawData,
                              textPlaced: inout Bool) -> Placed? {
        guard let a = projector.project(inst.anchor) else { return nil }
        var ctx = EvaluationContext(zoom: pr.zoom)
        ctx.feature = symbols.features[inst.feature]
        let perspective = min(max(0.5 + 0.5 * t.cameraToCenterDistance / a.w, 0), 4)
        // Flat symbols are sized in the map plane, where the distance already shrinks them.
        let flatPerspective = min(max(0.5 + 0.5 * a.w / t.cameraToCenterDistance, 0), 4)
        let textSize = pr.textSize.evaluateNumber(ctx) * (pr.textFlat ? flatPerspective : perspective)
        let fontScale = textSize / TextShaper.oneEm
        let iconSize = pr.iconSize.evaluateNumber(ctx) * (pr.iconFlat ? flatPerspective : perspective)
        // Map plane: CSS pixels at the view's zoom, unrotated; back to the screen by projection.
        let tupp = projector.tileUnitsPerPixel
        let planeAnchor = Vec2(inst.anchor.x / tupp, inst.anchor.y / tupp)
        let projection = projector.projection
        let toScreen: (Vec2) -> Vec2? = { v in
            projection.project(Vec2(v.x * tupp, v.y * tupp)).map { Vec2($0.x, $0.y) }
        }
        var textVerts: [Float] = [], iconVerts: [Float] = [], textImageVerts: [Float] = []
        var textShapes: [CollisionShape] = []
        var iconShape: CollisionShape?
        var placeText = false, placeIcon = false
        // text-translate / icon-translate on the screen at this anchor.
        let textT = pr.pitched ? projectedTranslate(pr.textTranslatePlane, inst.anchor, a, projector) : pr.textTranslate
        let iconT = pr.pitched ? projectedTranslate(pr.iconTranslatePlane, inst.anchor, a, projector) : pr.iconTranslate
        let ta = (a.x + textT.0, a.y + textT.1)
        // The map's east on the screen at the anchor: what point symbols rotating with the map
        // turn to (GL JS measures it the same way, in its shader and its collision boxes).
        var east = Vec2(pr.cosA, pr.sinA)
        if (pr.textRotMap || pr.iconRotMap) && t.pitch != 0, let e = projector.project(Vec2(inst.anchor.x + eastProbe, inst.anchor.y)) {
            let dx = e.x - a.x, dy = e.y - a.y, l = (dx * dx + dy * dy).squareRoot()
            if l > 0 { east = Vec2(dx / l, dy / l) }
        }
        // Point symbols' collision boxes (the text's alignment serves the icon too, as in GL JS).
        let textFrame = pointBoxFrame(a, translate: textT, planeAnchor: planeAnchor, perspective: perspective,
                                      east: east, pr, aligned: true, toScreen: toScreen)
        // Icons placed along lines (one-way arrows) keep screen-aligned boxes, as MapLibre
        // Native's do: turned with the map they would hide many of them on a rotated view.
        let iconFrame = pointBoxFrame(a, translate: iconT, planeAnchor: planeAnchor, perspective: perspective,
                                      east: east, pr, aligned: !pr.isLine, toScreen: toScreen)
        var shift = Vec2(0, 0)      // variable anchor shift of the collision boxes, layout px
        var renderShift = (0.0, 0.0)
        // Text.
        if inst.hasText {
            let sections = symbols.sections[safe: inst.text] ?? []
            let fill = pr.textColor.evaluateColor(ctx), halo = pr.haloColor.evaluateColor(ctx)
            let paint: [Float] = [Float(pr.haloWidth.evaluateNumber(ctx)), Float(pr.haloBlur.evaluateNumber(ctx)), Float(fontScale)]
            let opacity = Float(pr.textOpacity.evaluateNumber(ctx))
            if inst.line >= 0 && pr.textRotMap {
                if pr.textFlat {
                    // Laid in the map plane, translated there (before projection).
                    let tp = pr.textTranslatePlane
                    guard let source = symbols.lines[safe: inst.line],
                          lineGlyphs(inst, symbols, line: source.map { ($0.x / tupp + tp.x, $0.y / tupp + tp.y) },
                                     anchor: (planeAnchor.x + tp.x, planeAnchor.y + tp.y),
                                     translate: (0, 0), fontScale: fontScale, keepUpright: pr.keepUpright, sections: sections, fill: fill,
                                     halo: halo, opacity: opacity, paint: paint, verts: &textVerts, images: &textImageVerts,
                                     toScreen: toScreen)
                    else { return nil }
                } else {
                    guard let line = projector.line(inst.line),
                          lineGlyphs(inst, symbols, line: line, anchor: (a.x, a.y), translate: textT, fontScale: fontScale,
                                     keepUpright: pr.keepUpright, sections: sections, fill: fill, halo: halo, opacity: opacity,
                                     paint: paint, verts: &textVerts, images: &textImageVerts) else { return nil }
                }
                placeText = placeLineCircles(inst, symbols, projector: projector, fontScale: fontScale, perspective: perspective,
                                             translate: (0, 0), overlap: pr.textOverlap, grid: grid,
                                             tileUnitsPerPixel: projector.tileUnitsPerPixel, shapes: &textShapes)
            } else {
                let boxScale = inst.textLayoutSize / TextShaper.oneEm
                let b = inst.textBox
                let pad = pr.textPadding
                let x1 = b.0 * boxScale - pad, y1 = b.1 * boxScale - pad, x2 = b.2 * boxScale + pad, y2 = b.3 * boxScale + pad
                var glyphs = inst.glyphs
                var hideText = false
                if inst.variableAnchors.isEmpty {
                    if let box = textFrame.box(x1, y1, x2, y2) {
                        placeText = grid.isInside(box) && !grid.collides(box, mode: pr.textOverlap)
                        if placeText && pr.avoidEdges && !insideTileEdges(box, projector) { placeText = false }
                        textShapes = [box]
                    }
                } else {
                    // Each anchor without overlap, then each again with the layer's overlap mode.
                    let width = x2 - x1, height = y2 - y1
                    for attempt in VariableAnchors.attempts(count: inst.variableAnchors.count, overlapAllowed: pr.textAllowOverlap) {
                        let va = inst.variableAnchors[attempt.index]
                        let mode = attempt.overlap ? pr.textOverlap : .never
                        let candidate = VariableAnchors.shift(va, width: width, height: height, boxScale: boxScale)
                        let frame = textFrame.shifted(candidate)
                        guard let box = frame.box(x1, y1, x2, y2), grid.isInside(box), !grid.collides(box, mode: mode) else { continue }
                        if pr.avoidEdges && !insideTileEdges(box, projector) { continue }
                        // A fitted icon moves with the text, and must fit there too.
                        if pr.fit != "none", pr.iconOverlap == .never, let icon = inst.icon {
                            guard let ib = iconCollisionBox(inst, icon, pr, frame: iconFrame.shifted(candidate)),
                                  grid.isInside(ib), !grid.collides(ib, mode: mode) else { continue }
                        }
                        shift = candidate
                        let r = VariableAnchors.shift(va, width: width / boxScale, height: height / boxScale, boxScale: 1)
                        renderShift = (r.x * fontScale, r.y * fontScale)
                        // On the screen plane the shift turns to the map's east; in the map plane
                        // the projection turns it (flatCorners faces it to the viewer otherwise).
                        if pr.textRotMap && !pr.textFlat {
                            renderShift = (renderShift.0 * east.x - renderShift.1 * east.y, renderShift.0 * east.y + renderShift.1 * east.x)
                        }
                        glyphs = inst.glyphs(justifiedFor: va.anchor)
                        textShapes = [box]
                        placeText = true
                        break
                    }
                    // Not placed at any anchor: MapLibre has no offset for it and hides its text.
                    hideText = !placeText
                }
                let origin = (ta.0 + renderShift.0, ta.1 + renderShift.1)
                for q in symbols.glyphQuads[hideText ? 0..<0 : glyphs] {
                    let color = sections[safe: q.section]?.color ?? fill
                    if pr.textFlat {
                        let corners = flatCorners([q.tl, q.tr, q.bl, q.br].map { Vec2($0.x * fontScale, $0.y * fontScale) },
                                                  Vec2(planeAnchor.x + pr.textTranslatePlane.x, planeAnchor.y + pr.textTranslatePlane.y),
                                                  shift: renderShift, rotateWithMap: pr.textRotMap, pr)
                        guard let screen = projectAll(corners, toScreen, translate: (0, 0)) else { continue }
                        if q.isImage { emitTextImage(&textImageVerts, screen, q, opacity, fontScale); continue }
                        emitQuad(&textVerts, screen, q.tex, color, halo, opacity, paint)
                        continue
                    }
                    @inline(__always) func corner(_ v: Vec2) -> Vec2 {
                        var c = Vec2(v.x * fontScale, v.y * fontScale)
                        if pr.textRotMap { c = Vec2(c.x * east.x - c.y * east.y, c.x * east.y + c.y * east.x) }
                        return Vec2(origin.0 + c.x, origin.1 + c.y)
                    }
                    if q.isImage {
                        emitTextImage(&textImageVerts, [corner(q.tl), corner(q.tr), corner(q.bl), corner(q.br)], q, opacity, fontScale)
                        continue
                    }
                    emitQuad(&textVerts, corner(q.tl), corner(q.tr), corner(q.bl), corner(q.br), q.tex, color, halo, opacity, paint)
                }
            }
        }
        // Icon.
        var sdfIcon = false, hideIcon = false
        if let icon = inst.icon {
            sdfIcon = icon.sdf
            let fitted = pr.fit != "none" && !icon.parts.isEmpty
            // A fitted icon follows its text's variable anchor.
            let followsText = fitted && !inst.variableAnchors.isEmpty && inst.hasText
            let iconShift = followsText && placeText ? shift : Vec2(0, 0)
            let drawShift = followsText ? renderShift : (0, 0)
            let ia = (a.x + iconT.0 + drawShift.0, a.y + iconT.1 + drawShift.1)
            let o = Float(pr.iconOpacity.evaluateNumber(ctx))
            let fill = sdfIcon ? pr.iconColor.evaluateColor(ctx) : Color.white
            let halo = sdfIcon ? pr.iconHaloColor.evaluateColor(ctx) : Color.transparent
            let paint: [Float] = [Float(pr.iconHaloWidth.evaluateNumber(ctx)), Float(pr.iconHaloBlur.evaluateNumber(ctx)), Float(iconSize)]
            // Line icons turn with their segment on the screen, others with the map when rotating with it.
            var turn: (c: Double, s: Double)?
            if pr.iconRotMap { turn = (east.x, east.y) }
            var alongLine = false
            if inst.line >= 0 && pr.iconRotMap, let line = symbols.lines[safe: inst.line], inst.segment + 1 < line.count,
               let p0 = projector.project(line[inst.segment]), let p1 = projector.project(line[inst.segment + 1]) {
                let ang = atan2(p1.y - p0.y, p1.x - p0.x)
                turn = (cos(ang), sin(ang))
                alongLine = true
            }
            var pieces: [(corners: [Vec2], uv: (Float, Float, Float, Float))] = []
            if fitted {
                for part in icon.parts {
                    let (tl, tr, bl, br) = part.corners(size: iconSize)
                    pieces.append(([tl, tr, bl, br], (part.u0, part.v0, part.u1, part.v1)))
                }
            } else {
                let r = icon.tex
                pieces.append(([icon.tl, icon.tr, icon.bl, icon.br].map { Vec2($0.x * iconSize, $0.y * iconSize) },
                               (Float(r.x), Float(r.y), Float(r.x + r.w), Float(r.y + r.h))))
            }
            var level = true
            for piece in pieces {
                var corners = piece.corners
                if pr.iconFlat && !alongLine {
                    let flat = flatCorners(corners, Vec2(planeAnchor.x + pr.iconTranslatePlane.x, planeAnchor.y + pr.iconTranslatePlane.y),
                                           shift: (0, 0), rotateWithMap: pr.iconRotMap, pr)
                    guard let screen = projectAll(flat, toScreen, translate: (0, 0)) else { continue }
                    corners = screen.map { Vec2($0.x + drawShift.0, $0.y + drawShift.1) }
                } else {
                    if let t = turn { corners = corners.map { Vec2($0.x * t.c - $0.y * t.s, $0.x * t.s + $0.y * t.c) } }
                    corners = corners.map { Vec2(ia.0 + $0.x, ia.1 + $0.y) }
                }
                level = level && corners[0].y == corners[1].y
                emitQuad(&iconVerts, corners[0], corners[1], corners[2], corners[3], uv: piece.uv, fill, halo, o, paint)
            }
            if let shape = iconCollisionBox(inst, icon, pr, frame: iconFrame.shifted(iconShift)) {
                iconShape = shape
                placeIcon = grid.isInside(shape) && !grid.collides(shape, mode: pr.iconOverlap)
                if placeIcon && pr.avoidEdges && !insideTileEdges(shape, projector) { placeIcon = false }
            }
            // A fitted icon follows its text's anchor; where the text took none, it is hidden too.
            // GL JS draws a layer's fitted icons at their text's variable anchor only: an icon
            // whose text took no anchor (or that has no text) is hidden.
            // Its collision box still counts.
            hideIcon = pr.fit != "none" && pr.hasVariableAnchors && !(followsText && placeText)
            if iconSize != 1 || icon.resampled || !level { draw.iconsLinear = true }
        }
        let hasText = !textVerts.isEmpty || !textImageVerts.isEmpty, hasIcon = !iconVerts.isEmpty
        textPlaced = placeText && hasText
        placeText = placeText && hasText
        placeIcon = placeIcon && hasIcon
        let iconWithoutText = pr.textOptional || !hasText
        let textWithoutIcon = pr.iconOptional || !hasIcon
        if !iconWithoutText && !textWithoutIcon {
            placeText = placeText && placeIcon; placeIcon = placeText
        } else if !textWithoutIcon {
            placeText = placeIcon && placeText
        } else if !iconWithoutText {
            placeIcon = placeIcon && placeText
        }
        if placeText && !pr.textIgnore {
            for var s in textShapes { s.overlap = pr.textOverlap; grid.insert(s) }
        }
        if placeIcon && !pr.iconIgnore, var s = iconShape { s.overlap = pr.iconOverlap; grid.insert(s) }
        let showText = hasText && (placeText || pr.alwaysShowText)
        let showIcon = hasIcon && (placeIcon || pr.alwaysShowIcon)
        guard showText || showIcon else { return nil }
        let key = pr.sortByKey ? inst.sortKey : (pr.sortByY ? a.y : 0)
        let boxes = (placeText ? textShapes : []) + (placeIcon ? iconShape.map { [$0] } ?? [] : [])
        return Placed(key: key, order: 0, text: showText ? textVerts : [], icon: showIcon && !hideIcon ? iconVerts : [], sdfIcon: sdfIcon,
                      textImages: showText ? textImageVerts : [], boxes: boxes)
    }

    /// Corners (CSS px around the anchor) laid in the map plane at `anchor`: as they are when
    /// rotating with the map, else turned so they face the viewer's up.
    static func flatCorners(_ corners: [Vec2], _ anchor: Vec2, shift: (Double, Double), rotateWithMap: Bool, _ pr: LayerParams) -> [Vec2] {
        corners.map { c in
            let v = Vec2(c.x + shift.0, c.y + shift.1)
            let e = pr.skew.east, s = pr.skew.south
            let r = rotateWithMap ? v : Vec2(v.x * e.x + v.y * s.x, v.x * e.y + v.y * s.y)
            return Vec2(anchor.x + r.x, anchor.y + r.y)
        }
    }

    /// Map-plane points on the screen, moved by `translate`; nil when one is behind the camera.
    static func projectAll(_ points: [Vec2], _ toScreen: (Vec2) -> Vec2?, translate: (Double, Double)) -> [Vec2]? {
        var out: [Vec2] = []
        out.reserveCapacity(points.count)
        for p in points {
            guard let q = toScreen(p) else { return nil }
            out.append(Vec2(q.x + translate.0, q.y + translate.1))
        }
        return out
    }

    /// An icon's collision box in screen pixels: its box (fitted to the text with icon-text-fit,
    /// see `SymbolLayout.fitted`) at the layout icon size, plus icon-padding, in `frame`.
    static func iconCollisionBox(_ inst: SymbolInstance, _ icon: IconQuad, _ pr: LayerParams, frame: SymbolBoxFrame) -> CollisionShape? {
        let b = icon.collision, s = inst.iconLayoutSize, pad = pr.iconPadding
        return frame.box(b.0 * s - pad, b.1 * s - pad, b.2 * s + pad, b.3 * s + pad)
    }

    /// A translation laid in the map plane at `anchor` (tile units; `a` its projection), as a
    /// screen offset: foreshortened by the pitch like the map under it.
    static func projectedTranslate(_ plane: Vec2, _ anchor: Vec2, _ a: (x: Double, y: Double, w: Double),
                                   _ projector: TileProjector) -> (Double, Double) {
        guard plane.x != 0 || plane.y != 0 else { return (0, 0) }
        let k = projector.tileUnitsPerPixel
        guard let p = projector.project(Vec2(anchor.x + plane.x * k, anchor.y + plane.y * k)) else { return (0, 0) }
        return (p.x - a.x, p.y - a.y)
    }

    /// One tile unit east, to find the map's east on the screen (a few units, for precision).
    static let eastProbe = 16.0

    /// The frame point collision boxes of a symbol at screen anchor `a` are projected in, moved
    /// by `translate` (screen px; in the map plane turned back by the bearing); with `aligned`
    /// false, a plain screen box.
    static func pointBoxFrame(_ a: (x: Double, y: Double, w: Double), translate: (Double, Double), planeAnchor: Vec2,
                              perspective: Double, east: Vec2, _ pr: LayerParams, aligned: Bool,
                              toScreen: @escaping (Vec2) -> Vec2?) -> SymbolBoxFrame {
        let (tx, ty) = collisionsTranslated ? translate : (0, 0)
        let plane = Vec2(planeAnchor.x + tx * pr.cosA + ty * pr.sinA, planeAnchor.y - tx * pr.sinA + ty * pr.cosA)
        return SymbolBoxFrame.make(rotateWithMap: aligned && pr.textRotMap, pitchWithMap: aligned && pr.textPitchMap, pitched: pr.pitched,
                                   screenAnchor: Vec2(a.x + tx, a.y + ty),
                                   planeAnchor: plane, perspective: perspective, eastOnScreen: east, cosA: pr.cosA, sinA: pr.sinA,
                                   toScreen: toScreen)
    }

    /// Whether collision boxes sit where text-translate / icon-translate move the symbol (GL JS)
    /// or at the untranslated anchor (MapLibre Native).
    static let collisionsTranslated = true

    /// symbol-avoid-edges: whether a box lies inside its tile's projected square.
    static func insideTileEdges(_ s: CollisionShape, _ projector: TileProjector) -> Bool {
        let e = Double(TileExtent.extent)
        guard let tl = projector.project(Vec2(0, 0)), let br = projector.project(Vec2(e, e)) else { return true }
        let x1 = Float(min(tl.x, br.x)), x2 = Float(max(tl.x, br.x)), y1 = Float(min(tl.y, br.y)), y2 = Float(max(tl.y, br.y))
        return s.x1 >= x1 && s.y1 >= y1 && s.x2 < x2 && s.y2 < y2
    }

    /// Tests a line label's collision circles (those its glyphs reach), leaving in `shapes` the
    /// ones to insert; true when none collides and at least one lies in the grid.
    static func placeLineCircles(_ inst: SymbolInstance, _ symbols: SymbolTile, projector: TileProjector, fontScale: Double,
                                 perspective: Double, translate: (Double, Double), overlap: OverlapMode, grid: CollisionGrid,
                                 tileUnitsPerPixel: Double, shapes: inout [CollisionShape]) -> Bool {
        let quads = symbols.glyphQuads[inst.glyphs]
        guard let first = quads.first, let last = quads.last else { return false }
        let firstDistance = abs(first.along) * fontScale * tileUnitsPerPixel
        let lastDistance = abs(last.along) * fontScale * tileUnitsPerPixel
        let radius = inst.circleRadius / symbols.tilePixelRatio * perspective
        let circles = symbols.circles[inst.circles]
        var previous: (Double, Double)?
        var inGrid = false, collided = false
        for (k, circle) in circles.enumerated() {
            if circle.distance < -firstDistance || circle.distance > lastDistance { previous = nil; continue }
            guard let p = projector.project(circle.center) else { previous = nil; continue }
            let center = (p.x + translate.0, p.y + translate.1)
            if let prev = previous {
                let dx = center.0 - prev.0, dy = center.1 - prev.1
                if radius * radius * 2 > dx * dx + dy * dy, let next = circles.dropFirst(k + 1).first,
                   next.distance > -firstDistance && next.distance < lastDistance {
                    previous = nil
                    continue
                }
            }
            previous = center
            let shape = CollisionShape.circle(Float(center.0), Float(center.1), Float(radius))
            shapes.append(shape)
            inGrid = inGrid || grid.isInside(shape)
            if grid.collides(shape, mode: overlap) { collided = true; break }
        }
        return !collided && inGrid
    }
}
