import GLSnapLayout
import GLSnapStyle

/// One tile of a layer to draw: where (the covered tile) and what (its geometry, if any).
public struct FrameTile {
    public var tile: CoveredTile
    public var geometry: GeometryBox?
    /// The tile's image, for raster, raster-dem and image-source layers.
    public var raster: RasterBox?
    public init(tile: CoveredTile, geometry: GeometryBox?, raster: RasterBox? = nil) {
        self.tile = tile; self.geometry = geometry; self.raster = raster
    }
}

/// A style layer with its tiles, in draw order.
public struct FrameLayer {
    public var layer: StyleLayer
    /// The source the tiles come from (nil for background).
    public var source: String?
    public var tiles: [FrameTile]
    /// Symbol layers: what placement kept for this view, ready to draw.
    public var symbols: SymbolDrawData? = nil
    public init(layer: StyleLayer, source: String?, tiles: [FrameTile]) { self.layer = layer; self.source = source; self.tiles = tiles }
}

/// A rectangle of the image in pixels, from the top-left corner.
public struct PixelRect: Equatable, Sendable {
    public var x, y, width, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) { self.x = x; self.y = y; self.width = width; self.height = height }
}

/// Everything the GL step needs for one image, or one piece of a larger one, prepared on the CPU.
///
/// A piece is drawn through a sub-frustum of the one camera: clip space is scaled and moved so the
/// piece's rectangle fills the framebuffer, and every screen-space uniform uses the piece's size.
/// Stitched pieces therefore equal what one huge framebuffer would show.
public struct Frame {
    public var transform: Transform
    public var pixelRatio: Double
    /// The whole image in pixels.
    public var imageWidth: Int
    public var imageHeight: Int
    /// The part of the image this frame draws (the framebuffer's size); all of it by default.
    public var piece: PixelRect
    public var layers: [FrameLayer]
    /// Changes whenever the style changes, so cached per-vertex paint is not reused across styles.
    public var styleGeneration: Int
    /// Per layer id, a generation that changes when the layer's paint may have changed (a runtime
    /// paint edit changes only its layer's); layers not named use `styleGeneration`.
    public var paintGenerations: [String: Int] = [:]
    /// The style's `light` properties (`Style.lightProperties()`; empty: the default light), for
    /// fill-extrusion shading.
    public var lightProperties: [String: PropertyValue] = [:]
    /// The images of the frame's `*-pattern` properties (resolved before drawing; nil when none).
    public var patterns: PatternAtlas?
    /// The style's `sky` at the frame's zoom (nil: none), drawn above the horizon.
    public var sky: Sky?
    /// Feature states, for paint properties that read `feature-state`.
    public var featureStates = FeatureStates()
    /// When drawing stops (checked between layers); nil: never.
    public var deadline: RenderDeadline?
    /// The 3D terrain the layers are draped on (nil: the map is flat).
    public var terrain: TerrainFrame?
    /// Custom layers (`CustomLayer`), each with the place among `layers` it is drawn at.
    public var customLayers: [FrameCustomLayer] = []
    /// The globe viewport-aligned circles are drawn on, facing the screen at their projected
    /// centers (the globe's screen pass; nil: the flat map).
    public var globe: GlobeView?
    /// For the flat texture under a globe view, the globe's camera (Frame+Globe.swift); nil otherwise.
    public var globeCamera: GlobeCamera?
    /// Draws the overdraw inspector instead of the map's colors (`OverdrawInspector`).
    public var overdrawInspector = false

    /// The generation that cached per-vertex paint and color ramps of `layer` are keyed by.
    public func paintGeneration(_ layer: String) -> Int { paintGenerations[layer] ?? styleGeneration }

    /// Framebuffer size in pixels.
    public var width: Int { piece.width }
    public var height: Int { piece.height }

    public init(transform: Transform, pixelRatio: Double, width: Int, height: Int, piece: PixelRect? = nil,
                layers: [FrameLayer], styleGeneration: Int) {
        self.transform = transform; self.pixelRatio = pixelRatio; self.imageWidth = width; self.imageHeight = height
        self.piece = piece ?? PixelRect(x: 0, y: 0, width: width, height: height)
        self.layers = layers; self.styleGeneration = styleGeneration
    }

    /// How many times larger the image is than the piece, per axis (1 for a whole-image frame).
    public var pieceScale: (x: Double, y: Double) {
        (Double(imageWidth) / Double(piece.width), Double(imageHeight) / Double(piece.height))
    }

    /// From the whole image's normalized device coordinates to the piece's: subtract the piece's
    /// center, then scale (identity for a whole-image frame).
    public var pieceClipTransform: (scaleX: Double, scaleY: Double, centerX: Double, centerY: Double) {
        let (sx, sy) = pieceScale
        // The piece's center in the image's normalized device coordinates (y up).
        let cx = (Double(piece.x) + Double(piece.width) / 2) / Double(imageWidth) * 2 - 1
        let cy = 1 - (Double(piece.y) + Double(piece.height) / 2) / Double(imageHeight) * 2
        return (sx, sy, cx, cy)
    }

    /// `m` (into the whole image's clip space) followed by the move into the piece's clip space.
    public func pieceMatrix(_ m: [Float]) -> [Float] {
        guard piece.width != imageWidth || piece.height != imageHeight || piece.x != 0 || piece.y != 0 else { return m }
        let (sx, sy, cx, cy) = pieceClipTransform
        var out = m
        for col in 0..<4 {
            let x = Double(m[col * 4]), y = Double(m[col * 4 + 1]), w = Double(m[col * 4 + 3])
            out[col * 4] = Float(sx * (x - cx * w))
            out[col * 4 + 1] = Float(sy * (y - cy * w))
        }
        return out
    }
}
