import Foundation
import GLSnapStyle

/// What one symbol layer draws in one view: two triangles per glyph or icon, in screen pixels,
/// `SymbolDrawData.floatsPerVertex` floats a vertex: x, y (CSS px), u, v (atlas texels),
/// fill color (4, premultiplied), halo color (4), opacity, halo width, halo blur, scale.
public struct SymbolDrawData {
    public static let floatsPerVertex = 16
    public var icons: [Float] = []
    public var sdfIcons: [Float] = []
    public var text: [Float] = []
    /// Icons need linear filtering (scaled or rotated).
    public var iconsLinear = false
    public let glyphAtlas: SymbolAtlas
    public let iconAtlas: SymbolAtlas
    public var isEmpty: Bool { icons.isEmpty && sdfIcons.isEmpty && text.isEmpty }
}

/// A symbol layer's tiles for one view.
public struct SymbolLayerInput {
    public var layer: StyleLayer
    public var tiles: [(tile: CoveredTile, symbols: SymbolTile)]
    public init(layer: StyleLayer, tiles: [(tile: CoveredTile, symbols: SymbolTile)]) { self.layer = layer; self.tiles = tiles }
}

/// Places every symbol of a view at once: projects anchors, tests collisions in screen space over
/// all tiles and layers (top layer first, as MapLibre), and writes the vertices of what is shown.
/// Deterministic: the same inputs give the same output; there is no fading.
public enum SymbolPlacement {
    public static func place(_ layers: [SymbolLayerInput], transform: Transform, provider: SymbolResourceProvider) -> [SymbolDrawData] {
        var grid = CollisionGrid(width: transform.width, height: transform.height)
        var out = [SymbolDrawData](repeating: SymbolDrawData(glyphAtlas: provider.glyphAtlas, iconAtlas: provider.iconAtlas), count: layers.count)
        for li in layers.indices.reversed() {
            out[li] = placeLayer(layers[li], transform: transform, grid: &grid, provider: provider)
        }
        return out
    }

    struct Placed {
        var key: Double
        var order: Int
        var text: [Float]
        var icon: [Float]
        var sdfIcon: Bool
    }

