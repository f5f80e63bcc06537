import Foundation
import GLSnapData
import GLSnapStyle

/// One textured piece of a stretched icon. Its corners are `tl`… scaled by the icon size, plus the
/// unscaled `pixelTL` / `pixelBR` (the fixed, unstretched parts): MapLibre's a_offset and
/// a_pixeloffset.
struct IconPart: Sendable {
    var tl: Vec2, tr: Vec2, bl: Vec2, br: Vec2
    var pixelTL: Vec2, pixelBR: Vec2
    /// Texels in the icon atlas (fractional where a stretch zone is).
    var u0: Float, v0: Float, u1: Float, v1: Float
    /// The scaled part is never scaled below these (so that a shrunk icon keeps its fixed parts).
    var minScaleX: Double, minScaleY: Double
    /// Turned a quarter clockwise about the anchor once sized: the icon of a vertical label,
    /// fitted to its text laid out along x and turned with it.
    var turned = false

    /// The part as GL JS's vertices carry it: corner offsets in 1/32 px, pixel offsets in 1/16 px
    /// and the minimum scales in 1/256 (its Int16 `a_offset`, `a_pixeloffset`, `a_minFontScale`).
    /// Pieces meeting at one cut then share its edge exactly, so none is a pixel taller than its
    /// neighbours where the edge falls on a pixel center.
    var quantized: IconPart {
        func q(_ v: Double, _ steps: Double) -> Double { (v * steps).rounded() / steps }
        func q(_ p: Vec2, _ steps: Double) -> Vec2 { Vec2(q(p.x, steps), q(p.y, steps)) }
        var out = self
        (out.tl, out.tr, out.bl, out.br) = (q(tl, 32), q(tr, 32), q(bl, 32), q(br, 32))
        (out.pixelTL, out.pixelBR) = (q(pixelTL, 16), q(pixelBR, 16))
        (out.minScaleX, out.minScaleY) = (q(minScaleX, 256), q(minScaleY, 256))
        return out
    }

    /// The four corners (tl, tr, bl, br) at icon size `size`, in CSS pixels.
    func corners(size: Double) -> (Vec2, Vec2, Vec2, Vec2) {
        let sx = max(minScaleX, size), sy = max(minScaleY, size)
        let c = (Vec2(tl.x * sx + pixelTL.x, tl.y * sy + pixelTL.y), Vec2(tr.x * sx + pixelBR.x, tr.y * sy + pixelTL.y),
                 Vec2(bl.x * sx + pixelTL.x, bl.y * sy + pixelBR.y), Vec2(br.x * sx + pixelBR.x, br.y * sy + pixelBR.y))
        guard turned else { return c }
        func turn(_ p: Vec2) -> Vec2 { Vec2(-p.y, p.x) }
        return (turn(c.0), turn(c.1), turn(c.2), turn(c.3))
    }
}

/// icon-text-fit as MapLibre does it: the icon's box fitted around its text, and the image cut
/// along its stretch zones into pieces that stretch (the zones) and pieces that keep their size.
///
///     stretchX [[10, 30]] on a 40 px image, fitted to a 100 px box:
///     |fixed 10|     stretched 20 -> 80      |fixed 10|
enum IconTextFit {
    /// The image pixels the atlas keeps around each image (its padding), which the quads reach
    /// into so that edges are not clipped.
    static let border = 1.0

    /// The icon's box fitted to the text box `text` (24 px units, scaled by `fontScale`), moved by
    /// `offset` (icon-offset) and grown by `padding` (icon-text-fit-padding: top, right, bottom,
    /// left). An axis not fitted keeps the image's size, centered on the text.
    static func fit(displaySize: (w: Double, h: Double), text: Rect, mode: SymbolLayer.IconTextFit, padding: [Double],
                    offset: (Double, Double), fontScale: Double) -> Rect {
        let p = padding.count == 4 ? padding : [0, 0, 0, 0]
        let l = text.minX * fontScale, r = text.maxX * fontScale, t = text.minY * fontScale, b = text.maxY * fontScale
        var box = Rect.zero
        if mode == .width || mode == .both {
            box.minX = offset.0 + l - p[3]; box.maxX = offset.0 + r + p[1]
        } else {
            box.minX = offset.0 + (l + r - displaySize.w) / 2; box.maxX = box.minX + displaySize.w
        }
        if mode == .height || mode == .both {
            box.minY = offset.1 + t - p[0]; box.maxY = offset.1 + b + p[2]
        } else {
            box.minY = offset.1 + (t + b - displaySize.h) / 2; box.maxY = box.minY + displaySize.h
        }
        return box
    }

