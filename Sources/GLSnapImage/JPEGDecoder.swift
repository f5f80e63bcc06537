import CJPEG

/// Decodes baseline and progressive JPEG bytes into an opaque `RGBAImage` through libjpeg-turbo's
/// TurboJPEG API, which reports errors as return codes (no `longjmp` across Swift frames).
public struct JPEGDecoder: Sendable {
    /// The same limits as PNG: checked from the header before any pixel memory is allocated.
    public var limits: PNGDecoder.Limits

    public init(limits: PNGDecoder.Limits = PNGDecoder.Limits()) { self.limits = limits }

    /// Decodes `bytes`; throws `ImageError.jpegDecode` for anything that is not a readable JPEG and
    /// `ImageError.imageTooLarge` when the header announces more pixels than `limits` allow.
    public func decode(_ bytes: [UInt8]) throws -> RGBAImage {
        guard let handle = tjInitDecompress() else {
            throw ImageError.jpegDecode(call: "tjInitDecompress", message: "cannot create a decompressor")
        }
        defer { tjDestroy(handle) }
        return try bytes.withUnsafeBufferPointer { buf -> RGBAImage in
            guard let base = buf.baseAddress, buf.count > 0, buf.count <= Int(UInt32.max) else {
                throw ImageError.jpegDecode(call: "tjDecompressHeader3", message: "no bytes")
            }
            var w: Int32 = 0, h: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
            guard tjDecompressHeader3(handle, base, UInt(buf.count), &w, &h, &subsampling, &colorspace) == 0 else {
                throw ImageError.jpegDecode(call: "tjDecompressHeader3", message: Self.message(handle))
            }
            let width = Int(w), height = Int(h)
            guard width > 0, height > 0 else {
                throw ImageError.jpegDecode(call: "tjDecompressHeader3", message: "the header gives no image size (truncated data?)")
            }
            let (size, overflow) = width.multipliedReportingOverflow(by: height * 4)
            guard width > 0, height > 0, width <= limits.maxDimension, height <= limits.maxDimension,
                  !overflow, size <= limits.maxBytes else {
                throw ImageError.imageTooLarge(width: width, height: height, limits: limits, format: "JPEG")
            }
            var pixels = [UInt8](repeating: 255, count: size)
            let rc = pixels.withUnsafeMutableBufferPointer { out in
                tjDecompress2(handle, base, UInt(buf.count), out.baseAddress, w, w * 4, h, Int32(TJPF_RGBA.rawValue), 0)
            }
            // A warning (e.g. premature end of data) still fills the image; only fatal errors throw.
            guard rc == 0 || tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) else {
                throw ImageError.jpegDecode(call: "tjDecompress2", message: Self.message(handle))
            }
            return RGBAImage(width: width, height: height, pixels: pixels)
        }
    }

    static func message(_ handle: tjhandle) -> String {
        guard let s = tjGetErrorStr2(handle) else { return "unknown libjpeg-turbo error" }
        return String(cString: s)
    }
}
