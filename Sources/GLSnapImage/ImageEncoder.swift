/// An image format glsnap writes: PNG, JPEG or WebP.
public enum ImageFormat: String, Sendable, Equatable, CaseIterable {
    case png, jpeg, webp

    /// The format a name or file extension gives: `png`, `jpeg` or `jpg`, `webp`, in any case;
    /// nil for anything else.
    public init?(name: some StringProtocol) {
        switch name.lowercased() {
        case "png": self = .png
        case "jpeg", "jpg": self = .jpeg
        case "webp": self = .webp
        default: return nil
        }
    }

    /// `image/png`, `image/jpeg`, `image/webp`.
    public var contentType: String { "image/\(rawValue)" }

    /// The qualities the format accepts: JPEG 1...100, WebP 0...100; nil for PNG (lossless).
    public var qualities: ClosedRange<Int>? {
        switch self {
        case .png: return nil
        case .jpeg: return 1...100
        case .webp: return 0...100
        }
    }

    /// The name tile archives record (`jpg` for JPEG, as MBTiles writes it).
    public var archiveName: String { self == .jpeg ? "jpg" : rawValue }
}

/// Encodes images in one format with its options: what every front end (the command line, the
/// HTTP server, the C ABI) calls, so that a format and its settings mean the same bytes everywhere.
public struct ImageEncoder: Sendable, Equatable {
    /// The JPEG and WebP quality the encoders default to.
    public static let defaultQuality = 90

    public let format: ImageFormat
    /// PNG's zlib level and filters (PNG only).
    public let png: PNGEncoder.Options
    /// JPEG's or WebP's quality, in `format.qualities` (lossy formats only).
    public let quality: Int

    /// `quality` must lie in `format.qualities` (a programmer error otherwise: front ends check what they read).
    public init(format: ImageFormat, png: PNGEncoder.Options = .standard, quality: Int = ImageEncoder.defaultQuality) {
        if let range = format.qualities {
            precondition(range.contains(quality), "\(format.rawValue) quality \(quality) is outside \(range)")
        }
        self.format = format; self.png = png; self.quality = quality
    }

    /// The encoded file's bytes.
    public func encode(_ image: RGBAImage) throws -> [UInt8] {
        switch format {
        case .png: return try PNGEncoder(options: png).encode(image)
        case .jpeg: return try JPEGEncoder(quality: quality).encode(image)
        case .webp: return try WebPEncoder(quality: Float(quality)).encode(image)
        }
    }
}

extension PNGEncoder.Options {
    /// The zlib levels PNG accepts.
    public static let levels = 0...9

    /// `level` with the filters that pay at it: none up to level 2 (the fast path, `FastPNG`;
    /// filtering there made map images larger and slower), libpng's adaptive choice above.
    public init(level: Int) {
        self.init(compressionLevel: level, filter: level <= 2 ? .none : .all)
    }
}
