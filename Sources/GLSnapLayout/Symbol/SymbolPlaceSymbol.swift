import Foundation
import GLSnapStyle

/// A symbol layer's properties evaluated once per view.
struct LayerParams {
    let layer: StyleLayer
    let zoom: Double
    let textAllowOverlap: Bool, iconAllowOverlap: Bool
    let textIgnore: Bool, iconIgnore: Bool
    let textOptional: Bool, iconOptional: Bool
    let isLine: Bool
    let textRotMap: Bool, iconRotMap: Bool, textPitchMap: Bool, iconPitchMap: Bool
    /// Pitched view with symbols laid flat on the map: glyphs are placed in the map plane and
    /// projected corner by corner.
    let textFlat: Bool, iconFlat: Bool
    let keepUpright: Bool
    let textPadding: Double, iconPadding: Double
    let fit: String
    let fitPadding: [Double]
    let textTranslate: (Double, Double), iconTranslate: (Double, Double)
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
        textAllowOverlap = SymbolPlacement.allowOverlap(layer, "text", zctx)
        iconAllowOverlap = SymbolPlacement.allowOverlap(layer, "icon", zctx)
        textIgnore = L("text-ignore-placement").evaluateBool(zctx); iconIgnore = L("icon-ignore-placement").evaluateBool(zctx)
        textOptional = L("text-optional").evaluateBool(zctx); iconOptional = L("icon-optional").evaluateBool(zctx)
        isLine = L("symbol-placement").evaluateString(zctx) != "point"
        textRotMap = SymbolPlacement.resolve(L("text-rotation-alignment").evaluateString(zctx), isLine) == "map"
        iconRotMap = SymbolPlacement.resolve(L("icon-rotation-alignment").evaluateString(zctx), isLine) == "map"
        let pitch = L("text-pitch-alignment").evaluateString(zctx)
        textPitchMap = pitch == "auto" ? textRotMap : pitch == "map"
        let iconPitch = L("icon-pitch-alignment").evaluateString(zctx)
        iconPitchMap = iconPitch == "auto" ? iconRotMap : iconPitch == "map"
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
        skew = t.skewVectors
        zOrder = L("symbol-z-order").evaluateString(zctx)
        sortByKey = layer.hasValue("symbol-sort-key", kind: .layout) && zOrder != "viewport-y"
        sortByY = !sortByKey && (zOrder == "viewport-y" || (zOrder == "auto" && (textAllowOverlap || iconAllowOverlap || textIgnore || iconIgnore)))
        avoidEdges = L("symbol-avoid-edges").evaluateBool(zctx)
        let hasText = layer.hasValue("text-field", kind: .layout), hasIcon = layer.hasValue("icon-image", kind: .layout)
        alwaysShowText = textAllowOverlap && (iconAllowOverlap || !hasIcon || iconOptional)
        alwaysShowIcon = iconAllowOverlap && (textAllowOverlap || !hasText || textOptional)
        let P = { (name: String) in layer.paint(name) }
        textSize = L("text-size"); iconSize = L("icon-size")
        textColor = P("text-color"); haloColor = P("text-halo-color"); haloWidth = P("text-halo-width")
        haloBlur = P("text-halo-blur"); textOpacity = P("text-opacity")
        iconOpacity = P("icon-opacity"); iconColor = P("icon-color"); iconHaloColor = P("icon-halo-color")
        iconHaloWidth = P("icon-halo-width"); iconHaloBlur = P("icon-halo-blur")
    }
}

