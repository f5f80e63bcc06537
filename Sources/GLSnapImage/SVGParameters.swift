/// Mapbox SVG color parameters: `<m:parameter m:type="color" m:name="flag_color" m:value="#000000"/>`
/// in the SVG's metadata declares a parameter; replacing it recolors every paint equal to the
/// default value, and every `var(--flag_color)` (with or without a fallback).
public enum SVGParameters {
    /// The declared color parameters: name → default value, as written.
    public static func declared(in svg: [UInt8]) -> [String: String] {
        let text = String(decoding: svg, as: UTF8.self)
        var out: [String: String] = [:]
        var rest = Substring(text)
        while let start = rest.range(of: "<m:parameter") {
            let afterStart = rest[start.upperBound...]
            guard let end = afterStart.firstIndex(of: ">") else { break }
            let tag = afterStart[..<end]
            if attribute("m:type", in: tag) == "color", let name = attribute("m:name", in: tag),
               let value = attribute("m:value", in: tag) {
                out[name] = value
            }
            rest = afterStart[end...]
        }
        return out
    }

    /// The SVG with each parameter in `values` (name → CSS color) applied.
    public static func apply(_ values: [String: String], to svg: [UInt8]) -> [UInt8] {
        guard !values.isEmpty else { return svg }
        let defaults = declared(in: svg)
        var text = String(decoding: svg, as: UTF8.self)
        for (name, color) in values.sorted(by: { $0.key < $1.key }) {
            text = replaceVar(name, with: color, in: text)
            if let def = defaults[name], !def.isEmpty {
                text = replaceValue(def, with: color, in: text)
            }
        }
        return Array(text.utf8)
    }

    static func attribute(_ name: String, in tag: Substring) -> String? {
        guard let r = tag.range(of: name + "=") else { return nil }
        let after = tag[r.upperBound...]
        guard let q = after.first, q == "\"" || q == "'" else { return nil }
        let body = after.dropFirst()
        guard let close = body.firstIndex(of: q) else { return nil }
        return String(body[..<close])
    }

    /// Replaces `var(--name)` and `var(--name, fallback)`.
    static func replaceVar(_ name: String, with color: String, in text: String) -> String {
        var out = ""
        var rest = Substring(text)
        let key = "var(--" + name
        while let r = rest.range(of: key) {
            let after = rest[r.upperBound...]
            guard let c = after.first, c == ")" || c == "," || c == " " else {
                out += rest[..<r.upperBound]; rest = after; continue
            }
            guard let close = after.firstIndex(of: ")") else { break }
            out += rest[..<r.lowerBound]
            out += color
            rest = after[after.index(after: close)...]
        }
        return out + rest
    }

    /// Replaces whole-token, case-insensitive occurrences of a paint value (`"#000000"`, `fill:#000000;`),
    /// leaving the parameter's own declaration alone.
    static func replaceValue(_ value: String, with color: String, in text: String) -> String {
        let lowerText = Array(text.lowercased().utf8), src = Array(text.utf8), needle = Array(value.lowercased().utf8)
        guard lowerText.count == src.count, !needle.isEmpty else { return text }
        let delimiters = Set("\"': ;()\n\t,".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(src.count)
        var i = 0
        while i < src.count {
            if i + needle.count <= src.count, lowerText[i] == needle[0],
               Array(lowerText[i..<(i + needle.count)]) == needle,
               i > 0, delimiters.contains(src[i - 1]),
               i + needle.count == src.count || delimiters.contains(src[i + needle.count]),
               !precededByDeclaration(src, i) {
                out.append(contentsOf: color.utf8)
                i += needle.count
            } else {
                out.append(src[i]); i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func precededByDeclaration(_ src: [UInt8], _ i: Int) -> Bool {
        let marker = Array("m:value=".utf8)
        let start = i - 1 - marker.count
        guard start >= 0 else { return false }
        return Array(src[start..<(i - 1)]) == marker
    }
}
