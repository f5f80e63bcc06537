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
    public init(layer: StyleLayer, source: String?, tiles: [FrameTile]) { self.layer = layer; self.source = source; self.tiles = tiles }
}

/// Everything the GL step needs for one image, prepared on the CPU.
public struct Frame {
    public var transform: Transform
    public var pixelRatio: Double
    /// Image size in pixels.
    public var width: Int
    public var height: Int
    public var layers: [FrameLayer]
    /// Changes whenever the style changes, so cached per-vertex paint is not reused across styles.
    public var styleGeneration: Int
    /// The style's `light` object (null for the default light), for fill-extrusion shading.
    public var light: JSON = .null

    public init(transform: Transform, pixelRatio: Double, width: Int, height: Int, layers: [FrameLayer], styleGeneration: Int) {
        self.transform = transform; self.pixelRatio = pixelRatio; self.width = width; self.height = height
        self.layers = layers; self.styleGeneration = styleGeneration
    }
}
