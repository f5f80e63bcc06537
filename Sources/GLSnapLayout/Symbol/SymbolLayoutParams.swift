import Foundation
import GLSnapData
import GLSnapStyle

/// A symbol layer's layout in one tile: the properties fixed for the layer evaluated once at the
/// tile's zoom, those that vary by feature looked up once to be evaluated per feature.
struct SymbolLayoutParams {
    let layer: StyleLayer
    let symbol: SymbolLayer
    let zoom: Double
    /// The tile's extent in tile units, and how far it is overscaled (its zoom past the data's).
    let extent: Double, overscaling: Double
    /// Tile units per CSS pixel at the tile's zoom (MapLibre's tilePixelRatio).
    let tilePixelRatio: Double
    let hasText: Bool, hasIcon: Bool
    /// symbol-sort-key orders the labels (set, and symbol-z-order not viewport-y).
    let sortByKey: Bool
    let placement: SymbolLayer.Placement
    /// Text laid along the line (line placement, not rotating with the viewport).
    let alongLine: Bool
    let keepUpright: Bool
    let writingModes: [WritingMode]
    let allowVerticalPlacement: Bool
    /// symbol-spacing in tile units.
    let spacing: Double
    /// text-max-angle in radians.
    let maxAngle: Double
    /// text-padding in CSS px.
    let textPadding: Double
    /// icon-text-fit (none without an icon).
    let fit: SymbolLayer.IconTextFit

    /// Nil for a layer that is not a symbol layer.
    init?(_ layer: StyleLayer, zoom: Double, canonical: TileID) {
        guard let symbol = layer.symbol else { return nil }
        self.layer = layer
        self.symbol = symbol
        self.zoom = zoom
        let ctx = EvaluationContext(zoom: zoom)
        extent = Double(TileExtent.extent)
        overscaling = max(1, exp2(zoom - Double(canonical.z)))
        tilePixelRatio = extent / (512 * overscaling)
        hasText = symbol.textField.isSet
        hasIcon = symbol.iconImage.isSet
        placement = symbol.placement.evaluate(ctx)
        sortByKey = symbol.sortKey.isSet && symbol.zOrder.evaluate(ctx) != .viewportY
        alongLine = placement != .point && symbol.textRotationAlignment.evaluate(ctx) != .viewport
        keepUpright = symbol.textKeepUpright.evaluate(ctx)
        let writingValues = symbol.textWritingMode.isSet ? symbol.textWritingMode.evaluate(ctx).array?.compactMap(\.string) : nil
        writingModes = WritingMode.modes(writingValues, placement: placement)
        allowVerticalPlacement = writingModes.contains(.vertical)
        spacing = symbol.spacing.evaluate(ctx) * tilePixelRatio
        maxAngle = symbol.textMaxAngle.evaluate(ctx) * .pi / 180
        textPadding = symbol.textPadding.evaluate(ctx)
        fit = hasIcon ? symbol.iconTextFit.evaluate(ctx) : .none
    }
}

/// A label's text and icon sizes. MapLibre evaluates sizes at zoom + 1 (and 18 for anchor
/// spacing), but a size that does not depend on the feature was already fixed at the tile's
/// zoom, so it stays that value.
struct LabelSizes {
    /// text-size and icon-size at the tile's zoom + 1 (`SymbolInstance.textLayoutSize`).
    let textLayout: Double, iconLayout: Double
    /// text-size at zoom 18, which spaces line labels' anchors, and at the tile's zoom.
    let textMax: Double, textThisZoom: Double

    init(_ p: SymbolLayoutParams, _ feature: VectorFeature) {
        func size(_ v: LayerProperty<Double>, _ z: Double, _ fallback: Double) -> Double {
            v.value.evaluate(EvaluationContext(zoom: v.isFeatureConstant ? p.zoom : z, feature: feature)).number ?? fallback
        }
        textLayout = size(p.symbol.textSize, p.zoom + 1, 16)
        iconLayout = size(p.symbol.iconSize, p.zoom + 1, 1)
        textMax = size(p.symbol.textSize, 18, 16)
        textThisZoom = size(p.symbol.textSize, p.zoom, 16)
    }
}

