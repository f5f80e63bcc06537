import GLSnapData
import GLSnapStyle

/// A glyph's quad: corners in 24 px units around its anchor (point labels, already rotated by
/// text-rotate) or around its own center on the line (line labels), and its atlas texels.
public struct GlyphQuad: Sendable {
    var tl: Vec2, tr: Vec2, bl: Vec2, br: Vec2
    var tex: AtlasRect
    /// Line labels: the glyph center's distance along the line from the anchor, in 24 px units
    /// (the label's text-offset aside, see `SymbolInstance.lineOffset`).
    var along: Double
    var section: Int
    /// An image in text: `tex` lies in the icon atlas.
    var isImage = false
}

/// An icon's quad: corners in CSS pixels at icon-size 1 around the anchor.
struct IconQuad: Sendable {
    var tl: Vec2, tr: Vec2, bl: Vec2, br: Vec2
    var tex: AtlasRect
    var sdf: Bool
    /// The icon's box before rotation.
    var box: Rect
    /// The image's pixel ratio differs from the map's: the icon is resampled (linear filtering).
    var resampled = false
    /// With icon-text-fit: the pieces drawn instead of the one quad (`IconTextFit.parts`).
    var parts: [IconPart] = []
    /// The box collisions use, before icon-padding: `box`, or for a fitted image with a content
    /// box, grown to the image's edges.
    var collision = Rect.zero
    /// icon-offset's x (px): a line icon offset ahead takes its direction from the line ahead
    /// of its anchor, else from the line behind it (as GL JS walks it).
    var offsetX = 0.0
    /// icon-offset's y (px): with `offsetX`, what GL JS 6 walks a line icon from its anchor by
    /// again (`SymbolPlacement.iconLineStand`).
    var offsetY = 0.0
    /// icon-rotate (radians): the padded collision box collides as its turned bounding box.
    var turn = 0.0
    /// icon-padding of this feature's icon (margins, CSS px) where it is data-driven; nil: the
    /// layer's.
    var padding: Rect?
}

/// One label: an anchor with its text and icon.
struct SymbolInstance: Sendable {
    var feature: Int
    var anchor: Vec2
    /// Line labels: the index of the line in `SymbolTile.lines` and the anchor's segment.
    var line: Int
    var segment: Int
    var glyphs: Range<Int>
    /// Index of the label's text sections in `SymbolTile.sections`.
    var text: Int
    /// Text box in 24 px units.
    var textBox: Rect
    var icon: IconQuad?
    var sortKey: Double
    /// text-size and icon-size at the tile's zoom + 1: collision boxes are this size (MapLibre's
    /// layoutTextSize / layoutIconSize), whatever size the label is drawn at.
    var textLayoutSize: Double
    var iconLayoutSize: Double
    /// Line labels: the collision circles along the line (indices into `SymbolTile.circles`) and
    /// their radius in tile units.
    var circles: Range<Int> = 0..<0
    var circleRadius: Double = 0
    /// text-variable-anchor(-offset): the anchors to try, in order, each with its offset; empty
    /// for a fixed anchor.
    var variableAnchors: [VariableAnchor] = []
    /// The label laid out vertically (text-writing-mode, or a line label on a steep line): its
    /// quads, and for point labels its box, already turned as drawn. Empty when it has none.
    var verticalGlyphs: Range<Int> = 0..<0
    var verticalTextBox = Rect.zero
    /// text-rotate (radians) of a label not laid along its line: its padded text box collides
    /// as the turned box's bounding box (MapLibre's envelope); 0 along lines.
    var textBoxTurn = 0.0
    /// The icon fitted to the vertical layout (icon-text-fit), drawn in place of `icon` with it.
    var verticalIcon: IconQuad?
    /// Variable anchors with text-justify auto, text of several lines: its quads justified left,
    /// center and right (MapLibre shapes it once per justification its anchors need); else empty.
    var justifiedGlyphs: [Range<Int>] = []
    /// Line labels: text-offset in 24 px units, along the line (x) and across it (y); applied
    /// where the glyphs are set on the line (`LineWalk.glyph`), not in their quads.
    var lineOffset = Vec2(0, 0)
    var hasText: Bool { !glyphs.isEmpty }
}

/// A collision circle of a line label: its center in tile units and its signed distance from the
/// anchor along the line (MapLibre's bboxifyLabel, with the same 0.8 padding factor).
struct LineCircle: Sendable {
    var center: Vec2
    var distance: Double
}

/// The symbols of one layer in one tile, laid out at the tile's zoom. Built once and cached; the
/// per-view work (projection, collision) happens in `SymbolPlacement`.
public struct SymbolTile: Sendable {
    var instances: [SymbolInstance] = []
    var glyphQuads: [GlyphQuad] = []
    var lines: [[Vec2]] = []
    var circles: [LineCircle] = []
    /// Tile units per CSS pixel at the tile's own zoom (MapLibre's tilePixelRatio).
    var tilePixelRatio = 8.0
    var sections: [[TextSection]] = []
    public var features: [VectorFeature] = []
    /// The tile the features are in and their geometry's extent, for `within` and `distance`
    /// in the layer's properties (nil: not known, and those expressions answer false / NaN).
    var canonical: CanonicalTileID?
    var geometryExtent = Double(TileExtent.extent)
    /// symbol-placement.
    var placement = SymbolLayer.Placement.point
    /// text-writing-mode: the orientations point labels try, in order.
    var writingModes: [WritingMode] = [.horizontal]
    public var isEmpty: Bool { instances.isEmpty }
    public var count: Int { instances.count }

    /// Rough bytes held, for cache budgets: the arrays' elements plus a little per nested array
    /// and per feature (its properties and geometry are shared with the decoded tile).
    public var estimatedBytes: Int {
        var n = 256 + instances.count * (MemoryLayout<SymbolInstance>.stride + 64)
            + glyphQuads.count * MemoryLayout<GlyphQuad>.stride + circles.count * MemoryLayout<LineCircle>.stride
            + features.count * MemoryLayout<VectorFeature>.stride
        for line in lines { n += 32 + line.count * MemoryLayout<Vec2>.stride }
        for s in sections { n += 32 + s.count * MemoryLayout<TextSection>.stride }
        return n
    }
}
