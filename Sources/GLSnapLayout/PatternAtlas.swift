import Foundation
import GLSnapStyle

/// Where one pattern image lies in the pattern atlas, in texels, without its padding.
public struct PatternPosition: Sendable, Equatable {
    public var x: Int, y: Int, width: Int, height: Int
    /// Device pixels per CSS pixel of the image (2 for an `@2x` sprite).
    public var pixelRatio: Double

    public init(x: Int, y: Int, width: Int, height: Int, pixelRatio: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height; self.pixelRatio = pixelRatio
    }

    /// The image's corners as the pattern shaders take them: top-left x, y, bottom-right x, y.
    public var corners: [Float] { [Float(x), Float(y), Float(x + width), Float(y + height)] }
}

/// The images of `*-pattern` properties, packed for sampling with wrap-around: each image gets a
/// one-texel border copied from its opposite edges (MapLibre's pattern padding), so linear
/// filtering at an image's edge blends with the next repetition instead of its neighbours in the
/// atlas. One per style, shared by its snapshots; thread-safe and grow-only.
public final class PatternAtlas: @unchecked Sendable {
    /// The texels (premultiplied RGBA), uploaded by the renderer when `atlas.version` changes.
    public let atlas = SymbolAtlas(bytesPerPixel: 4, width: 1024, height: 128, maxHeight: 4096)
    private var positions: [String: PatternPosition?] = [:]
    private let lock = NSLock()

    public init() {}

    /// The key of an image as drawn at a device pixel ratio (sprites differ at `@2x`).
    public static func key(name: String, pixelRatio: Double) -> String { "\(name)\u{0}\(pixelRatio)" }

    /// The image's position; `.some(nil)` when it was looked for and is missing, nil when it was
    /// never added.
    public func lookup(_ key: String) -> PatternPosition?? {
        lock.lock(); defer { lock.unlock() }
        return positions[key]
    }

    /// The image's position, nil when it is missing or was never added.
    public func position(_ key: String) -> PatternPosition? {
        lock.lock(); defer { lock.unlock() }
        return positions[key] ?? nil
    }

    /// Adds a premultiplied RGBA image (`width` × `height`) under `key`, or records that it is
    /// missing (`pixels` nil); returns its position (the first one when the key is already there).
    @discardableResult
    public func add(key: String, pixels: [UInt8]?, width: Int, height: Int, pixelRatio: Double) -> PatternPosition? {
        if let known = lookup(key) { return known }
        var position: PatternPosition?
        if let pixels, width > 0, height > 0, pixels.count == width * height * 4,
           let r = atlas.add(Self.wrapPadded(pixels, width: width, height: height), w: width + 2, h: height + 2, padding: 0) {
            position = PatternPosition(x: r.x + 1, y: r.y + 1, width: width, height: height, pixelRatio: pixelRatio)
        }
        lock.lock(); defer { lock.unlock() }
        if let known = positions[key] { return known }
        positions[key] = .some(position)
        return position
    }

    /// The image with a one-texel border on every side holding the opposite edge's texels
    /// (the corners hold the opposite corners), as a tiled repetition would show there.
    ///
    ///     d | c d | c      (a b / c d) padded: each border texel is the texel one image
    ///     --+-----+--      width or height away, wrapped around.
    ///     b | a b | a
    ///     d | c d | c
    ///     --+-----+--
    ///     b | a b | a
    public static func wrapPadded(_ pixels: [UInt8], width w: Int, height h: Int) -> [UInt8] {
        precondition(pixels.count == w * h * 4 && w > 0 && h > 0, "pattern pixels do not match \(w)x\(h)")
        let pw = w + 2, ph = h + 2
        var out = [UInt8](repeating: 0, count: pw * ph * 4)
        for py in 0..<ph {
            let sy = (py - 1 + h) % h
            for px in 0..<pw {
                let sx = (px - 1 + w) % w
                let s = (sy * w + sx) * 4, d = (py * pw + px) * 4
                out[d] = pixels[s]; out[d + 1] = pixels[s + 1]; out[d + 2] = pixels[s + 2]; out[d + 3] = pixels[s + 3]
            }
        }
        return out
    }

    /// The image a `*-pattern` value names, with its SVG color parameters; nil for no image.
    public static func image(_ value: Value) -> (name: String, params: [String: Color])? {
        switch value {
        case .image(let img) where !img.name.isEmpty: return (img.name, img.params)
        case .string(let s) where !s.isEmpty: return (s, [:])
        default: return nil
        }
    }
}
