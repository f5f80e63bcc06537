import GLSnapStyle

/// One image of a sprite sheet: where it sits in the PNG and how it is drawn.
public struct SpriteEntry: Sendable, Equatable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    /// Device pixels per CSS pixel of the image (2 in an `@2x` sheet).
    public var pixelRatio: Double
    /// The image is a signed-distance field recolored by `icon-color`.
    public var sdf: Bool
    /// Stretchable ranges in image pixels, for `icon-text-fit`.
    public var stretchX: [ClosedRange<Double>]
    public var stretchY: [ClosedRange<Double>]
    /// The text box inside the image [left, top, right, bottom], in image pixels.
    public var content: [Double]?

    public init(x: Int, y: Int, width: Int, height: Int, pixelRatio: Double, sdf: Bool = false,
                stretchX: [ClosedRange<Double>] = [], stretchY: [ClosedRange<Double>] = [], content: [Double]? = nil) {
        self.x = x; self.y = y; self.width = width; self.height = height; self.pixelRatio = pixelRatio
        self.sdf = sdf; self.stretchX = stretchX; self.stretchY = stretchY; self.content = content
    }
}

/// Why a sprite could not be used.
public enum SpriteError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidIndex(url: String, reason: String)

    public var description: String {
        switch self {
        case let .invalidIndex(url, reason): return "sprite index '\(url)': \(reason)"
        }
    }
}

/// Parses a sprite's JSON index. Entries that do not fit inside a `sheetWidth` × `sheetHeight` PNG,
/// or lack a size, are dropped and named in `problems`.
public enum SpriteIndex {
    public static func parse(_ bytes: [UInt8], url: String, sheetWidth: Int, sheetHeight: Int,
                             problems: inout [String]) throws -> [String: SpriteEntry] {
        let json: JSON
        do { json = try JSON.parse(bytes) } catch {
            throw SpriteError.invalidIndex(url: url, reason: "not JSON (\(error))")
        }
        guard case .object(let items) = json else {
            throw SpriteError.invalidIndex(url: url, reason: "the top level must be an object of images")
        }
        var out: [String: SpriteEntry] = [:]
        for (name, item) in items {
            guard let x = int(item["x"]), let y = int(item["y"]), let w = int(item["width"]), let h = int(item["height"]),
                  x >= 0, y >= 0, w > 0, h > 0, x + w <= sheetWidth, y + h <= sheetHeight else {
                problems.append("sprite '\(url)': image '\(name)' has no size or lies outside the \(sheetWidth)x\(sheetHeight) sheet; skipped")
                continue
            }
            let ratio = item["pixelRatio"]?.numberValue ?? 1
            var entry = SpriteEntry(x: x, y: y, width: w, height: h, pixelRatio: ratio > 0 && ratio.isFinite ? ratio : 1,
                                    sdf: item["sdf"]?.boolValue ?? false)
            entry.stretchX = ranges(item["stretchX"])
            entry.stretchY = ranges(item["stretchY"])
            if let c = item["content"]?.arrayValue?.compactMap(\.numberValue), c.count == 4 { entry.content = c }
            out[name] = entry
        }
        return out
    }

    private static func int(_ j: JSON?) -> Int? {
        guard let n = j?.numberValue, n.isFinite, abs(n) < 1e7 else { return nil }
        return Int(n)
    }

    private static func ranges(_ j: JSON?) -> [ClosedRange<Double>] {
        guard let a = j?.arrayValue else { return [] }
        return a.compactMap { r in
            guard let p = r.arrayValue?.compactMap(\.numberValue), p.count == 2, p[0] <= p[1] else { return nil }
            return p[0]...p[1]
        }
    }
}