    /// The margins (CSS px, as `Rect.outset(by:)` takes them) between a fitted image's content box
    /// and its edges: the collision box grows by them, since the text fills only the content box.
    static func collisionPadding(_ slot: IconSlot) -> Rect? {
        guard let c = slot.content, c.count == 4 else { return nil }
        let size = slot.displaySize, r = slot.pixelRatio * slot.baseScale
        return Rect(minX: c[0] / r, minY: c[1] / r, maxX: size.w - c[2] / r, maxY: size.h - c[3] / r)
    }

    /// MapLibre's applyTextFit: with `proportional` on an axis, the fitted box is widened (or made
    /// taller) back to the content box's aspect ratio; `stretchOnly` on the other axis limits
    /// that to growing. Other combinations leave the box as it is.
    static func applyTextFit(_ box: Rect, content: [Double], width fitW: TextFit, height fitH: TextFit) -> Rect {
        guard content.count == 4 else { return box }
        let contentW = content[2] - content[0], contentH = content[3] - content[1]
        guard contentW > 0, contentH > 0 else { return box }
        let aspect = contentW / contentH
        var left = box.minX, top = box.minY, w = box.width, h = box.height
        guard w > 0, h > 0 else { return box }
        if fitH == .proportional {
            if (fitW == .stretchOnly && w / h < aspect) || fitW == .proportional {
                let newW = (h * aspect).rounded(.up)
                left *= newW / w; w = newW
            }
        } else if fitW == .proportional {
            if fitH == .stretchOnly && w / h > aspect {
                let newH = (w / aspect).rounded(.up)
                top *= newH / h; h = newH
            }
        }
        return Rect(minX: left, minY: top, maxX: left + w, maxY: top + h)
    }

    /// Where a cut falls: `fixed` image pixels of unstretched parts plus `stretch` pixels of zones.
    struct Cut: Equatable { var fixed: Double; var stretch: Double }

    /// The cuts along one axis of an image `size` pixels long: around every zone, plus the two
    /// outer edges (a border pixel beyond the image).
    static func cuts(_ zones: [ClosedRange<Double>], size: Double) -> [Cut] {
        let stretchSize = zones.reduce(0) { $0 + $1.upperBound - $1.lowerBound }
        var cuts = [Cut(fixed: -border, stretch: 0)]
        for z in zones {
            let last = cuts[cuts.count - 1]
            cuts.append(Cut(fixed: z.lowerBound - last.stretch, stretch: last.stretch))
            cuts.append(Cut(fixed: z.lowerBound - last.stretch, stretch: last.stretch + z.upperBound - z.lowerBound))
        }
        cuts.append(Cut(fixed: size - stretchSize + border, stretch: stretchSize))
        return cuts
    }

    /// The length of `zones` inside [lo, hi].
    static func sum(_ zones: [ClosedRange<Double>], within lo: Double, _ hi: Double) -> Double {
        zones.reduce(0) { s, z in s + max(lo, min(hi, z.upperBound)) - max(lo, min(hi, z.lowerBound)) }
    }

    /// Zones fit for cutting: inside the image, in order, not overlapping, of positive total
    /// length; nil when there are none such (the axis then stretches as a whole).
    static func usableZones(_ zones: [ClosedRange<Double>], size: Double) -> [ClosedRange<Double>]? {
        var out: [ClosedRange<Double>] = []
        var end = 0.0
        for z in zones {
            guard z.lowerBound.isFinite, z.upperBound.isFinite, z.lowerBound >= end, z.upperBound <= size else { return nil }
            if z.upperBound > z.lowerBound { out.append(z) }
            end = z.upperBound
        }
        return out.isEmpty ? nil : out
    }

