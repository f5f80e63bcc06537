/// Explicit bounds on what a request may ask for, so hostile input cannot exhaust the machine.
public struct Limits: Sendable {
    /// Largest image side in pixels (after the pixel ratio).
    public var maxImageSide: Int = 16384
    /// Largest image area in pixels.
    public var maxImagePixels: Int = 16384 * 16384
    /// Pixel ratio range.
    public var pixelRatio: ClosedRange<Double> = 0.1...8
    /// Largest style file in bytes.
    public var maxStyleBytes: Int = 32 << 20

    public init() {}
    public static let `default` = Limits()
}
