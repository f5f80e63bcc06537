import Foundation
import GLSnapStyle

/// A symbol layer's properties evaluated once per view.
struct LayerParams {
    let zoom: Double
    let textOverlap: OverlapMode, iconOverlap: OverlapMode
    /// Overlap allowed at all (always or cooperative).
    let textAllowOverlap: Bool, iconAllowOverlap: Bool
    let textIgnore: Bool, iconIgnore: Bool
    let textOptional: Bool, iconOptional: Bool
    let isLine: Bool
    /// Line labels set glyph by glyph along their line: text-rotation-alignment map (each glyph
    /// turned with its segment) or viewport-glyph (each level on the screen).
    let textAlongLine: Bool
    let textRotMap: Bool, iconRotMap: Bool, textPitchMap: Bool, iconPitchMap: Bool
    /// Pitched view with symbols laid flat on the map: glyphs are placed in the map plane and
    /// projected corner by corner.
    let textFlat: Bool, iconFlat: Bool
    let pitched: Bool
    /// Placed on the globe: map-pitched boxes are projected through it at any pitch (GL JS).
    let onGlobe: Bool
    /// The layer has text-variable-anchor or text-variable-anchor-offset.
    let hasVariableAnchors: Bool
    let keepUpright: Bool
    let textPadding: Double
    /// icon-padding as margins: minX left, minY top, maxX right, maxY bottom (CSS order in the style).
    let iconPadding: Rect
    /// icon-text-fit: with one, an icon is drawn around its text (`IconQuad.parts`).
    let fitted: Bool
    let textTranslate: (Double, Double), iconTranslate: (Double, Double)
    /// The translations in the map plane (CSS px at the view's zoom, north up): where GL JS
    /// applies them, before projection, so that a pitched view foreshortens them.
    let textTranslatePlane: Vec2, iconTranslatePlane: Vec2
    let cosA: Double, sinA: Double
    /// Where a viewer-facing label's x and y axes lie in the map plane (Transform.skewVectors).
    let skew: (east: (x: Double, y: Double), south: (x: Double, y: Double))
    /// Placed from the bottom of the view up (symbol-z-order viewport-y without a sort key).
    let placesBottomUp: Bool
    let sortByKey: Bool, sortByY: Bool
    let avoidEdges: Bool
    /// Text shown even where it was not placed (MapLibre's alwaysShowText / alwaysShowIcon).
    let alwaysShowText: Bool, alwaysShowIcon: Bool
    let textSize: LayerProperty<Double>, iconSize: LayerProperty<Double>
    let textColor: LayerProperty<Color>, haloColor: LayerProperty<Color>, haloWidth: LayerProperty<Double>
    let haloBlur: LayerProperty<Double>, textOpacity: LayerProperty<Double>
    let iconOpacity: LayerProperty<Double>, iconColor: LayerProperty<Color>, iconHaloColor: LayerProperty<Color>
    let iconHaloWidth: LayerProperty<Double>, iconHaloBlur: LayerProperty<Double>
    /// Every tested shape is kept for debug drawing (`SymbolDrawData.collisionDebug`).
    var collisionDebug = false

