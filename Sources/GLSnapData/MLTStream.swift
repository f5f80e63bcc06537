/// A bounds-checked reader over MapLibre Tile (MLT) bytes: varints, strings and stream headers.
/// Every read checks what remains first, so a truncated or hostile tile throws `TileDecodeError.mlt`.
struct MLTReader {
    let bytes: [UInt8]
    var position: Int
    let end: Int

    init(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil) {
        self.bytes = bytes; self.position = start; self.end = end ?? bytes.count
        precondition(self.end <= bytes.count && start >= 0, "MLTReader \(start)..<\(self.end) of \(bytes.count)")
    }

    var remaining: Int { end - position }
    var atEnd: Bool { position >= end }

    func fail(_ rule: String, at offset: Int? = nil) -> TileDecodeError {
        .mlt(rule: rule, offset: offset ?? position)
    }

    mutating func byte(_ what: String) throws -> UInt8 {
        guard position < end else { throw fail("\(what) runs past the end of the data") }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func varint(_ what: String) throws -> UInt64 {
        let start = position
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < end else { throw fail("the varint (\(what)) runs past the end of the data", at: start) }
            let b = bytes[position]
            position += 1
            guard shift < 64, shift < 63 || b & 0x7f <= 1 else { throw fail("the varint (\(what)) overflows 64 bits", at: start) }
            value |= UInt64(b & 0x7f) << shift
            if b & 0x80 == 0 { return value }
            shift += 7
        }
    }

    /// A varint that must fit `0...limit` (a count or length).
    mutating func count(_ what: String, limit: Int) throws -> Int {
        let start = position
        let v = try varint(what)
        guard v <= UInt64(limit) else { throw fail("\(what) \(v) is larger than \(limit)", at: start) }
        return Int(v)
    }

    /// A varint length or count that must fit the bytes remaining after it.
    mutating func length(_ what: String) throws -> Int {
        let start = position
        let v = try varint(what)
        guard v <= UInt64(remaining) else { throw fail("\(what) \(v) is larger than the \(remaining) bytes that remain", at: start) }
        return Int(v)
    }

    mutating func string(_ what: String) throws -> String {
        let n = try length("the length of \(what)")
        defer { position += n }
        return String(decoding: bytes[position..<(position + n)], as: UTF8.self)
    }

    mutating func skip(_ n: Int) { position += n }
}

/// What a stream holds (the high nibble of its first header byte).
enum MLTPhysicalStream: UInt8 { case present = 0, data, offset, length }

/// Logical level techniques (3 bits each, two per stream).
enum MLTLogicalTechnique: UInt8 { case none = 0, delta, componentwiseDelta, rle, morton, pseudoDecimal }

/// Physical level techniques (2 bits).
enum MLTPhysicalTechnique: UInt8 { case none = 0, fastPFOR, varint }

/// Dictionary kinds of a DATA stream (its low nibble).
enum MLTDictionary {
    static let none: UInt8 = 0, single: UInt8 = 1, shared: UInt8 = 2, vertex: UInt8 = 3, morton: UInt8 = 4, fsst: UInt8 = 5
}

/// Length kinds of a LENGTH stream (its low nibble).
enum MLTLength {
    static let varBinary: UInt8 = 0, geometries: UInt8 = 1, parts: UInt8 = 2, rings: UInt8 = 3
    static let triangles: UInt8 = 4, symbol: UInt8 = 5, dictionary: UInt8 = 6
}

/// One stream: its header and the byte range of its body.
struct MLTStream {
    var kind: MLTPhysicalStream
    var subtype: UInt8
    var technique1: MLTLogicalTechnique
    var technique2: MLTLogicalTechnique
    var physical: MLTPhysicalTechnique
    var numValues: Int
    var body: Range<Int>
    var runs = 0
    var rleValues = 0
    var mortonBits = 0
    var mortonShift: Int64 = 0

    /// Reads a stream header and steps `reader` past the stream's body.
    static func read(_ reader: inout MLTReader, limits: MLTLimits) throws -> MLTStream {
        let start = reader.position
        let typeByte = try reader.byte("a stream header")
        guard let kind = MLTPhysicalStream(rawValue: typeByte >> 4) else {
            throw reader.fail("stream type \(typeByte >> 4) is not one of PRESENT, DATA, OFFSET, LENGTH", at: start)
        }
        let encodings = try reader.byte("a stream header")
        guard let t1 = MLTLogicalTechnique(rawValue: encodings >> 5),
              let t2 = MLTLogicalTechnique(rawValue: (encodings >> 2) & 7),
              let physical = MLTPhysicalTechnique(rawValue: encodings & 3) else {
            throw reader.fail("stream encoding byte \(encodings) names an unknown technique", at: start + 1)
        }
        let numValues = try reader.count("a stream's value count", limit: limits.maxStreamValues)
        let byteLength = try reader.length("a stream's byte length")
        var stream = MLTStream(kind: kind, subtype: typeByte & 0xf, technique1: t1, technique2: t2, physical: physical,
                               numValues: numValues, body: 0..<0)
        if t1 == .morton {
            stream.mortonBits = try reader.count("a Morton stream's bit count", limit: 32)
            stream.mortonShift = Int64(try reader.count("a Morton stream's coordinate shift", limit: Int(Int32.max)))
        } else if (t1 == .rle || t2 == .rle) && physical != .none {
            stream.runs = try reader.count("an RLE stream's run count", limit: limits.maxStreamValues)
            stream.rleValues = try reader.count("an RLE stream's value count", limit: limits.maxStreamValues)
        }
        guard byteLength <= reader.remaining else {
            throw reader.fail("a stream of \(byteLength) bytes runs past the end of its layer", at: start)
        }
        stream.body = reader.position..<(reader.position + byteLength)
        reader.skip(byteLength)
        return stream
    }

    /// The number of values after RLE expansion.
    var decodedCount: Int { (technique1 == .rle || technique2 == .rle) && physical != .none ? rleValues : numValues }
}

/// Bounds on what one MLT tile may make the decoder allocate.
struct MLTLimits {
    /// The most values one stream may decode to (`DataLimits.maxMLTStreamValues`).
    var maxStreamValues = DataLimits.maxMLTStreamValues
}