    /// The textured pieces of an icon drawn in `box` (CSS px): one piece, or with icon-text-fit
    /// and stretch zones, one per pair of cuts on each axis (nine for a zone on each axis).
    /// `rotate` is icon-rotate in radians (applied to the scaled part only, as MapLibre does).
    static func parts(box: Rect, slot: IconSlot, fitted: Bool, rotate: Double) -> [IconPart] {
        let ratio = slot.pixelRatio * slot.baseScale
        let imageW = Double(slot.rect.w), imageH = Double(slot.rect.h)
        let zonesX = fitted ? usableZones(slot.stretchX, size: imageW) : nil
        let zonesY = fitted ? usableZones(slot.stretchY, size: imageH) : nil
        let stretchX = zonesX ?? [0...imageW], stretchY = zonesY ?? [0...imageH]
        let stretchW = sum(stretchX, within: 0, imageW), stretchH = sum(stretchY, within: 0, imageH)
        let fixedW = imageW - stretchW, fixedH = imageH - stretchH
        var offX = 0.0, offY = 0.0, contentStretchW = stretchW, contentStretchH = stretchH
        var fixedOffX = 0.0, fixedOffY = 0.0, contentFixedW = fixedW, contentFixedH = fixedH
        if fitted, let c = slot.content, c.count == 4, c[2] > c[0], c[3] > c[1] {
            offX = sum(stretchX, within: 0, c[0]); offY = sum(stretchY, within: 0, c[1])
            let sw = sum(stretchX, within: c[0], c[2]), sh = sum(stretchY, within: c[1], c[3])
            if sw > 0 { contentStretchW = sw }
            if sh > 0 { contentStretchH = sh }
            fixedOffX = c[0] - offX; fixedOffY = c[1] - offY
            contentFixedW = c[2] - c[0] - contentStretchW; contentFixedH = c[3] - c[1] - contentStretchH
        }
        let iconW = box.width, iconH = box.height
        let c = cos(rotate), s = sin(rotate)
        func piece(_ left: Cut, _ top: Cut, _ right: Cut, _ bottom: Cut) -> IconPart {
            func em(_ stretch: Double, _ off: Double, _ size: Double, _ length: Double, _ origin: Double) -> Double {
                (stretch - off) / size * length + origin
            }
            func px(_ fixed: Double, _ off: Double, _ fixedSize: Double, _ stretch: Double, _ stretchSize: Double) -> Double {
                ((fixed - off) - fixedSize * stretch / stretchSize) / ratio
            }
            let l = em(left.stretch, offX, contentStretchW, iconW, box.minX), r = em(right.stretch, offX, contentStretchW, iconW, box.minX)
            let t = em(top.stretch, offY, contentStretchH, iconH, box.minY), b = em(bottom.stretch, offY, contentStretchH, iconH, box.minY)
            var tl = Vec2(l, t), tr = Vec2(r, t), bl = Vec2(l, b), br = Vec2(r, b)
            if rotate != 0 {
                func rot(_ p: Vec2) -> Vec2 { Vec2(c * p.x - s * p.y, s * p.x + c * p.y) }
                tl = rot(tl); tr = rot(tr); bl = rot(bl); br = rot(br)
            }
            let pixelTL = Vec2(px(left.fixed, fixedOffX, contentFixedW, left.stretch, stretchW),
                               px(top.fixed, fixedOffY, contentFixedH, top.stretch, stretchH))
            let pixelBR = Vec2(px(right.fixed, fixedOffX, contentFixedW, right.stretch, stretchW),
                               px(bottom.fixed, fixedOffY, contentFixedH, bottom.stretch, stretchH))
            let x1 = left.stretch + left.fixed, x2 = right.stretch + right.fixed
            let y1 = top.stretch + top.fixed, y2 = bottom.stretch + bottom.fixed
            return IconPart(tl: tl, tr: tr, bl: bl, br: br, pixelTL: pixelTL, pixelBR: pixelBR,
                            u0: Float(Double(slot.rect.x) + x1), v0: Float(Double(slot.rect.y) + y1),
                            u1: Float(Double(slot.rect.x) + x2), v1: Float(Double(slot.rect.y) + y2),
                            minScaleX: iconW > 0 ? contentFixedW / ratio / iconW : 0,
                            minScaleY: iconH > 0 ? contentFixedH / ratio / iconH : 0).quantized
        }
        guard zonesX != nil || zonesY != nil else {
            return [piece(Cut(fixed: 0, stretch: -border), Cut(fixed: 0, stretch: -border),
                          Cut(fixed: 0, stretch: imageW + border), Cut(fixed: 0, stretch: imageH + border))]
        }
        let xs = cuts(stretchX, size: imageW), ys = cuts(stretchY, size: imageH)
        var out: [IconPart] = []
        out.reserveCapacity((xs.count - 1) * (ys.count - 1))
        for i in 0..<(xs.count - 1) {
            for j in 0..<(ys.count - 1) { out.append(piece(xs[i], ys[j], xs[i + 1], ys[j + 1])) }
        }
        return out
    }
}