    /// `globe`: placed on the globe, where map-aligned symbols always lie on the curved surface
    /// (laid in the map plane and projected corner by corner, as under pitch).
    init(_ layer: SymbolLayer, transform t: Transform, globe: Bool = false) {
        zoom = t.zoom
        let zctx = EvaluationContext(zoom: zoom)
        textOverlap = SymbolPlacement.overlapMode(layer.textOverlap, allowOverlap: layer.textAllowOverlap, zctx)
        iconOverlap = SymbolPlacement.overlapMode(layer.iconOverlap, allowOverlap: layer.iconAllowOverlap, zctx)
        textAllowOverlap = textOverlap != .never
        iconAllowOverlap = iconOverlap != .never
        textIgnore = layer.textIgnorePlacement.evaluate(zctx); iconIgnore = layer.iconIgnorePlacement.evaluate(zctx)
        textOptional = layer.textOptional.evaluate(zctx); iconOptional = layer.iconOptional.evaluate(zctx)
        isLine = layer.placement.evaluate(zctx) != .point
        switch layer.textRotationAlignment.evaluate(zctx) {
        case .map: textRotMap = true
        case .viewport, .viewportGlyph: textRotMap = false
        case .auto: textRotMap = isLine
        }
        textAlongLine = textRotMap || (isLine && layer.textRotationAlignment.evaluate(zctx) == .viewportGlyph)
        switch layer.iconRotationAlignment.evaluate(zctx) {
        case .map: iconRotMap = true
        case .viewport: iconRotMap = false
        case .auto: iconRotMap = isLine
        }
        let pitch = layer.textPitchAlignment.evaluate(zctx)
        textPitchMap = pitch == .auto ? textRotMap : pitch == .map
        let iconPitch = layer.iconPitchAlignment.evaluate(zctx)
        iconPitchMap = iconPitch == .auto ? iconRotMap : iconPitch == .map
        pitched = t.pitch != 0 || globe
        onGlobe = globe
        hasVariableAnchors = layer.textVariableAnchor.isSet || layer.textVariableAnchorOffset.isSet
        textFlat = textPitchMap && pitched
        iconFlat = iconPitchMap && pitched
        keepUpright = layer.textKeepUpright.evaluate(zctx)
        textPadding = layer.textPadding.evaluate(zctx)
        iconPadding = SymbolPlacement.paddingMargins(layer.iconPadding.evaluate(zctx))
        fitted = layer.iconTextFit.evaluate(zctx) != .none
        textTranslate = SymbolPlacement.translate(layer.textTranslate, anchor: layer.textTranslateAnchor, zctx, t)
        iconTranslate = SymbolPlacement.translate(layer.iconTranslate, anchor: layer.iconTranslateAnchor, zctx, t)
        let angle = t.eastScreenAngle
        cosA = cos(angle); sinA = sin(angle)
        let (c, s) = (cosA, sinA)
        func plane(_ v: (Double, Double)) -> Vec2 { Vec2(v.0 * c + v.1 * s, -v.0 * s + v.1 * c) }
        textTranslatePlane = plane(textTranslate)
        iconTranslatePlane = plane(iconTranslate)
        skew = t.skewVectors
        let zOrder = layer.zOrder.evaluate(zctx)
        sortByKey = layer.sortKey.isSet && zOrder != .viewportY
        placesBottomUp = zOrder == .viewportY && !sortByKey
        sortByY = !sortByKey && (zOrder == .viewportY || (zOrder == .auto && (textAllowOverlap || iconAllowOverlap || textIgnore || iconIgnore)))
        avoidEdges = layer.avoidEdges.evaluate(zctx)
        let hasText = layer.textField.isSet, hasIcon = layer.iconImage.isSet
        alwaysShowText = textOverlap == .always && (iconOverlap == .always || !hasIcon || iconOptional)
        alwaysShowIcon = iconOverlap == .always && (textOverlap == .always || !hasText || textOptional)
        textSize = layer.textSize; iconSize = layer.iconSize
        textColor = layer.textColor; haloColor = layer.textHaloColor; haloWidth = layer.textHaloWidth
        haloBlur = layer.textHaloBlur; textOpacity = layer.textOpacity
        iconOpacity = layer.iconOpacity; iconColor = layer.iconColor; iconHaloColor = layer.iconHaloColor
        iconHaloWidth = layer.iconHaloWidth; iconHaloBlur = layer.iconHaloBlur
    }
}

