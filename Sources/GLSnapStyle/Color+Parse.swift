import Foundation

/// The one CSS color parser: style values, `to-color`, the server's `stroke=`/`fill=`.
///
/// It accepts what MapLibre's `parseCssColor` accepts (CSS Color 4 without `none`, angles other
/// than `deg` or comments): named colors, `transparent`, `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`,
/// `rgb()`/`rgba()` and `hsl()`/`hsla()` with all-comma (`1, 2, 3, 0.5`) or all-space (`1 2 3 / 50%`)
/// arguments. Each component is a CSS number (`12`, `-1.5`, `.5`, `1e3`); `NaN`, `Infinity`, hex
/// floats and numbers too large to be finite are refused, so a parsed `Color` is always finite.
/// Unlike MapLibre, surrounding whitespace is ignored, and a component such as `1e999` is refused
/// where MapLibre clamps its infinity.
extension Color {
    /// Parses a CSS color; nil when `css` is not one (see `init(css:)` for why).
    public static func parse(_ css: String) -> Color? { try? Color(css: css) }

    /// Parses a CSS color. Throws `StyleError.color` naming the value and what is wrong with it.
    public init(css: String) throws {
        let s = css.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        func fail(_ reason: String) -> StyleError { .color(value: css, reason: reason) }
        if s == "transparent" { self = .transparent; return }
        if let hex = namedColors[s] { self = Color.fromHex(hex); return }
        if s.hasPrefix("#") { self = try Color.parseHex(Array(s.utf8.dropFirst()), fail); return }
        guard let open = s.firstIndex(of: "("), s.hasSuffix(")") else {
            throw fail("it is not a color name, #hex, rgb(), rgba(), hsl() or hsla()")
        }
        let fn = s[..<open].trimmingCharacters(in: .whitespaces)
        let inner = Array(s[s.index(after: open)..<s.index(before: s.endIndex)].utf8)
        switch fn {
        case "rgb", "rgba": self = try Color.parseRGB(try ColorArguments(inner, fn: fn, fail), fail)
        case "hsl", "hsla": self = try Color.parseHSL(try ColorArguments(inner, fn: fn, fail), fail)
        default: throw fail("'\(fn.prefix(16))()' is not rgb(), rgba(), hsl() or hsla()")
        }
    }

    static func fromHex(_ v: UInt32) -> Color {
        Color(r: Double((v >> 16) & 0xFF) / 255, g: Double((v >> 8) & 0xFF) / 255, b: Double(v & 0xFF) / 255, a: 1)
    }

    private static func parseHex(_ d: [UInt8], _ fail: (String) -> StyleError) throws -> Color {
        var digits: [Double] = []
        for c in d {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits.append(Double(c - 48))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digits.append(Double(c - 87))
            default: throw fail("'\(String(decoding: [c], as: UTF8.self))' is not a hex digit")
            }
        }
        switch digits.count {
        case 3, 4:
            let a = digits.count == 4 ? digits[3] * 17 / 255 : 1
            return Color(straightR: digits[0] * 17 / 255, g: digits[1] * 17 / 255, b: digits[2] * 17 / 255, a: a)
        case 6, 8:
            func byte(_ i: Int) -> Double { (digits[i] * 16 + digits[i + 1]) / 255 }
            return Color(straightR: byte(0), g: byte(2), b: byte(4), a: digits.count == 8 ? byte(6) : 1)
        default:
            throw fail("a hex color has 3, 4, 6 or 8 digits, not \(digits.count)")
        }
    }

    private static func parseRGB(_ args: ColorArguments, _ fail: (String) -> StyleError) throws -> Color {
        let names = ["red", "green", "blue"]
        var channels: [Double] = []
        for (i, name) in names.enumerated() {
            let c = try args.component(i, name, units: ["%"])
            channels.append(clamp(c.unit == "%" ? c.value / 100 : c.value / 255))
        }
        let units = Set((0..<3).map { args.tokens[$0].hasSuffix("%") })
        guard units.count == 1 else { throw fail("red, green and blue must be all numbers or all percentages") }
        return Color(straightR: channels[0], g: channels[1], b: channels[2], a: try args.alpha())
    }

    private static func parseHSL(_ args: ColorArguments, _ fail: (String) -> StyleError) throws -> Color {
        let hue = try args.component(0, "hue", units: ["deg", ""])
        let s = try args.component(1, "saturation", units: ["%"], required: true)
        let l = try args.component(2, "lightness", units: ["%"], required: true)
        let rgb = hslToRGB(h: hue.value, s: clamp(s.value / 100), l: clamp(l.value / 100))
        return Color(straightR: rgb.0, g: rgb.1, b: rgb.2, a: try args.alpha())
    }

    private static func clamp(_ x: Double) -> Double { min(max(x, 0), 1) }
}

