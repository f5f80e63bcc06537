/// Glyph range files (the `glyphs` protobuf of MapLibre: fontstacks = 1 { name = 1, range = 2,
/// glyphs = 3 { id = 1, ... } }) combined into one fontstack, as tileserver-gl serves a stack `A,B`.
enum GlyphStacks {
    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    /// Each glyph id once, from the first file that has it, in id order.
    static func combine(_ files: [[UInt8]], name: String, range: String) throws -> [UInt8] {
        var byID: [UInt32: ArraySlice<UInt8>] = [:]
        for file in files {
            for stack in try fields(file[...]) where stack.number == 1 && stack.wire == 2 {
                for glyph in try fields(stack.bytes) where glyph.number == 3 && glyph.wire == 2 {
                    guard let id = try fields(glyph.bytes).first(where: { $0.number == 1 && $0.wire == 0 })?.value else {
                        throw Malformed(description: "a glyph without an id")
                    }
                    if byID[UInt32(truncatingIfNeeded: id)] == nil { byID[UInt32(truncatingIfNeeded: id)] = glyph.bytes }
                }
            }
        }
        var stack: [UInt8] = []
        append(field: 1, bytes: Array(name.utf8), to: &stack)
        append(field: 2, bytes: Array(range.utf8), to: &stack)
        for id in byID.keys.sorted() { append(field: 3, bytes: Array(byID[id]!), to: &stack) }
        var out: [UInt8] = []
        append(field: 1, bytes: stack, to: &out)
        return out
    }

    struct Field {
        var number: Int, wire: Int
        /// A varint's value (wire type 0).
        var value: UInt64 = 0
        /// A length-delimited field's bytes (wire type 2).
        var bytes: ArraySlice<UInt8> = []
    }

    /// The top-level fields of a message; throws on truncation or unknown wire types.
    static func fields(_ b: ArraySlice<UInt8>) throws -> [Field] {
        var out: [Field] = []
        var i = b.startIndex
        func varint() throws -> UInt64 {
            var v: UInt64 = 0, shift: UInt64 = 0
            while true {
                guard i < b.endIndex, shift < 64 else { throw Malformed(description: "truncated varint") }
                let c = b[i]; i += 1
                v |= UInt64(c & 0x7F) << shift
                if c < 0x80 { return v }
                shift += 7
            }
        }
        while i < b.endIndex {
            let key = try varint()
            var f = Field(number: Int(key >> 3), wire: Int(key & 7))
            switch f.wire {
            case 0: f.value = try varint()
            case 1, 5:
                let n = f.wire == 1 ? 8 : 4
                guard b.endIndex - i >= n else { throw Malformed(description: "truncated fixed field") }
                i += n
            case 2:
                let n = try varint()
                guard n <= UInt64(b.endIndex - i) else { throw Malformed(description: "a field runs past the end") }
                f.bytes = b[i..<(i + Int(n))]
                i += Int(n)
            default: throw Malformed(description: "wire type \(f.wire)")
            }
            out.append(f)
        }
        return out
    }

    static func append(field: Int, bytes: [UInt8], to out: inout [UInt8]) {
        func varint(_ v: UInt64) {
            var v = v
            while v >= 0x80 { out.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
            out.append(UInt8(v))
        }
        varint(UInt64(field << 3 | 2))
        varint(UInt64(bytes.count))
        out += bytes
    }
}