    static func placeLayer(_ input: SymbolLayerInput, transform t: Transform, grid: inout CollisionGrid,
                           provider: SymbolResourceProvider) -> SymbolDrawData {
        let layer = input.layer
        var draw = SymbolDrawData(glyphAtlas: provider.glyphAtlas, iconAtlas: provider.iconAtlas)
        let zoom = t.zoom
        let zctx = EvaluationContext(zoom: zoom)
        let L = { (name: String) in layer.layout(name) }
        let textAllowOverlap = allowOverlap(layer, "text", zctx)
        let iconAllowOverlap = allowOverlap(layer, "icon", zctx)
        let textIgnore = L("text-ignore-placement").evaluateBool(zctx), iconIgnore = L("icon-ignore-placement").evaluateBool(zctx)
        let textOptional = L("text-optional").evaluateBool(zctx), iconOptional = L("icon-optional").evaluateBool(zctx)
        let placementKind = L("symbol-placement").evaluateString(zctx)
        let isLine = placementKind != "point"
        let textRotMap = resolve(L("text-rotation-alignment").evaluateString(zctx), isLine) == "map"
        let iconRotMap = resolve(L("icon-rotation-alignment").evaluateString(zctx), isLine) == "map"
        let textPitchMap = L("text-pitch-alignment").evaluateString(zctx) == "auto" ? textRotMap
            : L("text-pitch-alignment").evaluateString(zctx) == "map"
        let keepUpright = L("text-keep-upright").evaluateBool(zctx)
        let textPadding = L("text-padding").evaluateNumber(zctx)
        let iconPadding = L("icon-padding").evaluateNumbers(zctx).first ?? 2
        let fit = L("icon-text-fit").evaluateString(zctx)
        let fitPadding = L("icon-text-fit-padding").evaluateNumbers(zctx)
        let textTranslate = translate(layer, "text", zctx, t), iconTranslate = translate(layer, "icon", zctx, t)
        let angle = -t.bearing * .pi / 180
        let cosA = cos(angle), sinA = sin(angle)
        let zOrder = L("symbol-z-order").evaluateString(zctx)
        let sortByKey = layer.hasValue("symbol-sort-key", kind: .layout) && zOrder != "viewport-y"
        let sortByY = !sortByKey && (zOrder == "viewport-y" || (zOrder == "auto" && (textAllowOverlap || iconAllowOverlap || textIgnore || iconIgnore)))
        let P = { (name: String) in layer.paint(name) }
        let textSizeV = L("text-size"), iconSizeV = L("icon-size")
        let textColorV = P("text-color"), haloColorV = P("text-halo-color"), haloWidthV = P("text-halo-width")
        let haloBlurV = P("text-halo-blur"), textOpacityV = P("text-opacity")
        let iconOpacityV = P("icon-opacity"), iconColorV = P("icon-color"), iconHaloColorV = P("icon-halo-color")
        let iconHaloWidthV = P("icon-halo-width"), iconHaloBlurV = P("icon-halo-blur")
        var placed: [Placed] = []
        let tiles = input.tiles.sorted { a, b in
            // Bottom tiles first, as MapLibre places them.
            (b.tile.id.y, b.tile.wrap, b.tile.id.x) < (a.tile.id.y, a.tile.wrap, a.tile.id.x)
        }
        var order = 0
        for (covered, symbols) in tiles {
            let m = t.tileMatrix(for: covered.id, wrap: covered.wrap)
            func project(_ p: Vec2) -> (x: Double, y: Double, w: Double)? {
                let x = Double(m[0]) * p.x + Double(m[4]) * p.y + Double(m[12])
                let y = Double(m[1]) * p.x + Double(m[5]) * p.y + Double(m[13])
                let w = Double(m[3]) * p.x + Double(m[7]) * p.y + Double(m[15])
                guard w > 1e-6 else { return nil }
                return ((x / w + 1) / 2 * t.width, (1 - y / w) / 2 * t.height, w)
            }
            var projectedLines: [Int: [(x: Double, y: Double)]?] = [:]
            for inst in symbols.instances {
                order += 1
                guard let a = project(inst.anchor) else { continue }
                var ctx = EvaluationContext(zoom: zoom)
                ctx.feature = symbols.features[inst.feature]
                let perspective = min(max(0.5 + 0.5 * t.cameraToCenterDistance / a.w, 0), 4)
                let textSize = textSizeV.evaluateNumber(ctx) * (textPitchMap ? t.cameraToCenterDistance / a.w : perspective)
                let fontScale = textSize / TextShaper.oneEm
                let iconSize = iconSizeV.evaluateNumber(ctx) * perspective
                var textVerts: [Float] = [], iconVerts: [Float] = []
                var textBoxes: [(Float, Float, Float, Float)] = []
                var iconBox: (Float, Float, Float, Float)?
                let ta = (a.x + textTranslate.0, a.y + textTranslate.1)
                let ia = (a.x + iconTranslate.0, a.y + iconTranslate.1)
                // Text.
                if inst.hasText {
                    let fill = textColorV.evaluateColor(ctx), halo = haloColorV.evaluateColor(ctx)
                    let paint: [Float] = [Float(haloWidthV.evaluateNumber(ctx)), Float(haloBlurV.evaluateNumber(ctx)), Float(fontScale)]
                    let opacity = Float(textOpacityV.evaluateNumber(ctx))
                    let sections = symbols.sections[safe: inst.text] ?? []
                    if inst.line >= 0 && textRotMap {
                        if projectedLines[inst.line] == nil {
                            let pts = symbols.lines[inst.line].map { project($0) }
                            projectedLines[inst.line] = pts.contains { $0 == nil } ? .some(nil) : .some(pts.compactMap { $0.map { ($0.x, $0.y) } })
                        }
                        guard let line = projectedLines[inst.line] ?? nil else { continue }
                        guard lineGlyphs(inst, symbols, line: line, anchor: (a.x, a.y), translate: textTranslate, fontScale: fontScale,
                                         keepUpright: keepUpright, sections: sections, fill: fill, halo: halo, opacity: opacity, paint: paint,
                                         padding: textPadding, verts: &textVerts, boxes: &textBoxes) else { continue }
                    } else {
                        for q in symbols.glyphQuads[inst.glyphs] {
                            var corners = [q.tl, q.tr, q.bl, q.br].map { Vec2($0.x * fontScale, $0.y * fontScale) }
                            if textRotMap { corners = corners.map { Vec2($0.x * cosA - $0.y * sinA, $0.x * sinA + $0.y * cosA) } }
                            let color = sections[safe: q.section]?.color ?? fill
                            emitQuad(&textVerts, corners.map { Vec2(ta.0 + $0.x, ta.1 + $0.y) }, q.tex, color, halo, opacity, paint)
                        }
                        let b = inst.textBox
                        textBoxes.append((Float(ta.0 + b.0 * fontScale - textPadding), Float(ta.1 + b.1 * fontScale - textPadding),
                                          Float(ta.0 + b.2 * fontScale + textPadding), Float(ta.1 + b.3 * fontScale + textPadding)))
                    }
                }
                // Icon.
                var sdfIcon = false
                if let icon = inst.icon {
                    sdfIcon = icon.sdf
                    var corners = [icon.tl, icon.tr, icon.bl, icon.br].map { Vec2($0.x * iconSize, $0.y * iconSize) }
                    var box = (icon.box.0 * iconSize, icon.box.1 * iconSize, icon.box.2 * iconSize, icon.box.3 * iconSize)
                    if fit != "none", inst.hasText, inst.line < 0 {
                        let b = inst.textBox
                        var x1 = b.0 * fontScale, y1 = b.1 * fontScale, x2 = b.2 * fontScale, y2 = b.3 * fontScale
                        let p = fitPadding.count == 4 ? fitPadding : [0, 0, 0, 0]
                        if fit == "width" || fit == "both" { x1 -= p[3]; x2 += p[1] } else { let c = (x1 + x2) / 2; x1 = c + box.0; x2 = c + box.2 }
                        if fit == "height" || fit == "both" { y1 -= p[0]; y2 += p[2] } else { let c = (y1 + y2) / 2; y1 = c + box.1; y2 = c + box.3 }
                        box = (x1, y1, x2, y2)
                        corners = [Vec2(x1, y1), Vec2(x2, y1), Vec2(x1, y2), Vec2(x2, y2)]
                    }
                    if iconRotMap || (isLine && iconRotMap) {
                        corners = corners.map { Vec2($0.x * cosA - $0.y * sinA, $0.x * sinA + $0.y * cosA) }
                    }
                    if inst.line >= 0 && iconRotMap, let line = symbols.lines[safe: inst.line], inst.segment + 1 < line.count,
                       let p0 = project(line[inst.segment]), let p1 = project(line[inst.segment + 1]) {
                        let ang = atan2(p1.y - p0.y, p1.x - p0.x)
                        let c = cos(ang), s = sin(ang)
                        corners = [icon.tl, icon.tr, icon.bl, icon.br].map { Vec2(($0.x * c - $0.y * s) * iconSize, ($0.x * s + $0.y * c) * iconSize) }
                    }
                    let o = Float(iconOpacityV.evaluateNumber(ctx))
                    let fill = sdfIcon ? iconColorV.evaluateColor(ctx) : Color.white
                    let halo = sdfIcon ? iconHaloColorV.evaluateColor(ctx) : Color.transparent
                    let paint: [Float] = [Float(iconHaloWidthV.evaluateNumber(ctx)), Float(iconHaloBlurV.evaluateNumber(ctx)), Float(iconSize)]
                    emitQuad(&iconVerts, corners.map { Vec2(ia.0 + $0.x, ia.1 + $0.y) }, icon.tex, fill, halo, o, paint)
                    iconBox = (Float(ia.0 + box.0 - iconPadding), Float(ia.1 + box.1 - iconPadding),
                               Float(ia.0 + box.2 + iconPadding), Float(ia.1 + box.3 + iconPadding))
                    if iconSize != 1 || corners[0].y != corners[1].y { draw.iconsLinear = true }
                }
                // Collision.
                let hasText = !textVerts.isEmpty, hasIcon = !iconVerts.isEmpty
                var placeText = hasText && (textAllowOverlap || !textBoxes.contains { grid.collides($0) })
                var placeIcon = hasIcon && (iconAllowOverlap || !(iconBox.map { grid.collides($0) } ?? false))
                if hasText && !textBoxes.contains(where: { grid.isInside($0) }) { placeText = false }
                if hasIcon, let b = iconBox, !grid.isInside(b) { placeIcon = false }
                let iconWithoutText = textOptional || !hasText
                let textWithoutIcon = iconOptional || !hasIcon
                if !iconWithoutText && !textWithoutIcon {
                    placeText = placeText && placeIcon; placeIcon = placeText
                } else if !textWithoutIcon {
                    placeText = placeIcon && placeText
                } else if !iconWithoutText {
                    placeIcon = placeIcon && placeText
                }
                if placeText && !textIgnore { for b in textBoxes { grid.insert(b) } }
                if placeIcon && !iconIgnore, let b = iconBox { grid.insert(b) }
                guard placeText || placeIcon else { continue }
                let key = sortByKey ? inst.sortKey : (sortByY ? a.y : 0)
                placed.append(Placed(key: key, order: order, text: placeText ? textVerts : [], icon: placeIcon ? iconVerts : [], sdfIcon: sdfIcon))
            }
        }
        if sortByKey || sortByY { placed.sort { ($0.key, $0.order) < ($1.key, $1.order) } }
        for p in placed {
            draw.text += p.text
            if p.sdfIcon { draw.sdfIcons += p.icon } else { draw.icons += p.icon }
        }
        return draw
    }

