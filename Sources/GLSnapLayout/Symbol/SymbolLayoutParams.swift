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

    init(_ features: [VectorFeature], _ p: SymbolLayoutParams, sourceExtent: Int, canonical: CanonicalTileID?,
         provider: SymbolResourceProvider, pixelRatio: Double) {
        var ctx = EvaluationContext(zoom: p.zoom)
        ctx.canonicalID = canonical
        ctx.geometryExtent = Double(sourceExtent)
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
