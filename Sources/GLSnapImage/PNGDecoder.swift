import CPNG

/// Decodes PNG bytes into an 8-bit straight-alpha `RGBAImage`.
///
/// Uses libpng's simplified API (`png_image_begin_read_from_memory` / `png_image_finish_read`),
/// which reports every error through the `png_image` struct instead of `longjmp`, so corrupt
/// input becomes a thrown `ImageError` and never a crash. Every color type and bit depth
/// (palette, gray, gray+alpha, RGB, 16-bit, tRNS) comes out as RGBA8 in sRGB.
public struct PNGDecoder: Sendable {
    /// Size limits checked from the header before any pixel memory is allocated.
    public struct Limits: Equatable, Sendable {
        /// Largest width or height accepted. Default 16384.
        public var maxDimension: Int
        /// Largest decoded RGBA buffer (width * height * 4) accepted. Default 256 MiB.
        public var maxBytes: Int

        public init(maxDimension: Int = 16384, maxBytes: Int = 256 << 20) {
            precondition(maxDimension > 0 && maxBytes > 0, "PNG limits must be positive")
            self.maxDimension = maxDimension; self.maxBytes = maxBytes
        }
    }

    public var limits: Limits

    public init(limits: Limits = Limits()) { self.limits = limits }

    /// Decodes `bytes`; throws `ImageError.pngDecode` for anything that is not a readable PNG and
    /// `ImageError.imageTooLarge` when the header announces more pixels than `limits` allow.
    public func decode(_ bytes: [UInt8]) throws -> RGBAImage {
        try bytes.withUnsafeBytes { raw -> RGBAImage in
            guard let base = raw.baseAddress, raw.count > 0 else {
                throw ImageError.pngDecode(call: "png_image_begin_read_from_memory", message: "no bytes")
            }
            var image = png_image()
            image.version = UInt32(PNG_IMAGE_VERSION)
            // libpng keeps `base` until finish_read or free: both happen inside this closure.
            guard png_image_begin_read_from_memory(&image, base, raw.count) != 0 else {
                let message = Self.message(of: &image)
                png_image_free(&image)
                throw ImageError.pngDecode(call: "png_image_begin_read_from_memory", message: message)
            }
            let width = Int(image.width), height = Int(image.height)
            let (bytes, overflow) = width.multipliedReportingOverflow(by: height * 4)
            guard width > 0, height > 0, width <= limits.maxDimension, height <= limits.maxDimension,
                  !overflow, bytes <= limits.maxBytes else {
                png_image_free(&image)
                throw ImageError.imageTooLarge(width: width, height: height, limits: limits)
            }
            image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA) // PNG_FORMAT_RGBA (macro not imported)
            var pixels = [UInt8](repeating: 0, count: bytes)
            let ok = pixels.withUnsafeMutableBytes { out in
                png_image_finish_read(&image, nil, out.baseAddress, Int32(width * 4), nil)
            }
            guard ok != 0 else {
                let message = Self.message(of: &image)
                png_image_free(&image)
                throw ImageError.pngDecode(call: "png_image_finish_read", message: message)
            }
            return RGBAImage(width: width, height: height, pixels: pixels)
        }
    }

    /// The NUL-terminated `message` field of a `png_image` as a Swift string.
    static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            let chars = raw.prefix { $0 != 0 }
            let text = String(decoding: chars, as: UTF8.self)
            return text.isEmpty ? "unknown libpng error" : text
        }
    }
}
