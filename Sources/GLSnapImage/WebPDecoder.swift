import CWebP

/// Decodes lossy and lossless WebP bytes (still images) into a straight-alpha `RGBAImage` with libwebp.
public struct WebPDecoder: Sendable {
    /// The same limits as PNG: checked from the header before any pixel memory is allocated.
    public var limits: PNGDecoder.Limits

    public init(limits: PNGDecoder.Limits = PNGDecoder.Limits()) { self.limits = limits }

    /// Decodes `bytes`; throws `ImageError.webpDecode` for anything that is not a readable WebP and
    /// `ImageError.imageTooLarge` when the header announces more pixels than `limits` allow.
    public func decode(_ bytes: [UInt8]) throws -> RGBAImage {
        try bytes.withUnsafeBufferPointer { buf -> RGBAImage in
            guard let base = buf.baseAddress, buf.count > 0 else {
                throw ImageError.webpDecode(call: "WebPGetInfo", message: "no bytes")
            }
            var w: Int32 = 0, h: Int32 = 0
            guard WebPGetInfo(base, buf.count, &w, &h) != 0 else {
                throw ImageError.webpDecode(call: "WebPGetInfo", message: "not a WebP image or a broken header")
            }
            let width = Int(w), height = Int(h)
            let (size, overflow) = width.multipliedReportingOverflow(by: height * 4)
            guard width > 0, height > 0, width <= limits.maxDimension, height <= limits.maxDimension,
                  !overflow, size <= limits.maxBytes else {
                throw ImageError.imageTooLarge(width: width, height: height, limits: limits, format: "WebP")
            }
            var pixels = [UInt8](repeating: 0, count: size)
            let ok = pixels.withUnsafeMutableBufferPointer { out in
                WebPDecodeRGBAInto(base, buf.count, out.baseAddress, size, w * 4) != nil
            }
            guard ok else {
                throw ImageError.webpDecode(call: "WebPDecodeRGBAInto", message: "the image data is broken or truncated")
            }
            return RGBAImage(width: width, height: height, pixels: pixels)
        }
    }
}
