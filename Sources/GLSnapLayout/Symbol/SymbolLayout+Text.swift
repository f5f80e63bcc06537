import Foundation
import GLSnapData
import GLSnapStyle

/// A label's text as laid out: its shapings and the ranges of its quads in `SymbolTile.glyphQuads`.
struct ShapedLabel {
    /// The sections shaped (empty: no text).
    var sections: [TextSection]
    var shaping = Shaping(), vertical = Shaping()
    var variableAnchors: [VariableAnchor] = []
    var glyphs: Range<Int>, verticalGlyphs: Range<Int>
    /// See `SymbolInstance.justifiedGlyphs`.
    var justified: [Range<Int>] = []
    /// Line labels: text-offset (24 px units), see `SymbolInstance.lineOffset`.
    var lineOffset = Vec2(0, 0)
    /// text-rotate (radians).
    var rotation = 0.0
}

extension SymbolLayout {
    /// Shapes a label's text (horizontal, once per justification its variable anchors need, and
    /// vertical where it may stand so) and appends its quads to `quads`.
    static func shapeText(_ sections: [TextSection], _ ctx: EvaluationContext, _ p: SymbolLayoutParams, sizes: LabelSizes,
                          provider: SymbolResourceProvider, into quads: inout [GlyphQuad]) -> ShapedLabel {
        let glyphStart = quads.count
        var label = ShapedLabel(sections: sections, glyphs: glyphStart..<glyphStart, verticalGlyphs: glyphStart..<glyphStart)
        guard !sections.isEmpty else { return label }
        var anchor = p.symbol.textAnchor.evaluate(ctx)
        if !p.alongLine, let v = VariableAnchors.anchors(p.symbol, ctx) {
            // Shaped around the center; placement moves it to the anchor it takes.
            label.variableAnchors = v
            anchor = .center
        }
        var justify = p.alongLine ? .center : p.symbol.textJustify.evaluate(ctx)
        let autoJustify = justify == .auto && !label.variableAnchors.isEmpty
        if justify == .auto {
            let h = TextShaper.alignment(label.variableAnchors.first?.anchor ?? anchor).h
            justify = h == 0 ? .left : (h == 1 ? .right : .center)
        }
        let j = justify == .right ? 1.0 : (justify == .left ? 0 : 0.5)
        let offset = label.variableAnchors.isEmpty ? textOffset(p.symbol, ctx, anchor: anchor) : (0, 0)
        if p.alongLine { label.lineOffset = Vec2(offset.0, offset.1) }
        func shape(_ mode: WritingMode, justify: Double, allowVertical: Bool) -> Shaping {
            TextShaper.shape(sections, provider: provider,
                             maxWidth: p.placement == .point ? p.symbol.textMaxWidth.evaluate(ctx) * TextShaper.oneEm : 0,
                             lineHeight: p.symbol.textLineHeight.evaluate(ctx) * TextShaper.oneEm,
                             justify: justify, anchor: anchor,
                             spacing: p.symbol.textLetterSpacing.evaluate(ctx) * TextShaper.oneEm,
                             offset: p.alongLine ? (0, 0) : offset, breakLines: p.placement == .point, writingMode: mode,
                             allowVerticalPlacement: allowVertical, layoutTextSize: sizes.textLayout, textSizeThisZoom: sizes.textThisZoom)
        }
        let rotate = p.symbol.textRotate.evaluate(ctx) * .pi / 180
        label.rotation = rotate
        func append(_ shaping: Shaping, turnLabel: Bool = false) {
            appendGlyphQuads(&quads, shaping, rotate: rotate, alongLine: p.alongLine, offset: offset,
                             allowVerticalPlacement: p.allowVerticalPlacement, turnLabel: turnLabel)
        }
        var shaping = shape(.horizontal, justify: j, allowVertical: false)
        if !shaping.isEmpty {
            append(shaping)
            if quads.count == glyphStart { shaping = Shaping() }
        }
        let horizontalEnd = quads.count
        label.glyphs = glyphStart..<horizontalEnd
        if autoJustify, shaping.lineCount > 1 {
            // One layout per justification the anchors need, the first anchor's being `shaping`'s.
            var ranges = [glyphStart..<glyphStart, glyphStart..<glyphStart, glyphStart..<glyphStart]
            for a in label.variableAnchors {
                let h = TextShaper.alignment(a.anchor).h, k = h == 0 ? 0 : (h == 1 ? 2 : 1)
                guard ranges[k].isEmpty else { continue }
                if h == j { ranges[k] = glyphStart..<horizontalEnd; continue }
                let start = quads.count
                append(shape(.horizontal, justify: h, allowVertical: false))
                ranges[k] = start..<quads.count
            }
            label.justified = ranges
        }
        let verticalStart = quads.count
        // The vertical layout: point labels that text-writing-mode lets stand vertical,
        // line labels kept upright (drawn where the line is steeper than 45°).
        let pointVertical = p.placement == .point && p.allowVerticalPlacement
        let lineVertical = p.alongLine && p.keepUpright
        if !shaping.isEmpty, pointVertical || lineVertical,
           sections.contains(where: { VerticalText.allowsVerticalWritingMode($0.text) }) {
            label.vertical = shape(.vertical, justify: pointVertical ? 0 : j, allowVertical: pointVertical)
            if !label.vertical.isEmpty { append(label.vertical, turnLabel: pointVertical) }
        }
        label.verticalGlyphs = verticalStart..<quads.count
        label.shaping = shaping
        return label
    }

