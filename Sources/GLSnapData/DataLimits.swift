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
}