    static func resolve(_ alignment: String, _ isLine: Bool) -> String {
        alignment == "auto" ? (isLine ? "map" : "viewport") : alignment
    }

    static func allowOverlap(_ layer: StyleLayer, _ prefix: String, _ ctx: EvaluationContext) -> Bool {
        if layer.hasValue("\(prefix)-overlap", kind: .layout) {
            let v = layer.layout("\(prefix)-overlap").evaluateString(ctx)
            return v == "always" || v == "cooperative"
        }
        return layer.layout("\(prefix)-allow-overlap").evaluateBool(ctx)
    }

    static func translate(_ layer: StyleLayer, _ prefix: String, _ ctx: EvaluationContext, _ t: Transform) -> (Double, Double) {
        let v = layer.paint("\(prefix)-translate").evaluateNumbers(ctx)
        guard v.count == 2 else { return (0, 0) }
        if layer.paint("\(prefix)-translate-anchor").evaluateString(ctx) == "map" {
            let a = -t.bearing * .pi / 180
            return (v[0] * cos(a) - v[1] * sin(a), v[0] * sin(a) + v[1] * cos(a))
        }
        return (v[0], v[1])
    }

    /// Two triangles (tl, tr, bl / bl, tr, br).
    static func emitQuad(_ out: inout [Float], _ c: [Vec2], _ tex: AtlasRect, _ fill: Color, _ halo: Color,
                         _ opacity: Float, _ paint: [Float]) {
        let u0 = Float(tex.x), v0 = Float(tex.y), u1 = Float(tex.x + tex.w), v1 = Float(tex.y + tex.h)
        let uv: [(Float, Float)] = [(u0, v0), (u1, v0), (u0, v1), (u1, v1)]
        for i in [0, 1, 2, 2, 1, 3] {
            out.append(Float(c[i].x)); out.append(Float(c[i].y))
            out.append(uv[i].0); out.append(uv[i].1)
            out.append(Float(fill.r)); out.append(Float(fill.g)); out.append(Float(fill.b)); out.append(Float(fill.a))
            out.append(Float(halo.r)); out.append(Float(halo.g)); out.append(Float(halo.b)); out.append(Float(halo.a))
            out.append(opacity); out.append(paint[0]); out.append(paint[1]); out.append(paint[2])
        }
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
