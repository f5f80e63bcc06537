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
        let hasTextField = layer.hasValue("text-field", kind: .layout)
        let hasIcon = layer.hasValue("icon-image", kind: .layout)
        let sortKeyValue = layer.hasValue("symbol-sort-key", kind: .layout) ? layer.layout("symbol-sort-key") : nil
        tile.placement = layer.layout("symbol-placement").evaluateString(ctx)
        let alongLine = tile.placement != "point" && layer.layout("text-rotation-alignment").evaluateString(ctx) != "viewport"
        for (fi, feature) in features.enumerated() {
            guard tile.instances.count < maxInstances else { break }
            ctx.feature = feature
            // Text.
            var sections: [TextSection] = []
            if hasTextField {
                sections = textSections(layer, ctx, provider: provider)
            }
            var shaping = Shaping()
            if !sections.isEmpty {
                let anchor = textAnchor(layer, ctx)
                var justify = layer.layout("text-justify").evaluateString(ctx)
                if justify == "auto" {
                    let h = TextShaper.alignment(anchor).h
                    justify = h == 0 ? "left" : (h == 1 ? "right" : "center")
                }
                let j = justify == "right" ? 1.0 : (justify == "left" ? 0 : 0.5)
                let offset = textOffset(layer, ctx, anchor: anchor)
                shaping = TextShaper.shape(sections, provider: provider,
                                           maxWidth: layer.layout("text-max-width").evaluateNumber(ctx) * TextShaper.oneEm,
                                           lineHeight: layer.layout("text-line-height").evaluateNumber(ctx) * TextShaper.oneEm,
                                           justify: j, anchor: anchor,
                                           spacing: layer.layout("text-letter-spacing").evaluateNumber(ctx) * TextShaper.oneEm,
                                           offset: alongLine ? (0, 0) : offset, breakLines: tile.placement == "point")
            }
            // Icon.
            var icon: IconQuad?
            if hasIcon {
                icon = iconQuad(layer, ctx, provider: provider, pixelRatio: pixelRatio)
            }
            guard !shaping.isEmpty || icon != nil else { continue }
            let glyphStart = tile.glyphQuads.count
            if !shaping.isEmpty {
                appendGlyphQuads(&tile.glyphQuads, shaping, rotate: layer.layout("text-rotate").evaluateNumber(ctx) * .pi / 180,
                                 alongLine: alongLine, offset: textOffset(layer, ctx, anchor: textAnchor(layer, ctx)))
            }
            let glyphs = glyphStart..<tile.glyphQuads.count
            let sectionIndex = tile.sections.count
            tile.sections.append(sections)
            let box = (shaping.left, shaping.top, shaping.right, shaping.bottom)
            let sortKey = sortKeyValue?.evaluateNumber(ctx) ?? 0
            func add(_ anchor: Vec2, line: Int, segment: Int) {
                tile.instances.append(SymbolInstance(feature: fi, anchor: anchor, line: line, segment: segment, glyphs: glyphs, text: sectionIndex,
                                                     textBox: box, icon: icon, sortKey: sortKey))
            }
            let geometry = TileExtent.scale(feature.geometry, fromExtent: source.extent)
            if tile.placement == "point" {
                switch feature.geometryType {
                case .point:
                    for part in geometry { for p in part where inside(p, extent) { add(Vec2(p), line: -1, segment: 0) } }
                case .polygon:
                    for polygon in classifyRings(geometry) {
                        let rings = polygon.map { $0.map(Vec2.init) }
                        let pole = SymbolAnchors.poleOfInaccessibility(rings)
                        if pole.x >= 0, pole.x < extent, pole.y >= 0, pole.y < extent { add(pole, line: -1, segment: 0) }
                    }
                case .lineString:
                    for line in geometry { if let p = line.first, inside(p, extent) { add(Vec2(p), line: -1, segment: 0) } }
                default: break
                }
                continue
            }
            guard feature.geometryType == .lineString || feature.geometryType == .polygon else { continue }
            let textSizeLayout = layer.layout("text-size").evaluate(EvaluationContext(zoom: zoom + 1, feature: feature)).number ?? 16
            let boxScale = tilePixelRatio * textSizeLayout / TextShaper.oneEm
            let labelLength = max(shaping.isEmpty ? 0 : shaping.right - shaping.left, icon.map { $0.box.2 - $0.box.0 } ?? 0)
            let maxAngle = layer.layout("text-max-angle").evaluateNumber(ctx) * .pi / 180
            for part in geometry where part.count >= 2 {
                let line = part.map(Vec2.init)
                let anchors: [LineAnchor]
                if tile.placement == "line-center" {
                    let window = shaping.isEmpty ? 0 : 3.0 / 5.0 * TextShaper.oneEm * boxScale
                    anchors = SymbolAnchors.center(line, labelLength: labelLength * boxScale, angleWindow: window, maxAngle: maxAngle).map { [$0] } ?? []
                } else {
                    anchors = SymbolAnchors.along(line, spacing: layer.layout("symbol-spacing").evaluateNumber(ctx) * tilePixelRatio,
                                                  maxAngle: maxAngle, labelLength: labelLength, glyphSize: TextShaper.oneEm,
                                                  hasText: !shaping.isEmpty, boxScale: boxScale, overscaling: overscaling, extent: extent)
                }
                guard !anchors.isEmpty else { continue }
                let lineIndex = tile.lines.count
                tile.lines.append(line)
                for a in anchors { add(a.point, line: lineIndex, segment: a.segment) }
            }
        }
        return tile.isEmpty ? nil : tile
    }

    private static func inside(_ p: TilePoint, _ extent: Double) -> Bool {
        Double(p.x) >= 0 && Double(p.x) < extent && Double(p.y) >= 0 && Double(p.y) < extent
    }

    static func textAnchor(_ layer: StyleLayer, _ ctx: EvaluationContext) -> String {
        if layer.hasValue("text-variable-anchor", kind: .layout),
           case .array(let a) = layer.layout("text-variable-anchor").evaluate(ctx), let first = a.first?.string {
            return first
        }
        return layer.layout("text-anchor").evaluateString(ctx)
    }

    /// text-offset, or text-radial-offset when set, in 24 px units.
    static func textOffset(_ layer: StyleLayer, _ ctx: EvaluationContext, anchor: String) -> (Double, Double) {
        if layer.hasValue("text-radial-offset", kind: .layout) {
            let r = max(0, layer.layout("text-radial-offset").evaluateNumber(ctx))
            let hyp = r / 2.0.squareRoot()
            let baseline = 7.0 / TextShaper.oneEm
            var x = 0.0, y = 0.0
            switch anchor {
            case "top-right", "top-left": y = hyp - baseline
            case "bottom-right", "bottom-left": y = -hyp + baseline
            case "bottom": y = -r + baseline
            case "top": y = r - baseline
            default: break
            }
            switch anchor {
            case "top-right", "bottom-right": x = -hyp
            case "top-left", "bottom-left": x = hyp
            case "left": x = r
            case "right": x = -r
            default: break
            }
            return (x * TextShaper.oneEm, y * TextShaper.oneEm)
        }
        let o = layer.layout("text-offset").evaluateNumbers(ctx)
        guard o.count == 2 else { return (0, 0) }
        return (o[0] * TextShaper.oneEm, o[1] * TextShaper.oneEm)
    }

    /// text-field as sections, transformed and with font stacks; empty when there is no text.
    static func textSections(_ layer: StyleLayer, _ ctx: EvaluationContext, provider: SymbolResourceProvider) -> [TextSection] {
        let value = layer.layout("text-field").evaluate(ctx)
        let fonts = layer.layout("text-font").evaluate(ctx).array?.compactMap(\.string) ?? ["Open Sans Regular", "Arial Unicode MS Regular"]
        let transform = layer.layout("text-transform").evaluateString(ctx)
        var raw: [(String, [String], Double, Color?)] = []
        switch value {
        case .formatted(let f):
            for s in f.sections where s.image == nil {
                let stack = s.fontStack.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? fonts
                raw.append((s.text, stack, s.scale ?? 1, s.textColor))
            }
        case .null: return []
        default:
            let s = PropertyValueText.string(value)
            raw.append((s, fonts, 1, nil))
        }
        var total = 0
        var out: [TextSection] = []
        for (text, stack, scale, color) in raw {
            var t = text
            if transform == "uppercase" { t = t.uppercased() } else if transform == "lowercase" { t = t.lowercased() }
            var cps = t.unicodeScalars.map(\.value)
            if total + cps.count > maxLabelLength {
                provider.warn("layer '\(layer.id)': a label of more than \(maxLabelLength) characters was cut")
                cps = Array(cps.prefix(max(0, maxLabelLength - total)))
            }
            total += cps.count
            if !cps.isEmpty { out.append(TextSection(text: cps, fonts: stack, scale: scale, color: color)) }
        }
        return out
    }

    static func appendGlyphQuads(_ quads: inout [GlyphQuad], _ shaping: Shaping, rotate: Double, alongLine: Bool, offset: (Double, Double)) {
        let rectBuffer = Double(Glyph.border) + 1
        let c = cos(rotate), s = sin(rotate)
        for g in shaping.glyphs {
            guard let rect = g.slot.rect else { continue }
            let halfAdvance = g.slot.advance * g.scale / 2
            let builtIn = alongLine ? (0.0, g.y + offset.1) : (g.x + halfAdvance + offset.0, g.y + offset.1)
            let x1 = (g.slot.left - rectBuffer) * g.scale - halfAdvance + builtIn.0
            let y1 = (-g.slot.top - rectBuffer) * g.scale + builtIn.1
            let x2 = x1 + Double(rect.w) * g.scale, y2 = y1 + Double(rect.h) * g.scale
            var tl = Vec2(x1, y1), tr = Vec2(x2, y1), bl = Vec2(x1, y2), br = Vec2(x2, y2)
            if rotate != 0 && !alongLine {
                func r(_ p: Vec2) -> Vec2 { Vec2(c * p.x - s * p.y, s * p.x + c * p.y) }
                tl = r(tl); tr = r(tr); bl = r(bl); br = r(br)
            }
            quads.append(GlyphQuad(tl: tl, tr: tr, bl: bl, br: br, tex: rect, along: g.x + halfAdvance + (alongLine ? offset.0 : 0), section: g.section))
        }
    }

    static func iconQuad(_ layer: StyleLayer, _ ctx: EvaluationContext, provider: SymbolResourceProvider, pixelRatio: Double) -> IconQuad? {
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
        return IconQuad(tl: tl, tr: tr, bl: bl, br: br, tex: slot.rect, sdf: slot.sdf, box: (x1, y1, x2, y2))
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
