import Foundation

/// An RGBA color, premultiplied by alpha, each channel in 0...1 (as MapLibre stores colors).
public struct Color: Hashable, Sendable {
    public var r: Double, g: Double, b: Double, a: Double
    /// The straight channels of a fully transparent color, which premultiplying loses; they matter
    /// when interpolating towards it (red to transparent blue passes through purple). Not compared.
    var clearR = 0.0, clearG = 0.0, clearB = 0.0

    /// Premultiplied channels.
    public init(r: Double, g: Double, b: Double, a: Double) { self.r = r; self.g = g; self.b = b; self.a = a }

    /// Builds a color from straight (not premultiplied) channels in 0...1.
    public init(straightR r: Double, g: Double, b: Double, a: Double) {
        self.init(r: r * a, g: g * a, b: b * a, a: a)
        if a == 0 { clearR = r; clearG = g; clearB = b }
    }

    public static func == (x: Color, y: Color) -> Bool { x.r == y.r && x.g == y.g && x.b == y.b && x.a == y.a }

    public func hash(into h: inout Hasher) { h.combine(r); h.combine(g); h.combine(b); h.combine(a) }

    public static let black = Color(r: 0, g: 0, b: 0, a: 1)
    public static let white = Color(r: 1, g: 1, b: 1, a: 1)
    public static let transparent = Color(r: 0, g: 0, b: 0, a: 0)

    /// Straight channels in 0...1.
    public var unpremultiplied: (r: Double, g: Double, b: Double, a: Double) {
        a == 0 ? (clearR, clearG, clearB, 0) : (r / a, g / a, b / a, a)
    }

    /// `[r, g, b, a]` with r, g, b in 0...255 unpremultiplied, as `to-rgba` returns.
    public var rgbaArray: [Double] {
        let u = unpremultiplied
        return [u.r * 255, u.g * 255, u.b * 255, u.a]
    }

    /// The CSS form `rgba(r,g,b,a)` as `to-string` prints it.
    public var cssString: String {
        let v = rgbaArray
        func n(_ x: Double) -> String { formatNumber(x.rounded()) }
        return "rgba(\(n(v[0])),\(n(v[1])),\(n(v[2])),\(formatNumber(v[3])))"
    }

    /// Parses any CSS color form: named, `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb()`, `rgba()`,
    /// `hsl()`, `hsla()` (comma or space separated, percentages allowed). Returns nil otherwise.
    public static func parse(_ css: String) -> Color? {
        let s = css.trimmingCharacters(in: .whitespaces).lowercased()
        if s.isEmpty { return nil }
        if s == "transparent" { return .transparent }
        if let hex = namedColors[s] { return fromHex(hex) }
        if s.hasPrefix("#") { return parseHex(Array(s.utf8.dropFirst())) }
        guard let open = s.firstIndex(of: "("), s.hasSuffix(")") else { return nil }
        let fn = String(s[..<open]).trimmingCharacters(in: .whitespaces)
        let inner = s[s.index(after: open)..<s.index(before: s.endIndex)]
        return parseFunction(fn, String(inner))
    }

    static func fromHex(_ v: UInt32) -> Color {
        Color(r: Double((v >> 16) & 0xFF) / 255, g: Double((v >> 8) & 0xFF) / 255, b: Double(v & 0xFF) / 255, a: 1)
    }

