/// A strict JSON (RFC 8259) reader over bytes. Errors name the line and column.
///
/// Written here rather than taken from Foundation so numbers and booleans never mix
/// (`true` is not `1`) and errors can point at the byte at fault.
public struct JSONParseError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public let line: Int
    public let column: Int
    public var description: String { "\(message) at line \(line), column \(column)" }
}

extension JSON {
    /// The deepest nesting accepted, so hostile input cannot exhaust the stack.
    public static let maxDepth = 512

    public static func parse(_ bytes: [UInt8]) throws -> JSON {
        var p = JSONReader(bytes: bytes)
        p.skipSpace()
        let v = try p.value(depth: 0)
        p.skipSpace()
        guard p.pos == bytes.count else { throw p.error("unexpected data after the JSON value") }
        return v
    }

    public static func parse(_ text: String) throws -> JSON { try parse(Array(text.utf8)) }

    /// Parses `bytes` and records, for every non-null value, the 1-based line it starts on, keyed by
    /// its path in the style-spec form (`layers[2].paint.fill-color`; the root is `""`).
    public static func parseWithLines(_ bytes: [UInt8]) throws -> (JSON, JSONLineMap) {
        var p = JSONReader(bytes: bytes)
        p.lines = [:]
        p.skipSpace()
        let v = try p.value(depth: 0)
        p.skipSpace()
        guard p.pos == bytes.count else { throw p.error("unexpected data after the JSON value") }
        return (v, JSONLineMap(lines: p.lines ?? [:]))
    }
}

/// Source lines of the values of a parsed JSON document, by path (see `JSON.parseWithLines`).
public struct JSONLineMap: Sendable {
    let lines: [String: Int]
    /// An empty map: every lookup answers nil.
    public init() { lines = [:] }
    init(lines: [String: Int]) { self.lines = lines }
    /// The line the value at `path` starts on; nil for a null or absent value.
    public func line(_ path: String) -> Int? { lines[path] }
}

struct JSONReader {
    let bytes: [UInt8]
    var pos = 0
    /// The current line (1-based); newlines only occur in whitespace, so `skipSpace` counts them.
    var line = 1
    /// Set to record line numbers by path (only `parseWithLines` pays for this).
    var lines: [String: Int]?
    var path = ""

    init(bytes: [UInt8]) { self.bytes = bytes }

    func error(_ message: String) -> JSONParseError {
        var line = 1, col = 1
        for b in bytes[..<min(pos, bytes.count)] {
            if b == 0x0A { line += 1; col = 1 } else { col += 1 }
        }
        return JSONParseError(message: message, line: line, column: col)
    }

    mutating func skipSpace() {
        while pos < bytes.count, bytes[pos] == 0x20 || bytes[pos] == 0x0A || bytes[pos] == 0x0D || bytes[pos] == 0x09 {
            if bytes[pos] == 0x0A { line += 1 }
            pos += 1
        }
    }

