/// An 8-bit RGBA image, rows top to bottom, straight (not premultiplied) alpha.
public struct RGBAImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// width * height * 4 bytes.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0, "image size must be nonzero")
        precondition(pixels.count == width * height * 4, "pixel buffer does not match \(width)x\(height)")
        self.width = width; self.height = height; self.pixels = pixels
    }

    public init(width: Int, height: Int) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 4))
    }
}
