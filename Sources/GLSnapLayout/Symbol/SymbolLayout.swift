import Foundation
import GLSnapData
import GLSnapStyle

/// Lays out a symbol layer's labels in one tile: text shaping, icons, anchors (points, pole of
/// inaccessibility, along lines). Layout properties are evaluated at the tile's zoom.
public enum SymbolLayout {
    /// The most code points of one label; longer text is cut with a warning.
    public static let maxLabelLength = 1000
    /// The most symbols of one layer in one tile.
    public static let maxInstances = 100_000

    public static func build(layer: StyleLayer, from source: VectorLayer, zoom: Double, canonical: TileID,
                             provider: SymbolResourceProvider, pixelRatio: Double) -> SymbolTile? {
        let features = BucketBuilder.selectFeatures(layer: layer, from: source, zoom: zoom, canonical: canonical)
        guard !features.isEmpty else { return nil }
        var tile = SymbolTile()
        tile.features = features
        var ctx = EvaluationContext(zoom: zoom)
        let extent = Double(TileExtent.extent)
        let overscaling = max(1, exp2(zoom - Double(canonical.z)))
        let tilePixelRatio = extent / (512 * overscaling)
        tile.tilePixelRatio = tilePixelRatio
        let hasTextField = layer.hasValue("text-field", kind: .layout)
        let hasIcon = layer.hasValue("icon-image", kind: .layout)
        let sortKeyValue = layer.hasValue("symbol-sort-key", kind: .layout) ? layer.layout("symbol-sort-key") : nil
        tile.placement = layer.layout("symbol-placement").evaluateString(ctx)
        let sortByKey = sortKeyValue != nil && layer.layout("symbol-z-order").evaluateString(ctx) != "viewport-y"
        let alongLine = tile.placement != "point" && layer.layout("text-rotation-alignment").evaluateString(ctx) != "viewport"
        let keepUpright = layer.layout("text-keep-upright").evaluateBool(ctx)
        let writingValues = layer.hasValue("text-writing-mode", kind: .layout)
            ? layer.layout("text-writing-mode").evaluate(ctx).array?.compactMap(\.string) : nil
        tile.writingModes = WritingMode.modes(writingValues, placement: tile.placement)
        let allowVerticalPlacement = tile.writingModes.contains(.vertical)
        // Text and geometry of every feature, in MapLibre's order: by sort key (a feature goes
        // before earlier ones of the same key), then lines of one label merged end to end.
        var texts: [[TextSection]] = [], lines: [[[Vec2]]] = [], keys: [Double] = []
        for feature in features {
            ctx.feature = feature
            texts.append(hasTextField ? textSections(layer, ctx, provider: provider, pixelRatio: pixelRatio) : [])
            let key = sortKeyValue?.evaluateNumber(ctx) ?? 0
            keys.append(key.isNaN ? 0 : key)
            lines.append(feature.geometryType == .polygon ? [] : TileExtent.scale(feature.geometry, fromExtent: source.extent).map { $0.map(Vec2.init) })
        }
        var order = Array(features.indices)
        if sortByKey { order.sort { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 > $1 } }
        let rawTexts = texts.map { $0.isEmpty ? nil : String(String.UnicodeScalarView($0.flatMap(\.text).compactMap(Unicode.Scalar.init))) }
        if tile.placement == "line" {
            var ordered = order.map { lines[$0] }
            SymbolLines.merge(&ordered, keys: order.map { rawTexts[$0] })
            for (k, fi) in order.enumerated() { lines[fi] = ordered[k] }
        }
        let spacing = layer.layout("symbol-spacing").evaluateNumber(ctx) * tilePixelRatio
        var placedAnchors: [String: [Vec2]] = [:]
        // Looked up once per layer, evaluated per feature.
        let textSizeValue = layer.layout("text-size"), iconSizeValue = layer.layout("icon-size")
        let anchorValue = layer.layout("text-anchor"), justifyValue = layer.layout("text-justify")
        let maxWidthValue = layer.layout("text-max-width"), lineHeightValue = layer.layout("text-line-height")
        let letterSpacingValue = layer.layout("text-letter-spacing"), rotateValue = layer.layout("text-rotate")
        let paddingValue = layer.layout("text-padding")
        let fit = hasIcon ? layer.layout("icon-text-fit").evaluateString(ctx) : "none"
        for fi in order {
            guard tile.instances.count < maxInstances else { break }
            let feature = features[fi]
            ctx.feature = feature
            // MapLibre evaluates sizes at zoom + 1 (and 18 for anchor spacing), but a size that does not
            // depend on the feature was already fixed at the tile's zoom, so it stays that value.
            func size(_ v: PropertyValue, _ z: Double, _ fallback: Double) -> Double {
                v.evaluate(EvaluationContext(zoom: v.isFeatureConstant ? zoom : z, feature: feature)).number ?? fallback
            }
            let textLayoutSize = size(textSizeValue, zoom + 1, 16)
            let iconLayoutSize = size(iconSizeValue, zoom + 1, 1)
            let textMaxSize = size(textSizeValue, 18, 16)
            // Text.
            let glyphStart = tile.glyphQuads.count
            var horizontalEnd = glyphStart, verticalStart = glyphStart
            var autoJustify = false, justified: [Range<Int>] = []
            let sections = textLayoutSize > 0 ? texts[fi] : []
            var shaping = Shaping(), verticalShaping = Shaping()
            var variableAnchors: [VariableAnchor] = []
            if !sections.isEmpty {
                var anchor = anchorValue.evaluateString(ctx)
                if !alongLine, let v = VariableAnchors.anchors(layer, ctx) {
                    // Shaped around the center; placement moves it to the anchor it takes.
                    variableAnchors = v
                    anchor = "center"
                }
                var justify = alongLine ? "center" : justifyValue.evaluateString(ctx)
                autoJustify = justify == "auto" && !variableAnchors.isEmpty
                if justify == "auto" {
                    let h = TextShaper.alignment(variableAnchors.first?.anchor ?? anchor).h
                    justify = h == 0 ? "left" : (h == 1 ? "right" : "center")
                }
                let j = justify == "right" ? 1.0 : (justify == "left" ? 0 : 0.5)
                let offset = variableAnchors.isEmpty ? textOffset(layer, ctx, anchor: anchor) : (0, 0)
                let thisZoomSize = size(textSizeValue, zoom, 16)
                func shape(_ mode: WritingMode, justify: Double, allowVertical: Bool) -> Shaping {
                    TextShaper.shape(sections, provider: provider,
                                     maxWidth: tile.placement == "point" ? maxWidthValue.evaluateNumber(ctx) * TextShaper.oneEm : 0,
                                     lineHeight: lineHeightValue.evaluateNumber(ctx) * TextShaper.oneEm,
                                     justify: justify, anchor: anchor,
                                     spacing: letterSpacingValue.evaluateNumber(ctx) * TextShaper.oneEm,
                                     offset: alongLine ? (0, 0) : offset, breakLines: tile.placement == "point", writingMode: mode,
                                     allowVerticalPlacement: allowVertical, layoutTextSize: textLayoutSize, textSizeThisZoom: thisZoomSize)
                }
                let rotate = rotateValue.evaluateNumber(ctx) * .pi / 180
                shaping = shape(.horizontal, justify: j, allowVertical: false)
                if !shaping.isEmpty {
                    appendGlyphQuads(&tile.glyphQuads, shaping, rotate: rotate, alongLine: alongLine, offset: offset,
                                     allowVerticalPlacement: allowVerticalPlacement)
                    if tile.glyphQuads.count == glyphStart { shaping = Shaping() }
                }
                horizontalEnd = tile.glyphQuads.count
                if autoJustify, shaping.lineCount > 1 {
                    // One layout per justification the anchors need, the first anchor's being `shaping`'s.
                    var ranges = [glyphStart..<glyphStart, glyphStart..<glyphStart, glyphStart..<glyphStart]
                    for a in variableAnchors {
                        let h = TextShaper.alignment(a.anchor).h, k = h == 0 ? 0 : (h == 1 ? 2 : 1)
                        guard ranges[k].isEmpty else { continue }
                        if h == j { ranges[k] = glyphStart..<horizontalEnd; continue }
                        let start = tile.glyphQuads.count
                        appendGlyphQuads(&tile.glyphQuads, shape(.horizontal, justify: h, allowVertical: false), rotate: rotate,
                                         alongLine: alongLine, offset: offset, allowVerticalPlacement: allowVerticalPlacement)
                        ranges[k] = start..<tile.glyphQuads.count
                    }
                    justified = ranges
                }
                verticalStart = tile.glyphQuads.count
                // The vertical layout: point labels that text-writing-mode lets stand vertical,
                // line labels kept upright (drawn where the line is steeper than 45°).
                let pointVertical = tile.placement == "point" && allowVerticalPlacement
                let lineVertical = alongLine && keepUpright
                if !shaping.isEmpty, pointVertical || lineVertical,
                   sections.contains(where: { VerticalText.allowsVerticalWritingMode($0.text) }) {
                    verticalShaping = shape(.vertical, justify: pointVertical ? 0 : j, allowVertical: pointVertical)
                    if !verticalShaping.isEmpty {
                        appendGlyphQuads(&tile.glyphQuads, verticalShaping, rotate: rotate, alongLine: alongLine, offset: offset,
                                         allowVerticalPlacement: allowVerticalPlacement, turnLabel: pointVertical)
                    }
                }
            }
            // Icon.
            var icon: IconQuad?
            if hasIcon, let (quad, slot) = iconQuad(layer, ctx, provider: provider, pixelRatio: pixelRatio) {
                icon = quad
                if fit != "none", !shaping.isEmpty {
                    icon = fitted(quad, slot: slot, layer, ctx, text: shaping, fit: fit, fontScale: textLayoutSize / TextShaper.oneEm)
                }
            }
            guard !shaping.isEmpty || icon != nil else { continue }
            let glyphs = glyphStart..<horizontalEnd
            let verticalGlyphs = verticalStart..<tile.glyphQuads.count
            let sectionIndex = tile.sections.count
            tile.sections.append(sections)
            let box = (shaping.left, shaping.top, shaping.right, shaping.bottom)
            let verticalBox = tile.placement == "point"
                ? turnedBox((verticalShaping.left, verticalShaping.top, verticalShaping.right, verticalShaping.bottom)) : box
            let sortKey = keys[fi]
            let textBoxScale = tilePixelRatio * textLayoutSize / TextShaper.oneEm
            let textPadding = paddingValue.evaluateNumber(ctx) * tilePixelRatio
            func add(_ anchor: Vec2, line: Int, segment: Int) {
                var inst = SymbolInstance(feature: fi, anchor: anchor, line: line, segment: segment, glyphs: glyphs, text: sectionIndex,
                                          textBox: box, icon: icon, sortKey: sortKey, textLayoutSize: textLayoutSize,
                                          iconLayoutSize: iconLayoutSize)
                inst.variableAnchors = variableAnchors
                inst.verticalGlyphs = verticalGlyphs
                inst.justifiedGlyphs = justified
                inst.verticalTextBox = verticalBox
                if line >= 0, alongLine, !shaping.isEmpty {
                    // MapLibre's text collision circles along the line.
                    let height = (shaping.bottom - shaping.top) * textBoxScale + 2 * textPadding
                    let length = (shaping.right - shaping.left) * textBoxScale + 2 * textPadding
                    if height > 0 {
                        let size = max(10 * textBoxScale, height)
                        let start = tile.circles.count
                        SymbolAnchors.collisionCircles(tile.lines[line], anchor: anchor, segment: segment, labelLength: length,
                                                       boxSize: size, overscaling: overscaling, into: &tile.circles)
                        inst.circles = start..<tile.circles.count
                        inst.circleRadius = size / 2
                    }
                }
                tile.instances.append(inst)
            }
            if tile.placement == "point" {
                switch feature.geometryType {
                case .point:
                    for part in lines[fi] { for p in part where inside(p, extent) { add(p, line: -1, segment: 0) } }
                case .polygon:
                    let geometry = TileExtent.scale(feature.geometry, fromExtent: source.extent)
                    for polygon in classifyRings(geometry) {
                        let rings = polygon.map { $0.map(Vec2.init) }
                        let pole = SymbolAnchors.poleOfInaccessibility(rings, precision: extent / 512)
                        if inside(pole, extent) { add(pole, line: -1, segment: 0) }
                    }
                case .lineString:
                    for line in lines[fi] { if let p = line.first, inside(p, extent) { add(p, line: -1, segment: 0) } }
                default: break
                }
                continue
            }
            let textMaxBoxScale = tilePixelRatio * textMaxSize / TextShaper.oneEm
            let anchorShaping = verticalShaping.isEmpty ? shaping : verticalShaping
            let labelLength = max(anchorShaping.isEmpty ? 0 : anchorShaping.right - anchorShaping.left, icon.map { $0.box.2 - $0.box.0 } ?? 0)
            let maxAngle = layer.layout("text-max-angle").evaluateNumber(ctx) * .pi / 180
            let geometry: [[Vec2]]
            if feature.geometryType == .polygon {
                geometry = TileExtent.scale(feature.geometry, fromExtent: source.extent).map { $0.map(Vec2.init) }
            } else if feature.geometryType == .lineString {
                geometry = lines[fi]
            } else { continue }
            if tile.placement == "line-center" {
                for line in geometry where line.count >= 2 {
                    let window = shaping.isEmpty ? 0 : 3.0 / 5.0 * TextShaper.oneEm * textMaxBoxScale
                    guard let a = SymbolAnchors.center(line, labelLength: labelLength * textMaxBoxScale, angleWindow: window,
                                                       maxAngle: maxAngle) else { continue }
                    tile.lines.append(line)
                    add(a.point, line: tile.lines.count - 1, segment: a.segment)
                }
                continue
            }
            let text = rawTexts[fi]
            for line in SymbolLines.clip(geometry, extent: extent) where line.count >= 2 {
                let anchors = SymbolAnchors.along(line, spacing: spacing, maxAngle: maxAngle, labelLength: labelLength,
                                                  glyphSize: TextShaper.oneEm, hasText: !shaping.isEmpty, boxScale: textMaxBoxScale,
                                                  overscaling: overscaling, extent: extent)
                guard !anchors.isEmpty else { continue }
                let lineIndex = tile.lines.count
                tile.lines.append(line)
                for a in anchors {
                    // A label repeated closer than half the spacing is dropped (MapLibre's anchorIsTooClose).
                    if let text, !shaping.isEmpty {
                        if placedAnchors[text, default: []].contains(where: { $0.dist(a.point) < spacing / 2 }) { continue }
                        placedAnchors[text, default: []].append(a.point)
                    }
                    add(a.point, line: lineIndex, segment: a.segment)
                }
            }
        }
        return tile.isEmpty ? nil : tile
    }

