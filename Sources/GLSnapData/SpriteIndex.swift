import GLSnapStyle

/// How a stretchable image's box follows its text along one axis (a sprite entry's
/// `textFitWidth` / `textFitHeight`): to any size, only larger, or keeping the content box's
/// aspect ratio.
public enum TextFit: String, Sendable, Equatable {
    case stretchOrShrink, stretchOnly, proportional
}

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
    /// How icon-text-fit keeps the content box's aspect ratio (nil: stretchOrShrink).
    public var textFitWidth: TextFit?
    public var textFitHeight: TextFit?

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
            entry.textFitWidth = item["textFitWidth"]?.stringValue.flatMap(TextFit.init(rawValue:))
            entry.textFitHeight = item["textFitHeight"]?.stringValue.flatMap(TextFit.init(rawValue:))
            for problem in entry.validateStretch() { problems.append("sprite '\(url)': image '\(name)': \(problem)") }
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

extension SpriteEntry {
    /// Drops stretch zones and a content box that icon-text-fit cannot use (outside the image,
    /// overlapping, out of order, or all of zero length) and says why, so that a sprite's
    /// mistakes are reported once, when it is read, and drawing never divides by a zero zone.
    public mutating func validateStretch() -> [String] {
        var problems: [String] = []
        func check(_ zones: [ClosedRange<Double>], _ key: String, _ size: Int) -> [ClosedRange<Double>] {
            guard !zones.isEmpty else { return [] }
            var end = 0.0
            for z in zones {
                guard z.lowerBound.isFinite, z.upperBound.isFinite, z.lowerBound >= end, z.upperBound <= Double(size) else {
                    problems.append("\(key) \(zones.map { [$0.lowerBound, $0.upperBound] }) must be ordered, not overlapping, within 0...\(size); ignored")
                    return []
                }
                end = z.upperBound
            }
            if zones.allSatisfy({ $0.upperBound == $0.lowerBound }) {
                problems.append("\(key) has only zero-length zones; ignored")
                return []
            }
            return zones.filter { $0.upperBound > $0.lowerBound }
        }
        stretchX = check(stretchX, "stretchX", width)
        stretchY = check(stretchY, "stretchY", height)
        if let c = content, !(c.allSatisfy(\.isFinite) && c[0] >= 0 && c[1] >= 0 && c[2] > c[0] && c[3] > c[1]
                              && c[2] <= Double(width) && c[3] <= Double(height)) {
            problems.append("content \(c) is not a box inside the \(width)x\(height) image; ignored")
            content = nil
        }
        return problems
    }
}
