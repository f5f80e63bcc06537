/// Decodes an encoded image of any supported format (PNG, JPEG, WebP), chosen by its magic bytes,
/// not by a file name or content type (tile servers often get those wrong).
public struct ImageDecoder: Sendable {
    public enum Format: String, Sendable { case png, jpeg, webp }

    public var limits: PNGDecoder.Limits

    public init(limits: PNGDecoder.Limits = PNGDecoder.Limits()) { self.limits = limits }

    /// The format `bytes` start like, or nil.
    public static func format(of bytes: [UInt8]) -> Format? {
        if bytes.count >= 8, bytes[0] == 0x89, bytes[1] == 0x50, bytes[2] == 0x4E, bytes[3] == 0x47 { return .png }
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF { return .jpeg }
        if bytes.count >= 12, bytes[0] == 0x52, bytes[1] == 0x49, bytes[2] == 0x46, bytes[3] == 0x46,
           bytes[8] == 0x57, bytes[9] == 0x45, bytes[10] == 0x42, bytes[11] == 0x50 { return .webp }
        return nil
    }

    /// Decodes `bytes` to straight-alpha RGBA8. Throws `ImageError.unknownFormat` (with the first
    /// bytes) when they are none of the supported formats, or the format decoder's error.
    public func decode(_ bytes: [UInt8]) throws -> RGBAImage {
        switch Self.format(of: bytes) {
        case .png?: return try PNGDecoder(limits: limits).decode(bytes)
        case .jpeg?: return try JPEGDecoder(limits: limits).decode(bytes)
        case .webp?: return try WebPDecoder(limits: limits).decode(bytes)
        case nil: throw ImageError.unknownFormat(prefix: Array(bytes.prefix(8)))
        }
    }
}
