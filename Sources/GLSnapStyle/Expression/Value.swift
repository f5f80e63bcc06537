import Foundation

/// A runtime value of the expression language.
public enum Value: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case color(Color)
    case array([Value])
    case object([String: Value])
    /// Rich text from `format`.
    case formatted(Formatted)
    /// An image name from `image`, with whether the style's images hold it.
    case image(ResolvedImage)
    case collator(Collator)
    /// Padding values [top, right, bottom, left].
    case padding([Double])

    public init(_ json: JSON) {
        switch json {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let n): self = .number(n)
        case .string(let s): self = .string(s)
        case .array(let a): self = .array(a.map(Value.init))
        case .object(let o): self = .object(o.mapValues(Value.init))
        }
    }

    public var number: Double? { if case .number(let n) = self { return n }; return nil }
    public var string: String? { if case .string(let s) = self { return s }; return nil }
    public var bool: Bool? { if case .bool(let b) = self { return b }; return nil }
    public var color: Color? { if case .color(let c) = self { return c }; return nil }
    public var array: [Value]? { if case .array(let a) = self { return a }; return nil }

    /// The value's runtime type.
    var type: ExprType {
        switch self {
        case .null: return .null
        case .bool: return .boolean
        case .number: return .number
        case .string: return .string
        case .color: return .color
        case .object: return .object
        case .formatted: return .formatted
        case .image: return .resolvedImage
        case .collator: return .collator
        case .padding: return .padding
        case .array(let items):
            var item: ExprType?
            for v in items {
                let t = v.type
                if item == nil { item = t } else if item != t { item = .value; break }
            }
            return .array(item ?? .value, items.count)
        }
    }

    /// The `to-string` conversion.
    var stringified: String {
        switch self {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return formatNumber(n)
        case .string(let s): return s
        case .color(let c): return c.cssString
        case .formatted(let f): return f.sections.map(\.text).joined()
        case .image(let i): return i.name
        case .collator: return ""
        case .padding(let p): return "[" + p.map(formatNumber).joined(separator: ",") + "]"
        case .array, .object: return jsonText
        }
    }

    /// A string as itself, anything else as JSON text (how conversion errors quote values).
    var messageText: String {
        if case .string(let s) = self { return s }
        return jsonText
    }

    /// Compact JSON text (as `JSON.stringify` writes it).
    var jsonText: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n.isFinite ? formatNumber(n) : "null"
        case .string(let s): return JSON.quote(s)
        case .array(let a): return "[" + a.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let o):
            return "{" + o.keys.sorted().map { JSON.quote($0) + ":" + (o[$0] ?? .null).jsonText }.joined(separator: ",") + "}"
        case .color(let c): return JSON.quote(c.cssString)
        default: return JSON.quote(stringified)
        }
    }

    /// Converts back to JSON (colors as `rgba(...)` strings, rich values flattened).
    public var json: JSON {
        switch self {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        case .array(let a): return .array(a.map(\.json))
        case .object(let o): return .object(o.mapValues(\.json))
        case .color(let c): return .string(c.cssString)
        case .padding(let p): return .array(p.map(JSON.number))
        default: return .string(stringified)
        }
    }
}


/// Rich text: sections of text with optional scale, font stack, color or image.
public struct Formatted: Sendable, Equatable {
    public struct Section: Sendable, Equatable {
        public var text: String
        public var image: ResolvedImage?
        public var scale: Double?
        public var fontStack: String?
        public var textColor: Color?
        /// `vertical-align` of the section: "bottom", "center" or "top"; nil for the default.
        public var verticalAlign: String?
    }
    public var sections: [Section]
}

/// An image reference produced by `image`.
public struct ResolvedImage: Sendable, Equatable {
    public var name: String
    public var available: Bool
    /// SVG color parameters from `["image", name, {"params": {...}}]`.
    public var params: [String: Color]
}

/// A string comparison setting from `collator`.
public struct Collator: Sendable, Equatable {
    public var caseSensitive: Bool
    public var diacriticSensitive: Bool
    public var locale: String?

    /// Compares as `Intl.Collator(locale, {sensitivity, usage: "search"})` does: the locale's collation
    /// (ICU through Foundation), German search folding (ä = ae), Swedish/Finnish å ä ö as letters of their own.
    func compare(_ a: String, _ b: String) -> Int {
        let identifier = locale ?? "en_US"
        let language = identifier.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
        var options: String.CompareOptions = []
        if !caseSensitive { options.insert(.caseInsensitive) }
        var x = a, y = b
        if language == "de" { x = Self.germanSearchFold(x); y = Self.germanSearchFold(y) }
        if !diacriticSensitive {
            if language == "sv" || language == "fi" {
                x = Self.stripDiacritics(x, keeping: "åäöÅÄÖ"); y = Self.stripDiacritics(y, keeping: "åäöÅÄÖ")
            } else {
                options.insert(.diacriticInsensitive)
            }
        }
        let loc = Locale(identifier: identifier)
        var r = x.compare(y, options: options, range: nil, locale: loc)
        if r == .orderedSame, language == "de", diacriticSensitive, a != b {
            r = a.compare(b, options: options, range: nil, locale: loc)
        }
        return r == .orderedAscending ? -1 : (r == .orderedSame ? 0 : 1)
    }

    /// German search collation: umlauts sort as the vowel followed by e.
    static func germanSearchFold(_ s: String) -> String {
        guard s.contains(where: { "äöüÄÖÜ".contains($0) }) else { return s }
        var out = ""
        for ch in s {
            switch ch {
            case "ä": out += "ae"
            case "ö": out += "oe"
            case "ü": out += "ue"
            case "Ä": out += "Ae"
            case "Ö": out += "Oe"
            case "Ü": out += "Ue"
            default: out.append(ch)
            }
        }
        return out
    }

    static func stripDiacritics(_ s: String, keeping: String) -> String {
        var out = ""
        for ch in s {
            if keeping.contains(ch) { out.append(ch) } else { out += String(ch).folding(options: .diacriticInsensitive, locale: nil) }
        }
        return out
    }
}
