import CJPEG

/// Encodes an `RGBAImage` as JPEG through libjpeg-turbo's TurboJPEG API (errors as return codes).
/// JPEG has no alpha: pixels are composited over `background` first, as map servers do.
public struct JPEGEncoder: Sendable {
    /// 1...100.
    public var quality: Int
    /// Straight RGB the image is flattened onto (default white).
    public var background: (r: UInt8, g: UInt8, b: UInt8)

    public init(quality: Int = 90, background: (r: UInt8, g: UInt8, b: UInt8) = (255, 255, 255)) {
        precondition((1...100).contains(quality), "JPEG quality \(quality) is outside 1...100")
        self.quality = quality
        self.background = background
    }

    public func encode(_ image: RGBAImage) throws -> [UInt8] {
        guard let handle = tjInitCompress() else {
            throw ImageError.jpegEncode(call: "tjInitCompress", message: "cannot create a compressor")
        }
        defer { tjDestroy(handle) }
        let rgb = flattened(image)
        var out: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        defer { if let out { tjFree(out) } }
        let rc = rgb.withUnsafeBufferPointer { px in
            tjCompress2(handle, px.baseAddress, Int32(image.width), Int32(image.width * 3), Int32(image.height),
                        Int32(TJPF_RGB.rawValue), &out, &size, Int32(TJSAMP_420.rawValue), Int32(quality), Int32(TJFLAG_FASTDCT))
        }
        guard rc == 0, let out else {
            throw ImageError.jpegEncode(call: "tjCompress2", message: tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error")
        }
        return Array(UnsafeBufferPointer(start: out, count: Int(size)))
    }

    /// RGB with each pixel blended over the background by its alpha.
    private func flattened(_ image: RGBAImage) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: image.width * image.height * 3)
        let bg = [Int(background.r), Int(background.g), Int(background.b)]
        image.pixels.withUnsafeBufferPointer { src in
            rgb.withUnsafeMutableBufferPointer { dst in
                for i in 0..<(image.width * image.height) {
                    let a = Int(src[i * 4 + 3])
                    for c in 0..<3 {
                        dst[i * 3 + c] = UInt8((Int(src[i * 4 + c]) * a + bg[c] * (255 - a) + 127) / 255)
                    }
                }
            }
        }
        return rgb
    }
}
