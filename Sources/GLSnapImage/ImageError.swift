/// Every failure GLSnapImage reports. Each case prints a sentence a user can act on.
public enum ImageError: Error, Equatable, CustomStringConvertible, Sendable {
    /// libpng refused the bytes: `call` is the libpng function, `message` its own words.
    case pngDecode(call: String, message: String)
    /// The image (`format`: PNG, JPEG or WebP) is larger than the decoder's limits allow.
    case imageTooLarge(width: Int, height: Int, limits: PNGDecoder.Limits, format: String = "PNG")
    /// libpng could not encode the image (`call` names the libpng function).
    case pngEncode(call: String, message: String)
    /// An SVG icon could not be rasterized (`name` is the icon, `reason` what went wrong).
    case svg(name: String, reason: String)
    /// An SVG icon breaks one of `SVGRasterizer.Limits` whatever the scale (entities, elements,
    /// text, embedded images, bytes, time); `name` is the icon. Callers leave the icon out.
    case svgRefused(name: String, reason: String)
    /// libjpeg-turbo refused the bytes: `call` is the TurboJPEG function, `message` its own words.
    case jpegDecode(call: String, message: String)
    /// libjpeg-turbo could not encode.
    case jpegEncode(call: String, message: String)
    /// libwebp could not encode.
    case webpEncode(call: String, message: String)
    /// libwebp refused the bytes.
    case webpDecode(call: String, message: String)
    /// The bytes are not PNG, JPEG or WebP; `prefix` is their start.
    case unknownFormat(prefix: [UInt8])

    public var description: String {
        switch self {
        case let .pngDecode(call, message):
            return "cannot decode PNG: \(call) failed: \(message)"
        case let .imageTooLarge(width, height, limits, format):
            return "\(format) image of \(width)x\(height) pixels exceeds the limit for decoded images of "
                + "\(limits.maxDimension) pixels per side and \(limits.maxBytes) bytes of RGBA"
        case let .pngEncode(call, message):
            return "cannot encode PNG: \(call) failed: \(message)"
        case let .svg(name, reason):
            return "cannot rasterize SVG icon '\(name)': \(reason)"
        case let .svgRefused(name, reason):
            return "SVG icon '\(name)' is left out: \(reason)"
        case let .jpegDecode(call, message):
            return "cannot decode JPEG: \(call) failed: \(message)"
        case let .jpegEncode(call, message):
            return "cannot encode JPEG: \(call) failed: \(message)"
        case let .webpEncode(call, message):
            return "cannot encode WebP: \(call) failed: \(message)"
        case let .webpDecode(call, message):
            return "cannot decode WebP: \(call) failed: \(message)"
        case let .unknownFormat(prefix):
            let hex = prefix.map { String($0, radix: 16) }.joined(separator: " ")
            return "the data is not a PNG, JPEG or WebP image (it starts with bytes \(hex.isEmpty ? "(none)" : hex))"
        }
    }
}