/// A symbol's anchor in one view: where it lands on the screen, its sizes there, and the frames
/// its collision boxes are projected in.
struct SymbolView {
    /// The anchor on the screen (CSS px) and its clip w.
    let a: (x: Double, y: Double, w: Double)
    let perspective: Double
    /// text-size and icon-size as drawn here; `fontScale` is the text size over 24 px.
    let textSize: Double, fontScale: Double, iconSize: Double
    /// What a variable anchor's shift (24 px units) is scaled by where it is drawn: the font
    /// scale, but for text laid on the map text-size times the viewer-facing perspective ratio
    /// at the anchor over 24 (GL JS's renderTextSize, though the glyphs grow with distance there).
    let shiftScale: Double
    /// Map plane: CSS pixels at the view's zoom, unrotated; back to the screen by projection.
    let tileUnitsPerPixel: Double
    let planeAnchor: Vec2
    /// text-translate / icon-translate in that plane's units: GL JS moves the anchor by them in
    /// tile units at the view's zoom, which on the globe are not the glyphs' units (those are
    /// stretched toward the poles, `glyphUnitsPerPixel`).
    let textPlaneTranslate: Vec2, iconPlaneTranslate: Vec2
    let toScreen: (Vec2) -> Vec2?
    /// text-translate / icon-translate on the screen at this anchor.
    let textTranslate: (Double, Double), iconTranslate: (Double, Double)
    /// The map's east on the screen at the text's translated anchor: what point symbols rotating
    /// with the map turn to (GL JS measures it the same way, in its shader and its collision
    /// boxes, at the anchor moved by text-translate).
    let east: Vec2
    /// The same where the icon is translated to (`east` where icon-translate is text-translate's).
    let iconEast: Vec2
    /// Point symbols' collision box frames of the text and the icon.
    let textFrame: SymbolBoxFrame, iconFrame: SymbolBoxFrame
    /// The text's (icon's) translated anchor lies so near the horizon that GL JS places
    /// nothing there (`SymbolPlacement.nearHorizon`); its shapes are tested for debug only.
    let textNearHorizon: Bool, iconNearHorizon: Bool
    /// The same at the untranslated anchor, where GL JS measures line labels' circles.
    let anchorNearHorizon: Bool

