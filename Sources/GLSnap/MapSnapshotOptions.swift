import GLSnapGL

/// What a snapshot is: its size in points, its pixel ratio, and the GL backend to draw with.
/// The image is floor(width × pixelRatio) × floor(height × pixelRatio) pixels.
public struct MapSnapshotOptions: Sendable {
    public var size: Size
    /// 1, 2, 3 or fractional (e.g. 1.5).
    public var pixelRatio: Double
    /// The GL backend: `.osmesa` (default) needs no display and no EGL.
    public var backend: Backend
    public var limits: Limits

    public init(size: Size, pixelRatio: Double = 1, backend: Backend = .osmesa, limits: Limits = .default) {
        self.size = size; self.pixelRatio = pixelRatio; self.backend = backend; self.limits = limits
    }

    /// The image size in pixels, or an error naming what is out of range.
    public func pixelSize() throws -> (width: Int, height: Int) {
        guard size.width.isFinite, size.height.isFinite, size.width > 0, size.height > 0 else {
            throw GLSnapError.invalidOptions("size \(size.width)x\(size.height) must be positive")
        }
        guard pixelRatio.isFinite, limits.pixelRatio.contains(pixelRatio) else {
            throw GLSnapError.invalidOptions("pixel ratio \(pixelRatio) is outside \(limits.pixelRatio.lowerBound)...\(limits.pixelRatio.upperBound)")
        }
        let w = (size.width * pixelRatio).rounded(.down), h = (size.height * pixelRatio).rounded(.down)
        guard w >= 1, h >= 1 else {
            throw GLSnapError.invalidOptions("size \(size.width)x\(size.height) at ratio \(pixelRatio) is less than one pixel")
        }
        guard w <= Double(limits.maxImageSide), h <= Double(limits.maxImageSide), w * h <= Double(limits.maxImagePixels) else {
            throw GLSnapError.invalidOptions("image \(Int(w))x\(Int(h)) pixels exceeds the limit of \(limits.maxImageSide) pixels per side")
        }
        return (Int(w), Int(h))
    }
}
