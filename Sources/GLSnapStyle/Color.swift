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
