/// Every failure GLSnapImage reports. Each case prints a sentence a user can act on.
public enum ImageError: Error, Equatable, CustomStringConvertible, Sendable {
    /// libpng refused the bytes: `call` is the libpng function, `message` its own words.
    case pngDecode(call: String, message: String)
    /// The PNG is larger than the decoder's limits allow.
    case imageTooLarge(width: Int, height: Int, limits: PNGDecoder.Limits)
    /// libpng could not encode the image (`call` names the libpng function).
    case pngEncode(call: String, message: String)
    /// An SVG icon could not be rasterized (`name` is the icon, `reason` what went wrong).
    case svg(name: String, reason: String)

    public var description: String {
        switch self {
        case let .pngDecode(call, message):
            return "cannot decode PNG: \(call) failed: \(message)"
        case let .imageTooLarge(width, height, limits):
            return "PNG of \(width)x\(height) pixels exceeds the decoder limit of "
                + "\(limits.maxDimension) pixels per side and \(limits.maxBytes) bytes of RGBA; "
                + "raise PNGDecoder.Limits if the image is trusted"
        case let .pngEncode(call, message):
            return "cannot encode PNG: \(call) failed: \(message)"
        case let .svg(name, reason):
            return "cannot rasterize SVG icon '\(name)': \(reason)"
        }
    }
}
