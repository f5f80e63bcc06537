/// The wire types of the protocol-buffer encoding.
public enum ProtobufWireType: UInt8, Sendable, CustomStringConvertible {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case startGroup = 3
    case endGroup = 4
    case fixed32 = 5

    public var description: String {
        switch self {
        case .varint: return "varint"
        case .fixed64: return "fixed64"
        case .lengthDelimited: return "length-delimited"
        case .startGroup: return "start-group"
        case .endGroup: return "end-group"
        case .fixed32: return "fixed32"
        }
    }
}

/// A field key: its number and wire type, and the byte offset where the key starts.
public struct ProtobufField: Sendable {
    public var number: UInt32
    public var wireType: ProtobufWireType
    public var offset: Int
}

/// A bounds-checked, zero-copy protocol-buffer reader over borrowed bytes.
///
/// The reader never copies its input: sub-messages are readers over a slice of the same buffer.
/// Every read checks the bytes that remain, so a hostile length or count can never read past
/// the end; errors carry the absolute byte offset of the read that failed.
///
/// The buffer must outlive the reader (use it inside `withUnsafeBytes`).
public struct ProtobufReader {
    /// The whole buffer; `position` and `end` index into it, so offsets in errors are absolute.
    let buffer: UnsafeRawBufferPointer
    /// The offset of the next byte to read.
    public private(set) var position: Int
    /// One past the last byte of this message.
    public let end: Int

    /// A reader over all of `buffer`.
    public init(_ buffer: UnsafeRawBufferPointer) {
        self.buffer = buffer
        self.position = 0
        self.end = buffer.count
    }

    init(buffer: UnsafeRawBufferPointer, range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= buffer.count, "reader range outside buffer")
        self.buffer = buffer
        self.position = range.lowerBound
        self.end = range.upperBound
    }

    /// True when every byte of this message has been read.
    public var isAtEnd: Bool { position >= end }

    /// The bytes not yet read.
    public var remaining: Int { end - position }

    /// The next field key, or nil at the end of the message.
    public mutating func nextField() throws -> ProtobufField? {
        guard position < end else { return nil }
        let start = position
        let key = try readVarint()
        // Groups (3, 4) are deprecated and appear in no format read here.
        guard let wireType = ProtobufWireType(rawValue: UInt8(key & 7)),
              wireType != .startGroup, wireType != .endGroup else {
            throw TileDecodeError.unknownWireType(UInt8(key & 7), offset: start)
        }
        let number = key >> 3
        guard number >= 1, number <= UInt64(UInt32(1) << 29 - 1) else {
            throw TileDecodeError.invalidFieldNumber(number, offset: start)
        }
        return ProtobufField(number: UInt32(number), wireType: wireType, offset: start)
    }

    /// Reads a base-128 varint of at most 10 bytes.
    public mutating func readVarint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        let start = position
        while true {
            guard position < end else { throw TileDecodeError.truncated(what: "varint", offset: start) }
            let byte = buffer[position]
            position += 1
            if shift == 63 && byte > 1 { throw TileDecodeError.varintTooLong(offset: start) }
            result |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
            if shift > 63 { throw TileDecodeError.varintTooLong(offset: start) }
        }
    }

    /// Reads a varint and undoes zigzag encoding (sint32/sint64).
    public mutating func readSVarint() throws -> Int64 {
        ProtobufReader.zigzag(try readVarint())
    }

    /// Zigzag decoding: 0, 1, 2, 3 -> 0, -1, 1, -2.
    public static func zigzag(_ v: UInt64) -> Int64 {
        Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1)))
    }

    /// Reads 4 little-endian bytes.
    public mutating func readFixed32() throws -> UInt32 {
        guard remaining >= 4 else { throw TileDecodeError.truncated(what: "fixed32", offset: position) }
        var v: UInt32 = 0
        for i in 0..<4 { v |= UInt32(buffer[position + i]) << (8 * UInt32(i)) }
        position += 4
        return v
    }

    /// Reads 8 little-endian bytes.
    public mutating func readFixed64() throws -> UInt64 {
        guard remaining >= 8 else { throw TileDecodeError.truncated(what: "fixed64", offset: position) }
        var v: UInt64 = 0
        for i in 0..<8 { v |= UInt64(buffer[position + i]) << (8 * UInt64(i)) }
        position += 8
        return v
    }

    /// Reads a length prefix and returns the absolute byte range it covers; the length is
    /// checked against the bytes that remain before anything is read.
    public mutating func readLengthDelimited() throws -> Range<Int> {
        let start = position
        let length = try readVarint()
        guard length <= UInt64(remaining) else {
            throw TileDecodeError.lengthPastEnd(length: length, remaining: remaining, offset: start)
        }
        let lower = position
        position += Int(length)
        return lower..<position
    }

    /// Reads a length-delimited field as a nested message, without copying.
    public mutating func readMessage() throws -> ProtobufReader {
        ProtobufReader(buffer: buffer, range: try readLengthDelimited())
    }

    /// Reads a length-delimited field as UTF-8 text (invalid sequences become U+FFFD).
    public mutating func readString() throws -> String {
        let range = try readLengthDelimited()
        return String(decoding: UnsafeRawBufferPointer(rebasing: buffer[range]), as: UTF8.self)
    }

    /// Reads a length-delimited field as a borrowed byte slice.
    public mutating func readBytes() throws -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: buffer[try readLengthDelimited()])
    }

    /// Skips the value of a field of the given wire type. Groups (deprecated) are rejected.
    public mutating func skip(_ field: ProtobufField) throws {
        switch field.wireType {
        case .varint: _ = try readVarint()
        case .fixed64: _ = try readFixed64()
        case .fixed32: _ = try readFixed32()
        case .lengthDelimited: _ = try readLengthDelimited()
        case .startGroup, .endGroup:
            throw TileDecodeError.unknownWireType(field.wireType.rawValue, offset: field.offset)
        }
    }

    /// Throws unless `field` has the wire type the schema gives it.
    public func expect(_ field: ProtobufField, _ wireType: ProtobufWireType, _ name: String) throws {
        guard field.wireType == wireType else {
            throw TileDecodeError.wrongWireType(field: name, expected: wireType, found: field.wireType,
                                                offset: field.offset)
        }
    }
}

/// A packed repeated varint field (`repeated uint32 x [packed = true]`), read lazily.
public struct PackedVarints {
    var reader: ProtobufReader

    init(_ reader: ProtobufReader) { self.reader = reader }

    /// The number of values not yet read: counts terminating bytes, so it is exact for
    /// well-formed data and never more than the bytes that remain.
    public var count: Int {
        var n = 0
        var i = reader.position
        while i < reader.end {
            if reader.buffer[i] & 0x80 == 0 { n += 1 }
            i += 1
        }
        return n
    }

    /// True when every value has been read.
    public var isAtEnd: Bool { reader.isAtEnd }

    /// The byte offset of the next value.
    public var position: Int { reader.position }

    /// The next value; nil at the end; throws when a value is truncated.
    public mutating func next() throws -> UInt64? {
        guard !reader.isAtEnd else { return nil }
        return try reader.readVarint()
    }
}

extension ProtobufReader {
    /// Reads a length-delimited field as packed varints.
    public mutating func readPackedVarints() throws -> PackedVarints {
        PackedVarints(try readMessage())
    }
}
