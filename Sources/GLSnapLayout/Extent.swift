import GLSnapData

/// The tile coordinate space every bucket in this module works in.
///
/// MapLibre (GL JS and Native) loads each feature's geometry scaled from the layer's own extent
/// (4096 in most vector tiles) into `EXTENT` = 8192 units across a tile, rounded to integers and
/// clamped to the signed 15-bit range, because the buckets store `x * 2 + bit` in an Int16.
/// glsnap does the same: every `TilePoint` handed to `LineBucket`, `FillBucket` or `CircleBucket`
/// must already be in these units (use `TileExtent.scale`).
public enum TileExtent {
    /// Tile units across one tile (MapLibre's `EXTENT`).
    public static let extent: Int32 = 8192
    /// Smallest coordinate the Int16 vertex formats can hold once doubled.
    public static let minCoordinate: Int32 = -16384
    /// Largest coordinate the Int16 vertex formats can hold once doubled.
    public static let maxCoordinate: Int32 = 16383

    /// Scales one point from a layer extent into `extent` units: `Math.round(v * 8192 / layerExtent)`,
    /// clamped to `minCoordinate...maxCoordinate` (what MapLibre's loadGeometry does).
    /// A non-positive `layerExtent` is treated as 4096.
    @inlinable
    public static func scale(_ p: TilePoint, fromExtent layerExtent: Int) -> TilePoint {
        let e = layerExtent > 0 ? Double(layerExtent) : 4096
        let f = Double(extent) / e
        return TilePoint(x: clampRounded(Double(p.x) * f), y: clampRounded(Double(p.y) * f))
    }

    /// Scales every point of `geometry` (see `scale(_:fromExtent:)`).
    public static func scale(_ geometry: [[TilePoint]], fromExtent layerExtent: Int) -> [[TilePoint]] {
        geometry.map { ring in ring.map { scale($0, fromExtent: layerExtent) } }
    }

    @usableFromInline
    static func clampRounded(_ v: Double) -> Int32 {
        let r = (v + 0.5).rounded(.down)  // JavaScript's Math.round, as loadGeometry
        if r < Double(minCoordinate) { return minCoordinate }
        if r > Double(maxCoordinate) { return maxCoordinate }
        return Int32(r)
    }
}