    init(_ a: (x: Double, y: Double, w: Double), _ inst: SymbolInstance, _ ctx: EvaluationContext, _ pr: LayerParams,
         projector: TileProjector, transform t: Transform) {
        self.a = a
        let d = t.cameraToCenterDistance
        func ratio(_ w: Double) -> Double { min(max(0.5 + 0.5 * d / w, 0), 4) }
        // Flat symbols are sized in the map plane, where the distance already shrinks them.
        func flatRatio(_ w: Double) -> Double { min(max(0.5 + 0.5 * w / d, 0), 4) }
        perspective = ratio(a.w)
        let tupp = projector.glyphUnitsPerPixel(at: inst.anchor)
        // Under pitch, text-translate / icon-translate move the symbol in the map plane, and it
        // is sized (and its box scaled) by its distance there, as GL JS's translated matrix does.
        func translatedW(_ plane: Vec2) -> Double {
            guard pr.pitched, plane.x != 0 || plane.y != 0,
                  let p = projector.project(Vec2(inst.anchor.x + plane.x * projector.tileUnitsPerPixel,
                                                 inst.anchor.y + plane.y * projector.tileUnitsPerPixel)) else { return a.w }
            return p.w
        }
        let textW = translatedW(pr.textTranslatePlane), iconW = translatedW(pr.iconTranslatePlane)
        textNearHorizon = SymbolPlacement.nearHorizon(w: textW, cameraToCenter: d)
        iconNearHorizon = SymbolPlacement.nearHorizon(w: iconW, cameraToCenter: d)
        anchorNearHorizon = SymbolPlacement.nearHorizon(w: a.w, cameraToCenter: d)
        textSize = pr.textSize.evaluate(ctx) * (pr.textFlat ? flatRatio(textW) : ratio(textW))
        fontScale = textSize / TextShaper.oneEm
        shiftScale = pr.textFlat ? pr.textSize.evaluate(ctx) * ratio(a.w) / TextShaper.oneEm : fontScale
        // GL JS 6 sizes map-pitched icons laid along a line by icon-size alone in the map plane
        // (its shader skips the perspective ratio for them: icon-offset/pitched-offset).
        let iconAlongLine = inst.line >= 0 && pr.iconRotMap
        iconSize = pr.iconSize.evaluate(ctx) * (pr.iconFlat ? (iconAlongLine ? 1 : flatRatio(iconW)) : ratio(iconW))
        tileUnitsPerPixel = tupp
        planeAnchor = Vec2(inst.anchor.x / tupp, inst.anchor.y / tupp)
        let toPlane = projector.tileUnitsPerPixel / tupp
        textPlaneTranslate = Vec2(pr.textTranslatePlane.x * toPlane, pr.textTranslatePlane.y * toPlane)
        iconPlaneTranslate = Vec2(pr.iconTranslatePlane.x * toPlane, pr.iconTranslatePlane.y * toPlane)
        let projection = projector.projection
        let toScreen: (Vec2) -> Vec2? = { v in
            projection.project(Vec2(v.x * tupp, v.y * tupp)).map { Vec2($0.x, $0.y) }
        }
        self.toScreen = toScreen
        textTranslate = pr.pitched ? SymbolPlacement.projectedTranslate(pr.textTranslatePlane, inst.anchor, a, projector) : pr.textTranslate
        iconTranslate = pr.pitched ? SymbolPlacement.projectedTranslate(pr.iconTranslatePlane, inst.anchor, a, projector) : pr.iconTranslate
        // Measured where each is translated to, as GL JS measures it (at the translated anchor).
        func eastOnScreen(_ translatePlane: Vec2) -> Vec2 {
            let k = projector.tileUnitsPerPixel
            let from = Vec2(inst.anchor.x + translatePlane.x * k, inst.anchor.y + translatePlane.y * k)
            let moved = translatePlane.x != 0 || translatePlane.y != 0
            guard let o = moved ? projector.project(from) : a, let e = projector.project(Vec2(from.x + SymbolPlacement.eastProbe, from.y)) else {
                return Vec2(pr.cosA, pr.sinA)
            }
            let dx = e.x - o.x, dy = e.y - o.y, l = (dx * dx + dy * dy).squareRoot()
            return l > 0 ? Vec2(dx / l, dy / l) : Vec2(pr.cosA, pr.sinA)
        }
        let measured = (pr.textRotMap || pr.iconRotMap) && pr.pitched
        east = measured ? eastOnScreen(pr.textTranslatePlane) : Vec2(pr.cosA, pr.sinA)
        iconEast = measured && (pr.iconTranslatePlane.x != pr.textTranslatePlane.x || pr.iconTranslatePlane.y != pr.textTranslatePlane.y)
            ? eastOnScreen(pr.iconTranslatePlane) : east
        // The text's alignment serves the icon too, as in GL JS.
        textFrame = SymbolPlacement.pointBoxFrame(a, translate: textTranslate, translatePlane: textPlaneTranslate,
                                                  planeAnchor: planeAnchor, perspective: ratio(textW), w: textW, cameraToCenter: d,
                                                  east: east, pr, aligned: true, toScreen: toScreen)
        // Icons placed along lines (one-way arrows) keep screen-aligned boxes, as MapLibre
        // Native's do: turned with the map they would hide many of them on a rotated view.
        iconFrame = SymbolPlacement.pointBoxFrame(a, translate: iconTranslate, translatePlane: iconPlaneTranslate,
                                                  planeAnchor: planeAnchor, perspective: ratio(iconW), w: iconW, cameraToCenter: d,
                                                  east: iconEast, pr, aligned: !pr.isLine, toScreen: toScreen)
    }
}

