import Foundation

/// A rectangle in an atlas, in texels.
public struct AtlasRect: Sendable, Equatable {
    public var x: Int, y: Int, w: Int, h: Int
    public init(x: Int, y: Int, w: Int, h: Int) { self.x = x; self.y = y; self.w = w; self.h = h }
}

/// A grow-only texture atlas on the CPU (shelf packing), shared by the snapshots of one style.
/// Thread-safe; `version` changes whenever pixels are added, so a GL side re-uploads only then.
public final class SymbolAtlas: @unchecked Sendable {
    /// Bytes per texel: 1 for glyph SDFs, 4 for premultiplied RGBA icons.
    public let bytesPerPixel: Int
    public let width: Int
    public private(set) var height: Int
    public let maxHeight: Int
    private var pixels: [UInt8]
    private var shelves: [(y: Int, height: Int, x: Int)] = []
    private var nextY = 0
    public private(set) var version = 0
    private let lock = NSLock()

    public init(bytesPerPixel: Int, width: Int = 1024, height: Int = 256, maxHeight: Int = 4096) {
        precondition(bytesPerPixel == 1 || bytesPerPixel == 4, "atlas texels are 1 or 4 bytes")
        self.bytesPerPixel = bytesPerPixel
        self.width = width; self.height = height; self.maxHeight = maxHeight
        pixels = [UInt8](repeating: 0, count: width * height * bytesPerPixel)
    }

    /// Copies a `w` × `h` bitmap (rows of `w * bytesPerPixel` bytes) in with `padding` empty texels
    /// around it; returns the padded rectangle, or nil when the atlas is full.
    public func add(_ bitmap: [UInt8], w: Int, h: Int, padding: Int) -> AtlasRect? {
        precondition(bitmap.count == w * h * bytesPerPixel, "bitmap size does not match \(w)x\(h)")
        lock.lock(); defer { lock.unlock() }
        let pw = w + 2 * padding, ph = h + 2 * padding
        guard pw <= width else { return nil }
        var slot: (Int, Int)?
        for i in shelves.indices where shelves[i].height >= ph && shelves[i].height <= ph * 2 && shelves[i].x + pw <= width {
            slot = (shelves[i].x, shelves[i].y)
            shelves[i].x += pw
            break
        }
        if slot == nil {
            while nextY + ph > height {
                guard height * 2 <= maxHeight else { return nil }
                pixels.append(contentsOf: [UInt8](repeating: 0, count: width * height * bytesPerPixel))
                height *= 2
            }
            shelves.append((nextY, ph, pw))
            slot = (0, nextY)
            nextY += ph
        }
        guard let (x, y) = slot else { return nil }
        let rowBytes = w * bytesPerPixel
        bitmap.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                for row in 0..<h {
                    let d = ((y + padding + row) * width + x + padding) * bytesPerPixel
                    for i in 0..<rowBytes { dst[d + i] = src[row * rowBytes + i] }
                }
            }
        }
        version += 1
        return AtlasRect(x: x, y: y, w: pw, h: ph)
    }

    /// The pixels as they are now, with their version.
    public func snapshot() -> (version: Int, width: Int, height: Int, pixels: [UInt8]) {
        lock.lock(); defer { lock.unlock() }
        return (version, width, height, pixels)
    }
}
