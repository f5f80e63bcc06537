import GLSnapStyle

/// Writes a `JSON` value back as text, for styles the runner edits (an operation's inline style,
/// a style without its symbol layers). Object keys come out sorted so the text is reproducible.
enum JSONText {
    static func encode(_ value: JSON) -> String {
        var out = ""
        write(value, to: &out)
        return out
    }

    private static func write(_ value: JSON, to out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n):
            // Integers print without ".0"; a non-finite number cannot come from parsed JSON.
            if n.isFinite, n == n.rounded(), abs(n) < 1e15 { out += String(Int64(n)) } else if n.isFinite { out += "\(n)" } else { out += "null" }
        case .string(let s): writeString(s, to: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                write(item, to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, key) in members.keys.sorted().enumerated() {
                if i > 0 { out += "," }
                writeString(key, to: &out)
                out += ":"
                if let v = members[key] { write(v, to: &out) }
            }
            out += "}"
        }
    }

    private static func writeString(_ s: String, to out: inout String) {
        out += JSON.quote(s)
    }
}
