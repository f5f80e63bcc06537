import GLSnapImage

/// Explicit bounds on what a request may ask for, so hostile input cannot exhaust the machine.
public struct Limits: Sendable {
    /// Largest image side in pixels (after the pixel ratio), for images streamed in bands.
    public var maxImageSide: Int = 65535
    /// Largest image held in memory whole (`Snapshotter.snapshot`), in pixels: 1 GiB of RGBA.
    public var maxImagePixels: Int = 16384 * 16384
    /// Largest piece drawn at once; larger images are drawn in pieces of at most this size (and
    /// never beyond the GL driver's framebuffer limit).
    public var pieceSize: Int = 4096
    /// Largest band of rows held at once while streaming an image (bands are full width, so very
    /// wide images get shorter bands).
    public var maxBandBytes: Int = 256 << 20
    /// Pixel ratio range (default 0.1...32). The image's pixels are bounded by `maxImageSide` and
    /// `maxImagePixels` whatever the ratio; GL JS and MapLibre Native draw ratios past 8 (GL JS's
    /// render test `regressions/mapbox-gl-js#7066` is drawn at 10).
    public var pixelRatio: ClosedRange<Double> = 0.1...32
    /// Byte budgets of the caches shared by a snapshotter's snapshots (estimated sizes): decoded
    /// vector tiles, tessellated tile layers, decoded raster tiles, laid-out symbols of tile layers.
    public var tileCacheBytes: Int = 256 << 20
    /// See `tileCacheBytes` (default 384 MiB).
    public var geometryCacheBytes: Int = 384 << 20
    /// See `tileCacheBytes` (default 256 MiB).
    public var rasterCacheBytes: Int = 256 << 20
    /// See `tileCacheBytes` (default 128 MiB).
    public var symbolCacheBytes: Int = 128 << 20
    /// Largest style file in bytes.
    public var maxStyleBytes: Int = 32 << 20
    /// Limits on each SVG icon of a sprite folder (bytes, entity expansion, elements, text,
    /// embedded images, time; `SVGRasterizer.Limits` gives the defaults and why): an icon over one
    /// is left out, with a warning naming it, and the map still renders.
    public var svg = SVGRasterizer.Limits()
    /// Most layers a style may have, refused when the style is loaded. Default 10,000; the
    /// styles of ../shared/fixtures have at most 123.
    public var maxStyleLayers: Int = 10_000
    /// Most vertices plus indices one tile layer may tessellate into (the budget is per tile
    /// layer, the unit tessellated and cached). Default 4 Mi (about 40 MiB of buffers); the
    /// largest tile layer in the maps of ../shared/maps has 296,226 (Bangkok's z12 minor roads).
    /// A tile layer over it is a tile error (see `MapSnapshotOptions.sourceErrors`) naming
    /// source, tile and layer.
    public var maxTileGeometry: Int = 4 << 20
    /// Most vertices plus indices of all tile layers of one snapshot (of one piece, for images
    /// drawn in pieces). Default 64 Mi; the maps of ../shared/maps need at most 1.75 M, and a
    /// 4096x4096 piece of the densest of them (Bangkok z13) 5.9 M. The tile layer that passes
    /// it is a tile error.
    public var maxSnapshotGeometry: Int = 64 << 20
    /// Earcut steps (ear tests and ring nodes visited) per polygon vertex, at least 2^20 a
    /// polygon: bounds the time of self-intersecting polygons, whose splitting is cubic.
    /// Default 1,000; the polygons of ../shared/maps take at most 114 a vertex (25 for the
    /// largest, of 878 vertices). A polygon over it is a tile error naming the layer.
    public var triangulationStepsPerVertex: Int = 1000
    /// Most positions of a GeoJSON source, refused when the source is read. Default 4 million
    /// (a 3-million-point line renders within about 710 MiB in all); a source over it is a
    /// source error.
    public var maxGeoJSONPositions: Int = 4_000_000
    /// Largest decoded raster or raster-dem tile in pixels. Default 2048x2048 (4 times a 512
    /// @2x tile); a tile over it is a tile error (drawn around with a warning by default).
    public var maxRasterTilePixels: Int = 2048 * 2048
    /// Seconds a snapshot may take before it stops (between layers, tiles and pieces) with
    /// `GLSnapError.timedOut`; nil (default): no limit.
    public var snapshotTimeLimit: Double?
    /// Most tiles a side of one metatile of `glsnap tiles` (`TilePyramid.metatile`). Default 16:
    /// 16 × 512 px at ratio 2 is 16384 pixels, drawn in pieces of `pieceSize`.
    public var maxMetatile: Int = 16
    /// Pixels a side of a tile pyramid's placement block: labels of a level are placed at once
    /// over a block, and a level larger than one is cut into blocks aligned to the tile grid
    /// (see `PyramidRenderer`). Default 32768: 64 tiles of 512 px; the labels of a z15 level
    /// over a city (20 × 24 tiles for the Chicago fixture) are placed in one.
    public var tilePlacementBlock: Int = 32768

    /// The default limits (each as its declaration gives).
    public init() {}
    /// The default limits.
    public static let `default` = Limits()
}
