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
    /// Pixel ratio range.
    public var pixelRatio: ClosedRange<Double> = 0.1...8
    /// Byte budgets of the caches shared by a snapshotter's snapshots (estimated sizes): decoded
    /// vector tiles, tessellated tile layers, decoded raster tiles, laid-out symbols of tile layers.
    public var tileCacheBytes: Int = 256 << 20
    public var geometryCacheBytes: Int = 384 << 20
    public var rasterCacheBytes: Int = 256 << 20
    public var symbolCacheBytes: Int = 128 << 20
    /// Largest style file in bytes.
    public var maxStyleBytes: Int = 32 << 20
    /// Limits on each SVG icon of a sprite folder (bytes, entity expansion, elements, text,
    /// embedded images, time; `SVGRasterizer.Limits` gives the defaults and why): an icon over one
    /// is left out, with a warning naming it, and the map still renders.
    public var svg = SVGRasterizer.Limits()

    public init() {}
    public static let `default` = Limits()
}