extension SymbolPlacement {
    /// Places one symbol in one orientation: its collision shapes tested and, when shown, inserted;
    /// its vertices returned (nil when neither text nor icon shows). `textPlaced` tells whether
    /// its text found room (before text and icon are combined).
    static func placeOriented(_ inst: SymbolInstance, _ symbols: SymbolTile, params pr: LayerParams, projector: inout TileProjector,
                              grid: inout CollisionGrid, transform t: Transform, draw: inout SymbolDrawData,
                              textPlaced: inout Bool) -> Placed? {
        // On the globe an anchor behind the horizon is hidden, whatever its overlap mode (GL JS).
        guard let a = projector.project(inst.anchor), !projector.isOccluded(inst.anchor) else { return nil }
        var ctx = EvaluationContext(zoom: pr.zoom)
        ctx.feature = symbols.features[inst.feature]
        ctx.canonicalID = symbols.canonical
        ctx.geometryExtent = symbols.geometryExtent
        let view = SymbolView(a, inst, ctx, pr, projector: projector, transform: t)
        var text = PlacedText()
        if inst.hasText {
            let paint = TextPaint(inst, symbols, ctx, pr, fontScale: view.fontScale)
            if inst.line >= 0 && pr.textAlongLine {
                guard let placed = lineText(inst, symbols, view, paint, pr, projector: &projector, grid: grid) else { return nil }
                text = placed
            } else {
                text = pointText(inst, symbols, view, paint, pr, projector: projector, grid: grid)
            }
        }
        var icon = PlacedIcon()
        if let quad = inst.icon {
            icon = placeIcon(quad, inst, symbols, view, ctx, pr, text: text, projector: projector, grid: grid, draw: &draw)
        }
        return commit(text, icon, inst, pr, grid: &grid, textPlaced: &textPlaced, debug: &draw.collisionDebug)
    }

    /// Whether a shape may be placed: inside the grid, hitting no shape that `mode` counts, and
    /// with symbol-avoid-edges inside its tile.
    static func fits(_ s: CollisionShape, mode: OverlapMode, _ pr: LayerParams, grid: CollisionGrid, projector: TileProjector) -> Bool {
        grid.isInside(s) && !grid.collides(s, mode: mode) && !(pr.avoidEdges && !insideTileEdges(s, projector))
    }

    /// Text and icon combined (each placed only with the other unless it is optional or the
    /// other is missing), the shapes of what is placed inserted into the grid (unless it ignores
    /// placement); what shows, nil when nothing does.
    static func commit(_ text: PlacedText, _ icon: PlacedIcon, _ inst: SymbolInstance, _ pr: LayerParams,
                       grid: inout CollisionGrid, textPlaced: inout Bool, debug: inout [CollisionDebugShape]?) -> Placed? {
        let hasText = !text.verts.isEmpty || !text.images.isEmpty, hasIcon = !icon.verts.isEmpty
        textPlaced = text.placed && hasText
        var placeText = text.placed && hasText
        var placeIcon = icon.placed && hasIcon
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
            for var s in text.shapes { s.overlap = pr.textOverlap; grid.insert(s) }
        }
        if placeIcon && !pr.iconIgnore, var s = icon.shape { s.overlap = pr.iconOverlap; grid.insert(s) }
        CollisionDebugShape.record(text, icon, inst, placeText: placeText, placeIcon: placeIcon, into: &debug)
        let showText = hasText && (placeText || pr.alwaysShowText)
        let showIcon = hasIcon && (placeIcon || pr.alwaysShowIcon)
        guard showText || showIcon else { return nil }
        let key = pr.sortByKey ? inst.sortKey : (pr.sortByY ? sortY(inst.anchor, pr) : 0)
        let boxes = (placeText ? text.shapes : []) + (placeIcon ? icon.shape.map { [$0] } ?? [] : [])
        return Placed(key: key, order: 0, text: showText ? text.verts : [], icon: showIcon && !icon.hidden ? icon.verts : [],
                      sdfIcon: icon.sdf, textImages: showText ? text.images : [], boxes: boxes)
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
        frame.box(icon.collision.scaled(by: inst.iconLayoutSize).outset(by: icon.padding ?? pr.iconPadding).turnedEnvelope(icon.turn))
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

