import CWebP

/// Encodes an `RGBAImage` as WebP through libwebp (lossy with alpha, or lossless).
public struct WebPEncoder: Sendable {
    /// 0...100 for lossy encoding.
    public var quality: Float
    public var lossless: Bool

    public init(quality: Float = 90, lossless: Bool = false) {
        precondition((0...100).contains(quality), "WebP quality \(quality) is outside 0...100")
        self.quality = quality
        self.lossless = lossless
    }

    public func encode(_ image: RGBAImage) throws -> [UInt8] {
        // libwebp's simple API takes at most 16383 pixels a side.
        guard image.width <= 16383, image.height <= 16383 else {
            throw ImageError.webpEncode(call: "WebPEncodeRGBA", message: "\(image.width)x\(image.height) is over WebP's 16383 pixels a side")
        }
        var out: UnsafeMutablePointer<UInt8>?
        let size = image.pixels.withUnsafeBufferPointer { px -> Int in
            lossless
                ? WebPEncodeLosslessRGBA(px.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width * 4), &out)
                : WebPEncodeRGBA(px.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width * 4), quality, &out)
        }
        defer { if let out { WebPFree(out) } }
        guard size > 0, let out else {
            throw ImageError.webpEncode(call: lossless ? "WebPEncodeLosslessRGBA" : "WebPEncodeRGBA", message: "encoding failed")
        }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }
}
