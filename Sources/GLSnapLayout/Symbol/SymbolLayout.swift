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

    /// The layer's symbols in one tile; nil when it has none (or is not a symbol layer).
    public static func build(layer: StyleLayer, from source: VectorLayer, zoom: Double, canonical: TileID,
                             provider: SymbolResourceProvider, pixelRatio: Double) -> SymbolTile? {
        let features = BucketBuilder.selectFeatures(layer: layer, from: source, zoom: zoom, canonical: canonical)
        guard !features.isEmpty else { return nil }
        guard let params = SymbolLayoutParams(layer, zoom: zoom, canonical: canonical) else { return nil }
        var tile = SymbolTile()
        tile.features = features
        tile.tilePixelRatio = params.tilePixelRatio
        tile.placement = params.placement
        tile.writingModes = params.writingModes
        let labels = FeatureLabels(features, params, sourceExtent: source.extent, provider: provider, pixelRatio: pixelRatio)
        var placedAnchors: [String: [Vec2]] = [:]
        for fi in labels.order {
            guard tile.instances.count < maxInstances else { break }
            addLabels(of: fi, labels, params, sourceExtent: source.extent, provider: provider, pixelRatio: pixelRatio,
                      into: &tile, placedAnchors: &placedAnchors)
        }
        return tile.isEmpty ? nil : tile
    }

    /// Lays out feature `fi`'s label (its text shaped, its icon) and adds one instance per anchor.
    static func addLabels(of fi: Int, _ labels: FeatureLabels, _ p: SymbolLayoutParams, sourceExtent: Int,
                          provider: SymbolResourceProvider, pixelRatio: Double,
                          into tile: inout SymbolTile, placedAnchors: inout [String: [Vec2]]) {
        let feature = tile.features[fi]
        let ctx = EvaluationContext(zoom: p.zoom, feature: feature)
        let sizes = LabelSizes(p, feature)
        let text = shapeText(sizes.textLayout > 0 ? labels.texts[fi] : [], ctx, p, sizes: sizes, provider: provider,
                             into: &tile.glyphQuads)
        let icon = p.hasIcon ? self.icon(ctx, p, text: text.shaping, textLayoutSize: sizes.textLayout, provider: provider,
                                         pixelRatio: pixelRatio) : nil
        guard !text.shaping.isEmpty || icon != nil else { return }
        let sectionIndex = tile.sections.count
        tile.sections.append(text.sections)
        let label = LabelTemplate(feature: fi, text: text, section: sectionIndex, icon: icon, sortKey: labels.keys[fi],
                                  sizes: sizes, p)
        if p.placement == .point {
            for anchor in pointAnchors(feature, lines: labels.lines[fi], sourceExtent: sourceExtent, p) {
                label.add(at: anchor, line: -1, segment: 0, to: &tile)
            }
            return
        }
        let geometry: [[Vec2]]
        if feature.geometryType == .polygon {
            geometry = TileExtent.scale(feature.geometry, fromExtent: sourceExtent).map { $0.map(Vec2.init) }
        } else if feature.geometryType == .lineString {
            geometry = labels.lines[fi]
        } else { return }
        addLineLabels(label, along: geometry, text: text, rawText: labels.rawTexts[fi], sizes: sizes, p, into: &tile,
                      placedAnchors: &placedAnchors)
    }

    /// Adds a line label at its anchors along each line of `geometry`: the middle of each line
    /// (line-center), or every `symbol-spacing` (line), where the line bends little enough.
    static func addLineLabels(_ label: LabelTemplate, along geometry: [[Vec2]], text: ShapedLabel, rawText: String?,
                              sizes: LabelSizes, _ p: SymbolLayoutParams, into tile: inout SymbolTile,
                              placedAnchors: inout [String: [Vec2]]) {
        let textMaxBoxScale = p.tilePixelRatio * sizes.textMax / TextShaper.oneEm
        let anchorShaping = text.vertical.isEmpty ? text.shaping : text.vertical
        let labelLength = max(anchorShaping.isEmpty ? 0 : anchorShaping.box.width, label.instance.icon.map { $0.box.width } ?? 0)
        if p.placement == .lineCenter {
            for line in geometry where line.count >= 2 {
                let window = text.shaping.isEmpty ? 0 : 3.0 / 5.0 * TextShaper.oneEm * textMaxBoxScale
                guard let a = SymbolAnchors.center(line, labelLength: labelLength * textMaxBoxScale, angleWindow: window,
                                                   maxAngle: p.maxAngle) else { continue }
                tile.lines.append(line)
                label.add(at: a.point, line: tile.lines.count - 1, segment: a.segment, to: &tile)
            }
            return
        }
        for line in SymbolLines.clip(geometry, extent: p.extent) where line.count >= 2 {
            let anchors = SymbolAnchors.along(line, spacing: p.spacing, maxAngle: p.maxAngle, labelLength: labelLength,
                                              glyphSize: TextShaper.oneEm, hasText: !text.shaping.isEmpty, boxScale: textMaxBoxScale,
                                              overscaling: p.overscaling, extent: p.extent)
            guard !anchors.isEmpty else { continue }
            let lineIndex = tile.lines.count
            tile.lines.append(line)
            for a in anchors {
                // A label repeated closer than half the spacing is dropped (MapLibre's anchorIsTooClose).
                if let rawText, !text.shaping.isEmpty {
                    if placedAnchors[rawText, default: []].contains(where: { $0.dist(a.point) < p.spacing / 2 }) { continue }
                    placedAnchors[rawText, default: []].append(a.point)
                }
                label.add(at: a.point, line: lineIndex, segment: a.segment, to: &tile)
            }
        }
    }

    /// A point label's anchors: each point of a point feature, the pole of inaccessibility of
    /// each polygon, the first point of each line; those outside the tile are left out.
    static func pointAnchors(_ feature: VectorFeature, lines: [[Vec2]], sourceExtent: Int, _ p: SymbolLayoutParams) -> [Vec2] {
        let extent = p.extent
        var out: [Vec2] = []
        switch feature.geometryType {
        case .point:
            for part in lines { for point in part where inside(point, extent) { out.append(point) } }
        case .polygon:
            let geometry = TileExtent.scale(feature.geometry, fromExtent: sourceExtent)
            for polygon in classifyRings(geometry) {
                let rings = polygon.map { $0.map(Vec2.init) }
                let pole = SymbolAnchors.poleOfInaccessibility(rings, precision: extent / 512)
                if inside(pole, extent) { out.append(pole) }
            }
        case .lineString:
            for line in lines { if let point = line.first, inside(point, extent) { out.append(point) } }
        default: break
        }
        return out
    }

    private static func inside(_ p: Vec2, _ extent: Double) -> Bool {
        p.x >= 0 && p.x < extent && p.y >= 0 && p.y < extent
    }

    /// The icon of a label, fitted to its text with icon-text-fit; nil without one.
    static func icon(_ ctx: EvaluationContext, _ p: SymbolLayoutParams, text: Shaping, textLayoutSize: Double,
                     provider: SymbolResourceProvider, pixelRatio: Double) -> IconQuad? {
        guard let (quad, slot) = iconQuad(p.symbol, ctx, provider: provider, pixelRatio: pixelRatio) else { return nil }
        guard p.fit != .none, !text.isEmpty else { return quad }
        return fitted(quad, slot: slot, p.symbol, ctx, text: text, fit: p.fit, fontScale: textLayoutSize / TextShaper.oneEm)
    }

    /// text-offset, or text-radial-offset when set, in 24 px units.
    static func textOffset(_ layer: SymbolLayer, _ ctx: EvaluationContext, anchor: String) -> (Double, Double) {
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

    static func iconQuad(_ layer: SymbolLayer, _ ctx: EvaluationContext, provider: SymbolResourceProvider,
                         pixelRatio: Double) -> (IconQuad, IconSlot)? {
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
        let (h, v) = TextShaper.alignment(layer.iconAnchor.evaluate(ctx).rawValue)
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