    /// text-offset, or text-radial-offset when set, in 24 px units.
    static func textOffset(_ layer: SymbolLayer, _ ctx: EvaluationContext, anchor: SymbolLayer.Anchor) -> (Double, Double) {
        if layer.textRadialOffset.isSet {
            let r = VariableAnchors.radial(anchor, radius: layer.textRadialOffset.evaluate(ctx) * TextShaper.oneEm)
            return (r.x, r.y)
        }
        let o = layer.textOffset.evaluate(ctx)
        guard o.count == 2 else { return (0, 0) }
        return (o[0] * TextShaper.oneEm, o[1] * TextShaper.oneEm)
    }

    /// text-field as sections, transformed and with font stacks; empty when there is no text.
    /// Images of a `format` are sections of one private-use character with their icon; one the
    /// style lacks is left out with a warning naming the layer and the feature.
    static func textSections(_ layer: StyleLayer, _ symbol: SymbolLayer, _ ctx: EvaluationContext, provider: SymbolResourceProvider,
                             pixelRatio: Double = 1) -> [TextSection] {
        let value = symbol.textField.evaluate(ctx)
        let fonts = symbol.textFont.evaluate(ctx).array?.compactMap(\.string) ?? ["Open Sans Regular", "Arial Unicode MS Regular"]
        let transform = symbol.textTransform.evaluate(ctx)
        var raw: [(String, [String], Double, Color?, Double)] = []
        var images: [Int: IconSlot] = [:]
        switch value {
        case .formatted(let f):
            for s in f.sections {
                let align = s.verticalAlign == "top" ? 0 : (s.verticalAlign == "center" ? 0.5 : 1)
                if let image = s.image {
                    guard !image.name.isEmpty else { continue }
                    guard let slot = provider.icon(name: image.name, params: image.params, iconSize: 1, pixelRatio: pixelRatio) else {
                        provider.warn("layer '\(layer.id)', feature \(featureName(ctx)): image '\(image.name)' in text-field is not in the style; left out")
                        continue
                    }
                    images[raw.count] = slot
                    raw.append(("\u{E000}", [], s.scale ?? 1, nil, align))
                    continue
                }
                let stack = s.fontStack.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? fonts
                raw.append((s.text, stack, s.scale ?? 1, s.textColor, align))
            }
        case .null: return []
        default:
            let s = PropertyValueText.string(value)
            raw.append((s, fonts, 1, nil, 1))
        }
        var total = 0
        var out: [TextSection] = []
        for (k, (text, stack, scale, color, align)) in raw.enumerated() {
            var t = text
            if transform == .uppercase { t = t.uppercased() } else if transform == .lowercase { t = t.lowercased() }
            var cps = images[k] != nil ? [0xE000 + UInt32(out.count % 0x18FF)] : t.unicodeScalars.map(\.value)
            if total + cps.count > maxLabelLength {
                provider.warn("layer '\(layer.id)', feature \(featureName(ctx)): a label of more than \(maxLabelLength) characters was cut")
                cps = Array(cps.prefix(max(0, maxLabelLength - total)))
            }
            total += cps.count
            if !cps.isEmpty {
                out.append(TextSection(text: cps, fonts: stack, scale: scale, color: color, image: images[k], verticalAlign: align))
            }
        }
        return out
    }

    /// A feature as warnings name it: its id, or its index in the tile layer when it has none.
    static func featureName(_ ctx: EvaluationContext) -> String {
        switch ctx.feature?.featureID {
        case .number(let n)?: return n == n.rounded() && abs(n) < 1e15 ? "id \(Int(n))" : "id \(n)"
        case .string(let s)?: return "id '\(s)'"
        default: return "(no id)"
        }
    }
}

/// Text of a non-formatted `text-field` value.
enum PropertyValueText {
    static func string(_ v: Value) -> String {
        switch v {
        case .string(let s): return s
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
        case .bool(let b): return b ? "true" : "false"
        case .image(let i): return i.name
        default: return ""
        }
    }
}
