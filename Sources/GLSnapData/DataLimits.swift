/// Explicit limits on what GLSnapData accepts from outside, so a hostile or broken input
/// fails with a clear error instead of exhausting memory.
public enum DataLimits {
    /// The most bytes a compressed tile may inflate to (64 MiB).
    public static let maxInflatedBytes = 64 << 20
    /// The most bytes `ResourceResolver.load` reads from one file (256 MiB).
    public static let maxResourceBytes = 256 << 20
}