extension SymbolPlacement {
    /// MapLibre's evaluateVariableOffset: the offset (24 px units) text at `anchor` moves by.
    static func variableOffset(_ anchor: String, _ offset: (Double, Double)) -> (Double, Double) {
        let baseline = 7.0
        if offset.1.isNaN { return SymbolLayout.radialOffset(anchor, radius: offset.0, baseline: baseline) }
        let ox = abs(offset.0), oy = abs(offset.1)
        var x = 0.0, y = 0.0
        switch anchor {
        case "top-right", "top-left", "top": y = oy - baseline
        case "bottom-right", "bottom-left", "bottom": y = -oy + baseline
        default: break
        }
        switch anchor {
        case "top-right", "bottom-right", "right": x = -ox
        case "top-left", "bottom-left", "left": x = ox
        default: break
        }
        return (x, y)
    }

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
        let ta = (a.x + pr.textTranslate.0, a.y + pr.textTranslate.1)
        var shift = (0.0, 0.0)      // collision shift of variable anchors, px
        var renderShift = (0.0, 0.0)
        var textFitBox: (Double, Double, Double, Double)?
        // Text.
        if inst.hasText {
            let sections = symbols.sections[safe: inst.text] ?? []
            let fill = pr.textColor.evaluateColor(ctx), halo = pr.haloColor.evaluateColor(ctx)
            let paint: [Float] = [Float(pr.haloWidth.evaluateNumber(ctx)), Float(pr.haloBlur.evaluateNumber(ctx)), Float(fontScale)]
            let opacity = Float(pr.textOpacity.evaluateNumber(ctx))
            if inst.line >= 0 && pr.textRotMap {
                if pr.textFlat {
                    guard let source = symbols.lines[safe: inst.line],
                          lineGlyphs(inst, symbols, line: source.map { ($0.x / tupp, $0.y / tupp) }, anchor: (planeAnchor.x, planeAnchor.y),
                                     translate: (0, 0), fontScale: fontScale, keepUpright: pr.keepUpright, sections: sections, fill: fill,
                                     halo: halo, opacity: opacity, paint: paint, verts: &textVerts, images: &textImageVerts,
                                     toScreen: { v in toScreen(v).map { Vec2($0.x + pr.textTranslate.0, $0.y + pr.textTranslate.1) } })
                    else { return nil }
                } else {
                    guard let line = projector.line(inst.line),
                          lineGlyphs(inst, symbols, line: line, anchor: (a.x, a.y), translate: pr.textTranslate, fontScale: fontScale,
                                     keepUpright: pr.keepUpright, sections: sections, fill: fill, halo: halo, opacity: opacity,
                                     paint: paint, verts: &textVerts, images: &textImageVerts) else { return nil }
                }
                placeText = placeLineCircles(inst, symbols, projector: projector, fontScale: fontScale, perspective: perspective,
                                             translate: (0, 0), allowOverlap: pr.textAllowOverlap, grid: grid,
                                             tileUnitsPerPixel: projector.tileUnitsPerPixel, shapes: &textShapes)
            } else {
                let boxScale = inst.textLayoutSize / TextShaper.oneEm
                let b = inst.textBox
                let pad = pr.textPadding
                let x1 = (b.0 * boxScale - pad) * perspective, y1 = (b.1 * boxScale - pad) * perspective
                let x2 = (b.2 * boxScale + pad) * perspective, y2 = (b.3 * boxScale + pad) * perspective
                let anchors = inst.variableAnchors.isEmpty ? [""] : inst.variableAnchors
                let attempts = anchors.count * (pr.textAllowOverlap && !inst.variableAnchors.isEmpty ? 2 : 1)
                var usedAnchor = anchors[0]
                for i in 0..<attempts {
                    let anchor = anchors[i % anchors.count]
                    let allowOverlap = pr.textAllowOverlap || i >= anchors.count
                    if !anchor.isEmpty {
                        let (h, v) = TextShaper.alignment(anchor)
                        let off = variableOffset(anchor, inst.variableOffset)
                        let width = x2 - x1, height = y2 - y1
                        shift = (-(h - 0.5) * width + off.0 * boxScale * perspective, -(v - 0.5) * height + off.1 * boxScale * perspective)
                        if pr.textRotMap { shift = (shift.0 * pr.cosA - shift.1 * pr.sinA, shift.0 * pr.sinA + shift.1 * pr.cosA) }
                        let widthUnits = (b.2 - b.0) + 2 * pad / boxScale, heightUnits = (b.3 - b.1) + 2 * pad / boxScale
                        renderShift = ((-(h - 0.5) * widthUnits + off.0) * fontScale, (-(v - 0.5) * heightUnits + off.1) * fontScale)
                        if pr.textRotMap {
                            renderShift = (renderShift.0 * pr.cosA - renderShift.1 * pr.sinA, renderShift.0 * pr.sinA + renderShift.1 * pr.cosA)
                        }
                    }
                    // Collisions use the untranslated anchor, as MapLibre's do.
                    let box = CollisionShape.box(Float(a.x + shift.0 + x1), Float(a.y + shift.1 + y1),
                                                 Float(a.x + shift.0 + x2), Float(a.y + shift.1 + y2))
                    var ok = grid.isInside(box) && (allowOverlap || !grid.collides(box))
                    if ok && pr.avoidEdges && !insideTileEdges(box, projector) { ok = false }
                    if ok, !anchor.isEmpty, pr.fit != "none", !pr.iconAllowOverlap, let icon = inst.icon {
                        let ib = iconCollisionBox(inst, icon, pr, anchor: (a.x + shift.0, a.y + shift.1),
                                                  perspective: perspective)
                        if !grid.isInside(ib) || grid.collides(ib) { continue }
                    }
                    textShapes = [box]
                    placeText = ok
                    if ok { usedAnchor = anchor }
                    if ok || anchor.isEmpty { break }
                }
                if !placeText && !inst.variableAnchors.isEmpty {
                    // Not placed: drawn (if always shown) at the first anchor.
                    shift = (0, 0); renderShift = (0, 0)
                    if let first = inst.variableAnchors.first {
                        let (h, v) = TextShaper.alignment(first)
                        let off = variableOffset(first, inst.variableOffset)
                        let widthUnits = (b.2 - b.0) + 2 * pad / boxScale, heightUnits = (b.3 - b.1) + 2 * pad / boxScale
                        renderShift = ((-(h - 0.5) * widthUnits + off.0) * fontScale, (-(v - 0.5) * heightUnits + off.1) * fontScale)
                    }
                }
                let origin = (ta.0 + renderShift.0, ta.1 + renderShift.1)
                for q in symbols.glyphQuads[inst.glyphs(justifiedFor: usedAnchor)] {
                    let color = sections[safe: q.section]?.color ?? fill
                    if pr.textFlat {
                        let corners = flatCorners([q.tl, q.tr, q.bl, q.br].map { Vec2($0.x * fontScale, $0.y * fontScale) }, planeAnchor,
                                                  shift: renderShift, rotateWithMap: pr.textRotMap, pr)
                        guard let screen = projectAll(corners, toScreen, translate: pr.textTranslate) else { continue }
                        if q.isImage { emitTextImage(&textImageVerts, screen, q, opacity, fontScale); continue }
                        emitQuad(&textVerts, screen, q.tex, color, halo, opacity, paint)
                        continue
                    }
                    @inline(__always) func corner(_ v: Vec2) -> Vec2 {
                        var c = Vec2(v.x * fontScale, v.y * fontScale)
                        if pr.textRotMap { c = Vec2(c.x * pr.cosA - c.y * pr.sinA, c.x * pr.sinA + c.y * pr.cosA) }
                        return Vec2(origin.0 + c.x, origin.1 + c.y)
                    }
                    if q.isImage {
                        emitTextImage(&textImageVerts, [corner(q.tl), corner(q.tr), corner(q.bl), corner(q.br)], q, opacity, fontScale)
                        continue
                    }
                    emitQuad(&textVerts, corner(q.tl), corner(q.tr), corner(q.bl), corner(q.br), q.tex, color, halo, opacity, paint)
                }
                textFitBox = ((b.0 + (renderShift.0 / fontScale)) * fontScale, (b.1 + renderShift.1 / fontScale) * fontScale,
                              (b.2 + renderShift.0 / fontScale) * fontScale, (b.3 + renderShift.1 / fontScale) * fontScale)
            }
        }
        // Icon.
        var sdfIcon = false
        if let icon = inst.icon {
            sdfIcon = icon.sdf
            let iconShift = pr.fit != "none" && placeText && !inst.variableAnchors.isEmpty ? shift : (0, 0)
            let ia = (a.x + pr.iconTranslate.0, a.y + pr.iconTranslate.1)
            var corners = [icon.tl, icon.tr, icon.bl, icon.br].map { Vec2($0.x * iconSize, $0.y * iconSize) }
            if pr.fit != "none", inst.hasText, inst.line < 0, let tb = textFitBox {
                var (x1, y1, x2, y2) = tb
                let p = pr.fitPadding.count == 4 ? pr.fitPadding : [0, 0, 0, 0]
                let box = (icon.box.0 * iconSize, icon.box.1 * iconSize, icon.box.2 * iconSize, icon.box.3 * iconSize)
                if pr.fit == "width" || pr.fit == "both" { x1 -= p[3]; x2 += p[1] } else { let c = (x1 + x2) / 2; x1 = c + box.0; x2 = c + box.2 }
                if pr.fit == "height" || pr.fit == "both" { y1 -= p[0]; y2 += p[2] } else { let c = (y1 + y2) / 2; y1 = c + box.1; y2 = c + box.3 }
                corners = [Vec2(x1, y1), Vec2(x2, y1), Vec2(x1, y2), Vec2(x2, y2)]
            }
            if pr.iconRotMap {
                corners = corners.map { Vec2($0.x * pr.cosA - $0.y * pr.sinA, $0.x * pr.sinA + $0.y * pr.cosA) }
            }
            if inst.line >= 0 && pr.iconRotMap, let line = symbols.lines[safe: inst.line], inst.segment + 1 < line.count,
               let p0 = projector.project(line[inst.segment]), let p1 = projector.project(line[inst.segment + 1]) {
                let ang = atan2(p1.y - p0.y, p1.x - p0.x)
                let c = cos(ang), s = sin(ang)
                corners = [icon.tl, icon.tr, icon.bl, icon.br].map { Vec2(($0.x * c - $0.y * s) * iconSize, ($0.x * s + $0.y * c) * iconSize) }
            }
            let o = Float(pr.iconOpacity.evaluateNumber(ctx))
            let fill = sdfIcon ? pr.iconColor.evaluateColor(ctx) : Color.white
            let halo = sdfIcon ? pr.iconHaloColor.evaluateColor(ctx) : Color.transparent
            let paint: [Float] = [Float(pr.iconHaloWidth.evaluateNumber(ctx)), Float(pr.iconHaloBlur.evaluateNumber(ctx)), Float(iconSize)]
            if pr.iconFlat && !(inst.line >= 0 && pr.iconRotMap) {
                let flat = flatCorners([icon.tl, icon.tr, icon.bl, icon.br].map { Vec2($0.x * iconSize, $0.y * iconSize) }, planeAnchor,
                                       shift: (0, 0), rotateWithMap: pr.iconRotMap, pr)
                if let screen = projectAll(flat, toScreen, translate: pr.iconTranslate) { corners = screen.map { Vec2($0.x - ia.0, $0.y - ia.1) } }
            }
            emitQuad(&iconVerts, corners.map { Vec2(ia.0 + $0.x, ia.1 + $0.y) }, icon.tex, fill, halo, o, paint)
            let shape = iconCollisionBox(inst, icon, pr, anchor: (a.x + iconShift.0, a.y + iconShift.1), perspective: perspective)
            iconShape = shape
            placeIcon = grid.isInside(shape) && (pr.iconAllowOverlap || !grid.collides(shape))
            if placeIcon && pr.avoidEdges && !insideTileEdges(shape, projector) { placeIcon = false }
            if iconSize != 1 || icon.resampled || corners[0].y != corners[1].y { draw.iconsLinear = true }
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
        if placeText && !pr.textIgnore { for s in textShapes { grid.insert(s) } }
        if placeIcon && !pr.iconIgnore, let s = iconShape { grid.insert(s) }
        let showText = hasText && (placeText || pr.alwaysShowText)
        let showIcon = hasIcon && (placeIcon || pr.alwaysShowIcon)
        guard showText || showIcon else { return nil }
        let key = pr.sortByKey ? inst.sortKey : (pr.sortByY ? a.y : 0)
        let boxes = (placeText ? textShapes : []) + (placeIcon ? iconShape.map { [$0] } ?? [] : [])
        return Placed(key: key, order: 0, text: showText ? textVerts : [], icon: showIcon ? iconVerts : [], sdfIcon: sdfIcon,
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

    /// An icon's collision box in screen pixels: its box (fitted to the text with icon-text-fit)
    /// at the layout icon size, plus icon-padding, around `anchor`.
    static func iconCollisionBox(_ inst: SymbolInstance, _ icon: IconQuad, _ pr: LayerParams, anchor: (Double, Double),
                                 perspective: Double) -> CollisionShape {
        var b = icon.box
        if pr.fit != "none", inst.hasText, inst.line < 0 {
            let s = inst.textLayoutSize / TextShaper.oneEm
            let tb = (inst.textBox.0 * s, inst.textBox.1 * s, inst.textBox.2 * s, inst.textBox.3 * s)
            let p = pr.fitPadding.count == 4 ? pr.fitPadding : [0, 0, 0, 0]
            if pr.fit == "width" || pr.fit == "both" { b.0 = tb.0 - p[3]; b.2 = tb.2 + p[1] } else {
                let c = (tb.0 + tb.2) / 2, w = icon.box.2 - icon.box.0; b.0 = c - w / 2; b.2 = c + w / 2
            }
            if pr.fit == "height" || pr.fit == "both" { b.1 = tb.1 - p[0]; b.3 = tb.3 + p[2] } else {
                let c = (tb.1 + tb.3) / 2, h = icon.box.3 - icon.box.1; b.1 = c - h / 2; b.3 = c + h / 2
            }
        }
        let s = inst.iconLayoutSize, pad = pr.iconPadding
        return .box(Float(anchor.0 + (b.0 * s - pad) * perspective), Float(anchor.1 + (b.1 * s - pad) * perspective),
                    Float(anchor.0 + (b.2 * s + pad) * perspective), Float(anchor.1 + (b.3 * s + pad) * perspective))
    }

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
                                 perspective: Double, translate: (Double, Double), allowOverlap: Bool, grid: CollisionGrid,
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
            if !allowOverlap && grid.collides(shape) { collided = true; break }
        }
        return !collided && inGrid
    }
}