    /// GL JS's `perspectiveRatioCutoff`: where the perspective ratio (0.5 + 0.5 × camera-to-center
    /// distance / the point's clip w, unclamped) falls below it, near the horizon, no symbol is placed.
    static let perspectiveRatioCutoff = 0.6

    /// Whether a point of clip w lies past the cutoff (`perspectiveRatioCutoff`).
    static func nearHorizon(w: Double, cameraToCenter d: Double) -> Bool {
        0.5 + 0.5 * d / w < perspectiveRatioCutoff
    }

    /// One tile unit east, to find the map's east on the screen (a few units, for precision).
    static let eastProbe = 16.0

    /// The frame point collision boxes of a symbol at screen anchor `a` are projected in, moved
    /// by `translate` (screen px) on the screen plane, by `translatePlane` (map-plane px, where
    /// GL JS translates the anchor) in the map plane; with `aligned` false, a plain screen box.
    static func pointBoxFrame(_ a: (x: Double, y: Double, w: Double), translate: (Double, Double), translatePlane: Vec2,
                              planeAnchor: Vec2, perspective: Double, w: Double, cameraToCenter: Double,
                              east: Vec2, _ pr: LayerParams, aligned: Bool,
                              toScreen: @escaping (Vec2) -> Vec2?) -> SymbolBoxFrame {
        let (tx, ty) = collisionsTranslated ? translate : (0, 0)
        let tp = collisionsTranslated ? translatePlane : Vec2(0, 0)
        let plane = Vec2(planeAnchor.x + tp.x, planeAnchor.y + tp.y)
        return SymbolBoxFrame.make(rotateWithMap: aligned && pr.textRotMap, pitchWithMap: aligned && pr.textPitchMap, pitched: pr.pitched && !pr.onGlobe,
                                   screenAnchor: Vec2(a.x + tx, a.y + ty),
                                   planeAnchor: plane, perspective: perspective, w: w, cameraToCenter: cameraToCenter,
                                   eastOnScreen: east, cosA: pr.cosA, sinA: pr.sinA,
                                   toScreen: toScreen)
    }

    /// Whether collision boxes sit where text-translate / icon-translate move the symbol (GL JS)
    /// or at the untranslated anchor (MapLibre Native).
    static let collisionsTranslated = true

    /// symbol-avoid-edges: whether a box lies inside its tile's projected square.
    static func insideTileEdges(_ s: CollisionShape, _ projector: TileProjector) -> Bool {
        let e = Double(TileExtent.extent)
        guard let tl = projector.project(Vec2(0, 0)), let br = projector.project(Vec2(e, e)) else { return true }
        let x1 = min(tl.x, br.x), x2 = max(tl.x, br.x), y1 = min(tl.y, br.y), y2 = max(tl.y, br.y)
        return s.x1 >= x1 && s.y1 >= y1 && s.x2 < x2 && s.y2 < y2
    }

    /// Tests a line label's collision circles (those its glyphs reach), leaving in `shapes` the
    /// ones to insert; true when none collides and at least one lies in the grid.
    /// `reach`: how far (tile units) the label's first and last glyphs lie from the anchor.
    static func placeLineCircles(_ inst: SymbolInstance, _ symbols: SymbolTile, projector: TileProjector,
                                 reach: (back: Double, forward: Double), perspective: Double, translate: (Double, Double),
                                 overlap: OverlapMode, grid: CollisionGrid, debug: Bool = false,
                                 shapes: inout [CollisionShape]) -> Bool {
        let firstDistance = reach.back, lastDistance = reach.forward
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
            let shape = CollisionShape.circle(center.0, center.1, radius)
            shapes.append(shape)
            inGrid = inGrid || grid.isInside(shape)
            // Collision debug draws every circle, so it goes on past the first collision.
            if grid.collides(shape, mode: overlap) { collided = true; if !debug { break } }
        }
        return !collided && inGrid
    }
}