    mutating func value(depth: Int) throws -> JSON {
        guard depth < JSON.maxDepth else { throw error("JSON nested deeper than \(JSON.maxDepth) levels") }
        guard pos < bytes.count else { throw error("unexpected end of JSON") }
        if lines != nil, bytes[pos] != UInt8(ascii: "n") { lines?[path] = line }
        switch bytes[pos] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("unexpected character '\(Character(Unicode.Scalar(bytes[pos])))'")
        }
    }

    mutating func literal(_ word: String) throws {
        let w = Array(word.utf8)
        guard pos + w.count <= bytes.count else { throw error("unexpected end of JSON") }
        for i in 0..<w.count where bytes[pos + i] != w[i] { throw error("invalid literal") }
        pos += w.count
    }

    mutating func object(depth: Int) throws -> JSON {
        pos += 1
        var result: [String: JSON] = [:]
        skipSpace()
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "}") { pos += 1; return .object(result) }
        while true {
            skipSpace()
            guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let key = try string()
            skipSpace()
            guard pos < bytes.count, bytes[pos] == UInt8(ascii: ":") else { throw error("expected ':' after key \"\(key)\"") }
            pos += 1
            skipSpace()
            if lines != nil {
                let saved = path
                path = path.isEmpty ? key : path + "." + key
                result[key] = try value(depth: depth + 1)
                path = saved
            } else {
                result[key] = try value(depth: depth + 1)
            }
            skipSpace()
            guard pos < bytes.count else { throw error("unexpected end of JSON in object") }
            if bytes[pos] == UInt8(ascii: ",") { pos += 1; continue }
            if bytes[pos] == UInt8(ascii: "}") { pos += 1; return .object(result) }
            throw error("expected ',' or '}' in object")
        }
    }

    mutating func array(depth: Int) throws -> JSON {
        pos += 1
        var result: [JSON] = []
        skipSpace()
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "]") { pos += 1; return .array(result) }
        while true {
            skipSpace()
            if lines != nil {
                let saved = path
                path += "[\(result.count)]"
                result.append(try value(depth: depth + 1))
                path = saved
            } else {
                result.append(try value(depth: depth + 1))
            }
            skipSpace()
            guard pos < bytes.count else { throw error("unexpected end of JSON in array") }
            if bytes[pos] == UInt8(ascii: ",") { pos += 1; continue }
            if bytes[pos] == UInt8(ascii: "]") { pos += 1; return .array(result) }
            throw error("expected ',' or ']' in array")
        }
    }

    mutating func hex4() throws -> UInt32 {
        guard pos + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[pos]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("invalid \\u escape")
            }
            v = v * 16 + d
            pos += 1
        }
        return v
    }

    mutating func string() throws -> String {
        pos += 1
        var out: [UInt8] = []
        let start = pos
        // Fast path: no escapes.
        while pos < bytes.count, bytes[pos] != UInt8(ascii: "\""), bytes[pos] != UInt8(ascii: "\\") {
            guard bytes[pos] >= 0x20 else { throw error("control character in string") }
            pos += 1
        }
        guard pos < bytes.count else { throw error("unterminated string") }
        if bytes[pos] == UInt8(ascii: "\"") {
            defer { pos += 1 }
            return String(decoding: bytes[start..<pos], as: UTF8.self)
        }
        out.append(contentsOf: bytes[start..<pos])
        while true {
            guard pos < bytes.count else { throw error("unterminated string") }
            let c = bytes[pos]
            if c == UInt8(ascii: "\"") { pos += 1; break }
            if c < 0x20 { throw error("control character in string") }
            if c != UInt8(ascii: "\\") { out.append(c); pos += 1; continue }
            pos += 1
            guard pos < bytes.count else { throw error("unterminated escape") }
            let e = bytes[pos]
            pos += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar), pos + 6 <= bytes.count,
                   bytes[pos] == UInt8(ascii: "\\"), bytes[pos + 1] == UInt8(ascii: "u") {
                    pos += 2
                    let low = try hex4()
                    if (0xDC00..<0xE000).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        scalar = 0xFFFD
                    }
                }
                let u = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default: throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'")
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    mutating func number() throws -> Double {
        let start = pos
        if bytes[pos] == UInt8(ascii: "-") { pos += 1 }
        func digits() -> Int {
            let s = pos
            while pos < bytes.count, bytes[pos] >= UInt8(ascii: "0"), bytes[pos] <= UInt8(ascii: "9") { pos += 1 }
            return pos - s
        }
        guard digits() > 0 else { throw error("invalid number") }
        if pos < bytes.count, bytes[pos] == UInt8(ascii: ".") {
            pos += 1
            guard digits() > 0 else { throw error("invalid number") }
        }
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E") {
            pos += 1
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-") { pos += 1 }
            guard digits() > 0 else { throw error("invalid number") }
        }
        let text = String(decoding: bytes[start..<pos], as: UTF8.self)
        guard let d = Double(text) else { throw error("invalid number") }
        return d
    }
}
