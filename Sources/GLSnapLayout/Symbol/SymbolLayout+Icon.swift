import Foundation
import GLSnapData
import GLSnapStyle

extension SymbolLayout {
    /// The icon of a label, fitted to its text with icon-text-fit; nil without one.
    static func icon(_ ctx: EvaluationContext, _ p: SymbolLayoutParams, text: Shaping, textLayoutSize: Double,
                     provider: SymbolResourceProvider, pixelRatio: Double) -> IconQuad? {
        guard let (quad, slot) = iconQuad(p.symbol, ctx, provider: provider, pixelRatio: pixelRatio) else { return nil }
        guard p.fit != .none, !text.isEmpty else { return quad }
        return fitted(quad, slot: slot, p.symbol, ctx, text: text, fit: p.fit, fontScale: textLayoutSize / TextShaper.oneEm)
    }

    /// The icon of a label's vertical layout (text-writing-mode vertical, point placement):
    /// fitted to the vertical text as it is laid out (along x) and turned a quarter clockwise with
    /// it, as MapLibre fits a second icon to the vertical shaping. Nil without icon-text-fit.
    static func verticalIcon(_ ctx: EvaluationContext, _ p: SymbolLayoutParams, vertical: Shaping, textLayoutSize: Double,
                             provider: SymbolResourceProvider, pixelRatio: Double) -> IconQuad? {
        guard p.fit != .none, p.placement == .point, !vertical.isEmpty,
              let (quad, slot) = iconQuad(p.symbol, ctx, provider: provider, pixelRatio: pixelRatio) else { return nil }
        var icon = fitted(quad, slot: slot, p.symbol, ctx, text: vertical, fit: p.fit, fontScale: textLayoutSize / TextShaper.oneEm)
        func turn(_ v: Vec2) -> Vec2 { Vec2(-v.y, v.x) }
        (icon.tl, icon.tr, icon.bl, icon.br) = (turn(icon.tl), turn(icon.tr), turn(icon.bl), turn(icon.br))
        icon.box = icon.box.turnedQuarterClockwise
        icon.collision = icon.collision.turnedQuarterClockwise
        for i in icon.parts.indices { icon.parts[i].turned = true }
        return icon
    }

    /// A label's icon at icon-size 1 around the anchor (icon-anchor, icon-offset and icon-rotate
    /// applied) and its image's slot; nil without an image, when the style lacks it, or at size 0.
    static func iconQuad(_ layer: SymbolLayer, _ ctx: EvaluationContext, provider: SymbolResourceProvider,
                         pixelRatio: Double) -> (IconQuad, IconSlot)? {
        var ctx = ctx
        // Which images exist matters only to an expression (`coalesce` of images).
        if layer.iconImage.value.constantValue == nil { ctx.availableImages = provider.availableImages(pixelRatio: pixelRatio) }
        let value = layer.iconImage.evaluate(ctx)
        var name = "", params: [String: Color] = [:]
        switch value {
        case .image(let img): name = img.name; params = img.params
        case .string(let s): name = s
        default: return nil
        }
        guard !name.isEmpty else { return nil }
        let size = layer.iconSize.evaluate(ctx)
        guard size > 0, let slot = provider.icon(name: name, params: params, iconSize: size, pixelRatio: pixelRatio) else { return nil }
        let (h, v) = TextShaper.alignment(layer.iconAnchor.evaluate(ctx))
        let o = layer.iconOffset.evaluate(ctx)
        let dx = o.count == 2 ? o[0] : 0, dy = o.count == 2 ? o[1] : 0
        let (w, hgt) = slot.displaySize
        let x1 = dx - w * h, y1 = dy - hgt * v
        let x2 = x1 + w, y2 = y1 + hgt
        let angle = layer.iconRotate.evaluate(ctx) * .pi / 180
        var tl = Vec2(x1, y1), tr = Vec2(x2, y1), bl = Vec2(x1, y2), br = Vec2(x2, y2)
        if angle != 0 {
            let c = cos(angle), s = sin(angle)
            func r(_ p: Vec2) -> Vec2 { Vec2(c * p.x - s * p.y, s * p.x + c * p.y) }
            tl = r(tl); tr = r(tr); bl = r(bl); br = r(br)
        }
        var quad = IconQuad(tl: tl, tr: tr, bl: bl, br: br, tex: slot.rect, sdf: slot.sdf, box: Rect(minX: x1, minY: y1, maxX: x2, maxY: y2),
                            resampled: abs(slot.pixelRatio - pixelRatio) > 1e-9)
        quad.collision = quad.box
        quad.offsetX = dx
        quad.offsetY = dy
        quad.turn = angle
        if !layer.iconPadding.isFeatureConstant { quad.padding = SymbolPlacement.paddingMargins(layer.iconPadding.evaluate(ctx)) }
        return (quad, slot)
    }

    /// An icon with icon-text-fit: its box fitted around the shaped text (at the layout text
    /// size, icon-offset added) and cut along the image's stretch zones; its collision box grown
    /// by the content box's margins and kept to the content's aspect ratio where the image asks.
    static func fitted(_ quad: IconQuad, slot: IconSlot, _ layer: SymbolLayer, _ ctx: EvaluationContext, text: Shaping,
                       fit: SymbolLayer.IconTextFit, fontScale: Double) -> IconQuad {
        let o = layer.iconOffset.evaluate(ctx)
        let box = IconTextFit.fit(displaySize: slot.displaySize, text: text.box,
                                  mode: fit, padding: layer.iconTextFitPadding.evaluate(ctx),
                                  offset: o.count == 2 ? (o[0], o[1]) : (0, 0), fontScale: fontScale)
        var drawn = box
        if let content = slot.content, slot.textFitWidth != nil || slot.textFitHeight != nil {
            drawn = IconTextFit.applyTextFit(box, content: content, width: slot.textFitWidth ?? .stretchOrShrink,
                                             height: slot.textFitHeight ?? .stretchOrShrink)
        }
        let angle = layer.iconRotate.evaluate(ctx) * .pi / 180
        var out = quad
        out.box = box
        (out.tl, out.tr, out.bl, out.br) = box.corners
        out.parts = IconTextFit.parts(box: drawn, slot: slot, fitted: true, rotate: angle)
        out.collision = IconTextFit.collisionPadding(slot).map { drawn.outset(by: $0) } ?? drawn
        return out
    }
}
