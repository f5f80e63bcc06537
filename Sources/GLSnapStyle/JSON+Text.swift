extension JSON {
    /// The value as compact JSON text. Object keys come out sorted, so the same value always
    /// reads the same (styles edited and loaded again, reports, the C ABI's answers). Integers
    /// print without a fraction; a non-finite number, which parsed JSON never holds, as `null`.
    public var text: String {
        var out = ""
        JSON.write(self, into: &out)
        return out
    }

    private static func write(_ value: JSON, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n):
            if !n.isFinite {
                out += "null"
            } else if n == n.rounded(), abs(n) < 1e15 {
                out += String(Int64(n))
            } else {
                out += "\(n)"
            }
        case .string(let s): out += quote(s)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                write(item, into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, key) in members.keys.sorted().enumerated() {
                if i > 0 { out += "," }
                out += quote(key) + ":"
                if let v = members[key] { write(v, into: &out) }
            }
            out += "}"
        }
    }
}
