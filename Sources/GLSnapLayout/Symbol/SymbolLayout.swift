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
        tile.canonical = CanonicalTileID(z: canonical.z, x: canonical.x, y: canonical.y)
        tile.geometryExtent = Double(source.extent)
        tile.tilePixelRatio = params.tilePixelRatio
        tile.placement = params.placement
        tile.writingModes = params.writingModes
        let labels = FeatureLabels(features, params, sourceExtent: source.extent, canonical: tile.canonical, provider: provider, pixelRatio: pixelRatio)
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
        var ctx = EvaluationContext(zoom: p.zoom, feature: feature)
        ctx.canonicalID = tile.canonical
        ctx.geometryExtent = tile.geometryExtent
        let sizes = LabelSizes(p, feature)
        let text = shapeText(sizes.textLayout > 0 ? labels.texts[fi] : [], ctx, p, sizes: sizes, provider: provider,
                             into: &tile.glyphQuads)
        let icon = p.hasIcon ? self.icon(ctx, p, text: text.shaping, textLayoutSize: sizes.textLayout, provider: provider,
                                         pixelRatio: pixelRatio) : nil
        guard !text.shaping.isEmpty || icon != nil else { return }
        let sectionIndex = tile.sections.count
        tile.sections.append(text.sections)
        var label = LabelTemplate(feature: fi, text: text, section: sectionIndex, icon: icon, sortKey: labels.keys[fi],
                                  sizes: sizes, p)
        if icon != nil, !text.vertical.isEmpty {
            label.instance.verticalIcon = verticalIcon(ctx, p, vertical: text.vertical, textLayoutSize: sizes.textLayout,
                                                       provider: provider, pixelRatio: pixelRatio)
        }
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
                // A middle outside the tile (in its buffer) is the neighbour tile's to place, as in
                // MapLibre: each tile holding it would otherwise draw the label once.
                guard let a = SymbolAnchors.center(line, labelLength: labelLength * textMaxBoxScale, angleWindow: window,
                                                   maxAngle: p.maxAngle), inside(a.point, p.extent) else { continue }
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
}

/// A feature's label before it is anchored: the instance each of its anchors copies, and for a
/// line label the size of its collision circles.
struct LabelTemplate {
    var instance: SymbolInstance
    /// Line labels with text: the label's length along the line and its circles' size (tile
    /// units, padding included); nil when it has none.
    let circles: (length: Double, size: Double)?
    let overscaling: Double

    init(feature: Int, text: ShapedLabel, section: Int, icon: IconQuad?, sortKey: Double, sizes: LabelSizes,
         _ p: SymbolLayoutParams) {
        let box = text.shaping.box
        instance = SymbolInstance(feature: feature, anchor: Vec2(0, 0), line: -1, segment: 0, glyphs: text.glyphs, text: section,
                                  textBox: box, icon: icon, sortKey: sortKey, textLayoutSize: sizes.textLayout,
                                  iconLayoutSize: sizes.iconLayout)
        instance.variableAnchors = text.variableAnchors
        instance.verticalGlyphs = text.verticalGlyphs
        instance.justifiedGlyphs = text.justified
        instance.lineOffset = text.lineOffset
        instance.verticalTextBox = p.placement == .point ? text.vertical.box.turnedQuarterClockwise : box
        // A box not laid along the line collides as the bounding box of its turned text.
        instance.textBoxTurn = p.alongLine ? 0 : text.rotation
        overscaling = p.overscaling
        let textBoxScale = p.tilePixelRatio * sizes.textLayout / TextShaper.oneEm
        let textPadding = p.textPadding * p.tilePixelRatio
        // MapLibre's text collision circles along the line.
        let height = box.height * textBoxScale + 2 * textPadding
        let length = box.width * textBoxScale + 2 * textPadding
        circles = p.alongLine && !text.shaping.isEmpty && height > 0 ? (length, max(10 * textBoxScale, height)) : nil
    }

    /// Adds the label at `anchor` (on line `line` of the tile, segment `segment`; line -1 for a
    /// point label), with its collision circles along the line.
    func add(at anchor: Vec2, line: Int, segment: Int, to tile: inout SymbolTile) {
        var inst = instance
        inst.anchor = anchor
        inst.line = line
        inst.segment = segment
        if line >= 0, let circles {
            let start = tile.circles.count
            SymbolAnchors.collisionCircles(tile.lines[line], anchor: anchor, segment: segment, labelLength: circles.length,
                                           boxSize: circles.size, overscaling: overscaling, into: &tile.circles)
            inst.circles = start..<tile.circles.count
            inst.circleRadius = circles.size / 2
        }
        tile.instances.append(inst)
    }
}