    private static func parseHex(_ d: [UInt8]) -> Color? {
        var digits: [Double] = []
        for c in d {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits.append(Double(c - 48))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digits.append(Double(c - 87))
            default: return nil
            }
        }
        switch digits.count {
        case 3, 4:
            let a = digits.count == 4 ? digits[3] * 17 / 255 : 1
            return Color(straightR: digits[0] * 17 / 255, g: digits[1] * 17 / 255, b: digits[2] * 17 / 255, a: a)
        case 6, 8:
            func byte(_ i: Int) -> Double { (digits[i] * 16 + digits[i + 1]) / 255 }
            return Color(straightR: byte(0), g: byte(2), b: byte(4), a: digits.count == 8 ? byte(6) : 1)
        default: return nil
        }
    }

    private static func parseFunction(_ fn: String, _ inner: String) -> Color? {
        // Accept "a, b, c, d", "a b c", "a b c / d".
        var parts: [String]
        if inner.contains(",") {
            parts = inner.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.contains(where: { $0.isEmpty }) { return nil }
        } else {
            let slash = inner.split(separator: "/", omittingEmptySubsequences: false)
            guard slash.count <= 2 else { return nil }
            parts = slash[0].split(separator: " ").map(String.init)
            if parts.count != 3 { return nil }
            if slash.count == 2 {
                let alpha = slash[1].trimmingCharacters(in: .whitespaces)
                if alpha.isEmpty || alpha.contains(" ") { return nil }
                parts.append(alpha)
            }
        }
        func number(_ p: String) -> (Double, Bool)? {
            if p.hasSuffix("%") { return Double(p.dropLast()).map { ($0, true) } }
            return Double(p).map { ($0, false) }
        }
        func clamp(_ x: Double) -> Double { min(max(x, 0), 1) }
        func alpha(_ i: Int) -> Double? {
            guard i < parts.count else { return 1 }
            guard let (v, pct) = number(parts[i]) else { return nil }
            return clamp(pct ? v / 100 : v)
        }
        switch fn {
        case "rgb", "rgba":
            guard parts.count == 3 || parts.count == 4 else { return nil }
            var ch: [Double] = []
            var percentKinds = Set<Bool>()
            for p in parts.prefix(3) {
                guard let (v, pct) = number(p) else { return nil }
                percentKinds.insert(pct)
                ch.append(clamp(pct ? v / 100 : v / 255))
            }
            guard percentKinds.count == 1, let a = alpha(3) else { return nil }
            return Color(straightR: ch[0], g: ch[1], b: ch[2], a: a)
        case "hsl", "hsla":
            guard parts.count == 3 || parts.count == 4 else { return nil }
            let hText = parts[0].hasSuffix("deg") ? String(parts[0].dropLast(3)) : parts[0]
            guard let h = Double(hText), let (s, sp) = number(parts[1]), let (l, lp) = number(parts[2]), sp, lp,
                  let a = alpha(3) else { return nil }
            let rgb = hslToRGB(h: h, s: clamp(s / 100), l: clamp(l / 100))
            return Color(straightR: rgb.0, g: rgb.1, b: rgb.2, a: a)
        default:
            return nil
        }
    }

    static func hslToRGB(h: Double, s: Double, l: Double) -> (Double, Double, Double) {
        var hue = h.truncatingRemainder(dividingBy: 360)
        if hue < 0 { hue += 360 }
        func f(_ n: Double) -> Double {
            let k = (n + hue / 30).truncatingRemainder(dividingBy: 12)
            let a = s * min(l, 1 - l)
            return l - a * max(-1, min(k - 3, 9 - k, 1))
        }
        return (f(0), f(8), f(4))
    }
}

/// An integral `x` of 2^53 up to 1e21 written out in full from its shortest digits:
/// 7.777777777777778e+20 → 777777777777777800000.
private func integerDigits(_ x: Double) -> String {
    let text = "\(abs(x))"
    let sign = x < 0 ? "-" : ""
    guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }), let exponent = Int(text[text.index(after: e)...]) else {
        return sign + (text.hasSuffix(".0") ? String(text.dropLast(2)) : text)
    }
    let mantissa = text[..<e]
    let digits = mantissa.filter { $0 != "." }
    let whole = mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count
    return sign + digits + String(repeating: "0", count: max(0, exponent - (digits.count - whole)))
}

/// Formats a number the way JavaScript's `String(number)` does for the common cases.
func formatNumber(_ x: Double) -> String {
    if x.isNaN { return "NaN" }
    if x.isInfinite { return x > 0 ? "Infinity" : "-Infinity" }
    if x == x.rounded(), abs(x) < 1e21 {
        // Every integer below 2^53 prints exactly. Above, JavaScript prints the shortest digits
        // that round-trip, padded with zeros (Int64 would print other digits, and trap past 9.2e18).
        if abs(x) < 0x1p53 { return String(Int64(x)) }
        return integerDigits(x)
    }
    var s = "\(x)"
    if s.contains("e") {
        // Swift prints 1e-07; JavaScript prints 1e-7.
        s = s.replacingOccurrences(of: "e-0", with: "e-").replacingOccurrences(of: "e+0", with: "e+")
        if !s.contains("e-") && !s.contains("e+") { s = s.replacingOccurrences(of: "e", with: "e+") }
    }
    return s
}