    private static func inside(_ p: Vec2, _ extent: Double) -> Bool {
        p.x >= 0 && p.x < extent && p.y >= 0 && p.y < extent
    }

    /// text-offset, or text-radial-offset when set, in 24 px units.
    static func textOffset(_ layer: StyleLayer, _ ctx: EvaluationContext, anchor: String) -> (Double, Double) {
        if layer.hasValue("text-radial-offset", kind: .layout) {
            let r = VariableAnchors.radial(anchor, radius: layer.layout("text-radial-offset").evaluateNumber(ctx) * TextShaper.oneEm)
            return (r.x, r.y)
        }
        let o = layer.layout("text-offset").evaluateNumbers(ctx)
        guard o.count == 2 else { return (0, 0) }
        return (o[0] * TextShaper.oneEm, o[1] * TextShaper.oneEm)
    }

    /// text-field as sections, transformed and with font stacks; empty when there is no text.
    /// Images of a `format` are sections of one private-use character with their icon; one the
    /// style lacks is left out with a warning naming the layer and the feature.
    static func textSections(_ layer: StyleLayer, _ ctx: EvaluationContext, provider: SymbolResourceProvider,
                             pixelRatio: Double = 1) -> [TextSection] {
        let value = layer.layout("text-field").evaluate(ctx)
        let fonts = layer.layout("text-font").evaluate(ctx).array?.compactMap(\.string) ?? ["Open Sans Regular", "Arial Unicode MS Regular"]
        let transform = layer.layout("text-transform").evaluateString(ctx)
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
            if transform == "uppercase" { t = t.uppercased() } else if transform == "lowercase" { t = t.lowercased() }
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

    static func iconQuad(_ layer: StyleLayer, _ ctx: EvaluationContext, provider: SymbolResourceProvider,
                         pixelRatio: Double) -> (IconQuad, IconSlot)? {
        let value = layer.layout("icon-image").evaluate(ctx)
        var name = "", params: [String: Color] = [:]
        switch value {
        case .image(let img): name = img.name; params = img.params
        case .string(let s): name = s
        default: return nil
        }
        guard !name.isEmpty else { return nil }
        let size = layer.layout("icon-size").evaluateNumber(ctx)
        guard size > 0, let slot = provider.icon(name: name, params: params, iconSize: size, pixelRatio: pixelRatio) else { return nil }
        let (h, v) = TextShaper.alignment(layer.layout("icon-anchor").evaluateString(ctx))
        let o = layer.layout("icon-offset").evaluateNumbers(ctx)
        let dx = o.count == 2 ? o[0] : 0, dy = o.count == 2 ? o[1] : 0
        let (w, hgt) = slot.displaySize
        let x1 = dx - w * h, y1 = dy - hgt * v
        let x2 = x1 + w, y2 = y1 + hgt
        let angle = layer.layout("icon-rotate").evaluateNumber(ctx) * .pi / 180
        var tl = Vec2(x1, y1), tr = Vec2(x2, y1), bl = Vec2(x1, y2), br = Vec2(x2, y2)
        if angle != 0 {
            let c = cos(angle), s = sin(angle)
            func r(_ p: Vec2) -> Vec2 { Vec2(c * p.x - s * p.y, s * p.x + c * p.y) }
            tl = r(tl); tr = r(tr); bl = r(bl); br = r(br)
        }
        var quad = IconQuad(tl: tl, tr: tr, bl: bl, br: br, tex: slot.rect, sdf: slot.sdf, box: (x1, y1, x2, y2),
                            resampled: abs(slot.pixelRatio - pixelRatio) > 1e-9)
        quad.collision = quad.box
        return (quad, slot)
    }

    /// An icon with icon-text-fit: its box fitted around the shaped text (at the layout text
    /// size, icon-offset added) and cut along the image's stretch zones; its collision box grown
    /// by the content box's margins and kept to the content's aspect ratio where the image asks.
    static func fitted(_ quad: IconQuad, slot: IconSlot, _ layer: StyleLayer, _ ctx: EvaluationContext, text: Shaping,
                       fit: String, fontScale: Double) -> IconQuad {
        let o = layer.layout("icon-offset").evaluateNumbers(ctx)
        let box = IconTextFit.fit(displaySize: slot.displaySize, text: IconBox(x1: text.left, y1: text.top, x2: text.right, y2: text.bottom),
                                  mode: fit, padding: layer.layout("icon-text-fit-padding").evaluateNumbers(ctx),
                                  offset: o.count == 2 ? (o[0], o[1]) : (0, 0), fontScale: fontScale)
        var drawn = box
        if let content = slot.content, slot.textFitWidth != nil || slot.textFitHeight != nil {
            drawn = IconTextFit.applyTextFit(box, content: content, width: slot.textFitWidth ?? .stretchOrShrink,
                                             height: slot.textFitHeight ?? .stretchOrShrink)
        }
        let angle = layer.layout("icon-rotate").evaluateNumber(ctx) * .pi / 180
        var out = quad
        out.box = (box.x1, box.y1, box.x2, box.y2)
        out.tl = Vec2(box.x1, box.y1); out.tr = Vec2(box.x2, box.y1); out.bl = Vec2(box.x1, box.y2); out.br = Vec2(box.x2, box.y2)
        out.parts = IconTextFit.parts(box: drawn, slot: slot, fitted: true, rotate: angle)
        var c = drawn
        if let p = IconTextFit.collisionPadding(slot) { c.x1 -= p.x1; c.y1 -= p.y1; c.x2 += p.x2; c.y2 += p.y2 }
        out.collision = (c.x1, c.y1, c.x2, c.y2)
        return out
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