/// The arguments of `rgb()`/`hsl()`: three components and an optional alpha, separated by
/// commas throughout (`1, 2, 3, 0.5`) or by spaces with a slash before the alpha (`1 2 3 / 0.5`).
struct ColorArguments {
    let tokens: [String]
    private let fail: (String) -> StyleError

    init(_ inner: [UInt8], fn: String, _ fail: @escaping (String) -> StyleError) throws {
        self.fail = fail
        var tokens: [String] = [], separators: [UInt8] = []
        var i = 0
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C }
        while i < inner.count {
            // A run of separators: whitespace with at most one comma or slash in it.
            var mark: UInt8?
            let runStart = i
            while i < inner.count, isSpace(inner[i]) || inner[i] == UInt8(ascii: ",") || inner[i] == UInt8(ascii: "/") {
                if !isSpace(inner[i]) {
                    guard mark == nil else { throw fail("two separators in a row in \(fn)()") }
                    mark = inner[i]
                }
                i += 1
            }
            if i == inner.count { guard mark == nil else { throw fail("\(fn)() ends with a separator") }; break }
            if tokens.isEmpty {
                guard mark == nil else { throw fail("\(fn)() starts with a separator") }
            } else {
                guard i > runStart else { throw fail("\(fn)() arguments run together") }
                separators.append(mark ?? UInt8(ascii: " "))
            }
            let start = i
            while i < inner.count, !isSpace(inner[i]), inner[i] != UInt8(ascii: ","), inner[i] != UInt8(ascii: "/") { i += 1 }
            tokens.append(String(decoding: inner[start..<i], as: UTF8.self))
        }
        let format = String(decoding: separators, as: UTF8.self)
        guard ["  ", "  /", ",,", ",,,"].contains(format) else {
            guard tokens.count == 3 || tokens.count == 4 else {
                throw fail("\(fn)() takes three components and an optional alpha, not \(tokens.count) values")
            }
            throw fail("\(fn)() arguments are separated by commas throughout, or by spaces with '/' before the alpha")
        }
        self.tokens = tokens
    }

    /// Component `i` as a finite number and the unit it had (one of `units`; "" is a plain number).
    func component(_ i: Int, _ name: String, units: [String], required: Bool = false) throws -> (value: Double, unit: String) {
        var text = Substring(tokens[i]), unit = ""
        for u in units where !u.isEmpty && text.hasSuffix(u) {
            unit = u; text = text.dropLast(u.count); break
        }
        guard let value = ColorArguments.number(text) else {
            throw fail("its \(name) '\(tokens[i].prefix(24))' is not a number")
        }
        guard value.isFinite else { throw fail("its \(name) '\(tokens[i].prefix(24))' is out of range") }
        if required && unit.isEmpty { throw fail("its \(name) '\(tokens[i].prefix(24))' must be a percentage") }
        return (value, unit)
    }

    /// The alpha in 0...1 (1 when absent).
    func alpha() throws -> Double {
        guard tokens.count == 4 else { return 1 }
        let a = try component(3, "alpha", units: ["%", ""])
        return min(max(a.unit == "%" ? a.value / 100 : a.value, 0), 1)
    }

    /// A CSS number: `[+-]? (digits [. digits*] | . digits) ([eE] [+-]? digits)?`. Spelled out because
    /// `Double(String)` also takes `nan`, `inf` and hex floats.
    static func number(_ s: Substring) -> Double? {
        let b = Array(s.utf8)
        var i = 0
        func digits() -> Int {
            let start = i
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
            return i - start
        }
        if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
        var mantissa = digits()
        if i < b.count, b[i] == UInt8(ascii: ".") { i += 1; mantissa += digits() }
        guard mantissa > 0 else { return nil }
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { return nil }
        }
        guard i == b.count else { return nil }
        return Double(String(s))
    }
}