/// What the layout reads of every feature before laying any out, and the order it lays them out
/// in: MapLibre's, by sort key (a feature goes before earlier ones of the same key), then lines
/// of one label merged end to end.
struct FeatureLabels {
    /// Each feature's text sections (empty without text), sort key, and lines (none for polygons).
    let texts: [[TextSection]], keys: [Double], lines: [[[Vec2]]]
    /// Each feature's text as one string (nil without text): what repeated labels are matched by.
    let rawTexts: [String?]
    let order: [Int]

    init(_ features: [VectorFeature], _ p: SymbolLayoutParams, sourceExtent: Int, provider: SymbolResourceProvider,
         pixelRatio: Double) {
        var ctx = EvaluationContext(zoom: p.zoom)
        var texts: [[TextSection]] = [], keys: [Double] = [], lines: [[[Vec2]]] = []
        for feature in features {
            ctx.feature = feature
            texts.append(p.hasText ? SymbolLayout.textSections(p.layer, p.symbol, ctx, provider: provider, pixelRatio: pixelRatio) : [])
            let key = p.symbol.sortKey.isSet ? p.symbol.sortKey.evaluate(ctx) : 0
            keys.append(key.isNaN ? 0 : key)
            lines.append(feature.geometryType == .polygon ? [] : TileExtent.scale(feature.geometry, fromExtent: sourceExtent).map { $0.map(Vec2.init) })
        }
        var order = Array(features.indices)
        if p.sortByKey { order.sort { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 > $1 } }
        let rawTexts = texts.map { $0.isEmpty ? nil : String(String.UnicodeScalarView($0.flatMap(\.text).compactMap(Unicode.Scalar.init))) }
        if p.placement == .line {
            var ordered = order.map { lines[$0] }
            SymbolLines.merge(&ordered, keys: order.map { rawTexts[$0] })
            for (k, fi) in order.enumerated() { lines[fi] = ordered[k] }
        }
        self.texts = texts; self.keys = keys; self.lines = lines; self.rawTexts = rawTexts; self.order = order
    }
}

/// A label's text as laid out: its shapings and the ranges of its quads in `SymbolTile.glyphQuads`.
struct ShapedLabel {
    /// The sections shaped (empty: no text).
    var sections: [TextSection]
    var shaping = Shaping(), vertical = Shaping()
    var variableAnchors: [VariableAnchor] = []
    var glyphs: Range<Int>, verticalGlyphs: Range<Int>
    /// See `SymbolInstance.justifiedGlyphs`.
    var justified: [Range<Int>] = []
}

extension SymbolLayout {
    /// Shapes a label's text (horizontal, once per justification its variable anchors need, and
    /// vertical where it may stand so) and appends its quads to `quads`.
    static func shapeText(_ sections: [TextSection], _ ctx: EvaluationContext, _ p: SymbolLayoutParams, sizes: LabelSizes,
                          provider: SymbolResourceProvider, into quads: inout [GlyphQuad]) -> ShapedLabel {
        let glyphStart = quads.count
        var label = ShapedLabel(sections: sections, glyphs: glyphStart..<glyphStart, verticalGlyphs: glyphStart..<glyphStart)
        guard !sections.isEmpty else { return label }
        var anchor = p.symbol.textAnchor.evaluate(ctx).rawValue
        if !p.alongLine, let v = VariableAnchors.anchors(p.symbol, ctx) {
            // Shaped around the center; placement moves it to the anchor it takes.
            label.variableAnchors = v
            anchor = "center"
        }
        var justify = p.alongLine ? .center : p.symbol.textJustify.evaluate(ctx)
        let autoJustify = justify == .auto && !label.variableAnchors.isEmpty
        if justify == .auto {
            let h = TextShaper.alignment(label.variableAnchors.first?.anchor ?? anchor).h
            justify = h == 0 ? .left : (h == 1 ? .right : .center)
        }
        let j = justify == .right ? 1.0 : (justify == .left ? 0 : 0.5)
        let offset = label.variableAnchors.isEmpty ? textOffset(p.symbol, ctx, anchor: anchor) : (0, 0)
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
        instance.verticalTextBox = p.placement == .point ? text.vertical.box.turnedQuarterClockwise : box
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
