/// Explicit limits on what GLSnapData accepts from outside, so a hostile or broken input
/// fails with a clear error instead of exhausting memory.
public enum DataLimits {
    /// The most bytes a compressed tile may inflate to (64 MiB).
    public static let maxInflatedBytes = 64 << 20
    /// The most bytes `ResourceResolver.load` reads from one file (256 MiB).
    public static let maxResourceBytes = 256 << 20
    /// The most bytes of decoded PMTiles leaf directories one archive keeps cached (32 MiB,
    /// least recently used out first). A decoded entry takes 32 bytes, so this holds a million
    /// entries: a planet archive's leaves for a city's views. A count of leaves is no bound: one
    /// leaf may inflate to 16 MiB and decode to 100 MiB (a 4.4 MB hostile archive reached 2.25 GB
    /// of memory through 17 tile requests when 256 leaves were kept).
    public static let pmtilesLeafCacheBytes = 32 << 20
    /// The most values one stream of a MapLibre Tile may decode to, RLE runs expanded (8 Mi; a
    /// dense z14 city tile has well under 1 Mi). Counts are checked before anything is allocated.
    /// The same figure bounds a layer's property cells (features × columns) and, halved, the
    /// vertices its geometry expands to: RLE and vertex dictionaries let a few bytes stand for
    /// millions of values.
    public static let maxMLTStreamValues = 1 << 23
    /// The most features one MapLibre Tile layer may hold (1 Mi; real tiles have under 100 000).
    public static let maxMLTLayerFeatures = 1 << 20
}
