import GLSnapStyle

/// The source types of style spec v8.
public enum SourceType: String, Sendable {
    case vector, raster, geojson, image, video
    case rasterDEM = "raster-dem"
}

/// Tile scheme: XYZ (y down, the default) or TMS (y up).
public enum TileScheme: String, Sendable {
    case xyz, tms
}

/// What a renderer needs to know of a source before asking for tiles.
public struct SourceInfo: Sendable {
    public var type: SourceType
    public var minzoom: Int
    public var maxzoom: Int
    /// Tile size in CSS pixels (512 for vector tiles and GeoJSON, 512 or 256 for raster).
    public var tileSize: Int
    /// West, south, east, north in degrees; tiles outside are never requested.
    public var bounds: [Double]?
    public var scheme: TileScheme
    public var attribution: String?
    /// How vector tiles are encoded (the style's `encoding`: `mvt`, the default, or `mlt`).
    public var vectorEncoding: VectorTileEncoding = .mvt

    public init(type: SourceType, minzoom: Int = 0, maxzoom: Int = 22, tileSize: Int = 512,
                bounds: [Double]? = nil, scheme: TileScheme = .xyz, attribution: String? = nil) {
        self.type = type; self.minzoom = minzoom; self.maxzoom = maxzoom; self.tileSize = tileSize
        self.bounds = bounds; self.scheme = scheme; self.attribution = attribution
    }
}

/// A source of tiles. Implementations are safe to call from several threads.
public protocol TileSource: AnyObject, Sendable {
    var info: SourceInfo { get }
    /// The decoded vector tile at `id` (for vector and GeoJSON sources); nil when the source has
    /// no tile there (a missing tile renders as empty). Throws when a tile exists but is broken.
    func vectorTile(_ id: TileID) throws -> VectorTile?
    /// The encoded image bytes at `id` (for raster sources); nil when there is no tile.
    func rasterTile(_ id: TileID) throws -> [UInt8]?
    /// Where tile `id` (of the `@2x` set when `highDensity`) is read from (a file path or URL)
    /// for error messages, or nil.
    func tileLocation(_ id: TileID, highDensity: Bool) -> String?
    /// Whether the source has a second set of raster tiles for screens of pixel ratio 2 and
    /// more (a `{ratio}` in its URL template, filled with `@2x`).
    var hasHighDensityTiles: Bool { get }
    /// The encoded image at `id`, from the `@2x` set when `highDensity` and the source has one.
    func rasterTile(_ id: TileID, highDensity: Bool) throws -> [UInt8]?
}

extension TileSource {
    /// Where tile `id` is read from (a file path or URL) for error messages; nil when the
    /// source's name says enough (one MBTiles or PMTiles file).
    public func tileLocation(_ id: TileID, highDensity: Bool) -> String? { nil }

    public var hasHighDensityTiles: Bool { false }

    public func rasterTile(_ id: TileID, highDensity: Bool) throws -> [UInt8]? { try rasterTile(id) }
}
