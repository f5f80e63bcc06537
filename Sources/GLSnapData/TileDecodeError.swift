/// Why tile bytes could not be decoded: a broken protocol buffer, a broken rule of the
/// Mapbox Vector Tile 2.1 specification, or compressed data that does not inflate.
///
/// Every case carries the byte offset (in the decompressed tile) where the problem was found.
public enum TileDecodeError: Error, Equatable, Sendable, CustomStringConvertible {
    // Protocol-buffer encoding.
    case truncated(what: String, offset: Int)
    case varintTooLong(offset: Int)
    case lengthPastEnd(length: UInt64, remaining: Int, offset: Int)
    case unknownWireType(UInt8, offset: Int)
    case invalidFieldNumber(UInt64, offset: Int)
    case wrongWireType(field: String, expected: ProtobufWireType, found: ProtobufWireType, offset: Int)

    // Vector-tile rules (layer level).
    case missingLayerName(offset: Int)
    case unsupportedLayerVersion(layer: String, version: UInt64, offset: Int)
    case missingLayerVersion(layer: String, offset: Int)
    case invalidExtent(layer: String, extent: UInt64, offset: Int)
    case valueWithoutType(layer: String, offset: Int)
    case keyIndexOutOfRange(layer: String, index: UInt64, keyCount: Int, offset: Int)
    case valueIndexOutOfRange(layer: String, index: UInt64, valueCount: Int, offset: Int)

    // Vector-tile rules (geometry commands).
    case geometry(layer: String, rule: String, offset: Int)

    // MapLibre Tile (MLT) rules: what was broken, and where.
    case mlt(rule: String, offset: Int)

    // Limits and compression.
    case inflatedTooLarge(limit: Int)
    case inflateFailed(call: String, code: Int32, message: String)

    public var description: String {
        switch self {
        case let .truncated(what, offset):
            return "protobuf: a \(what) at byte \(offset) runs past the end of the data; the tile is truncated"
        case let .varintTooLong(offset):
            return "protobuf: the varint at byte \(offset) is longer than 10 bytes or overflows 64 bits"
        case let .lengthPastEnd(length, remaining, offset):
            return "protobuf: the length \(length) at byte \(offset) is larger than the \(remaining) bytes that remain"
        case let .unknownWireType(type, offset):
            return "protobuf: wire type \(type) at byte \(offset) is not supported (only 0, 1, 2 and 5 are)"
        case let .invalidFieldNumber(number, offset):
            return "protobuf: field number \(number) at byte \(offset) is outside 1...536870911"
        case let .wrongWireType(field, expected, found, offset):
            return "vector tile: field '\(field)' at byte \(offset) is encoded as \(found); the vector_tile.proto schema makes it \(expected)"
        case let .missingLayerName(offset):
            return "vector tile: the layer at byte \(offset) has no name (spec 4.1: a layer MUST contain a name field)"
        case let .missingLayerVersion(layer, offset):
            return "layer \"\(layer)\" at byte \(offset) has no version; the 2.1 specification requires one (4.1 Layers)"
        case let .unsupportedLayerVersion(layer, version, offset):
            return "vector tile: layer '\(layer)' at byte \(offset) has version \(version); only versions 1 and 2 are defined"
        case let .invalidExtent(layer, extent, offset):
            return "vector tile: layer '\(layer)' at byte \(offset) has extent \(extent); it must be between 1 and 2^31-1"
        case let .valueWithoutType(layer, offset):
            return "vector tile: a value of layer '\(layer)' at byte \(offset) holds no known type (spec 4.1: exactly one of the value fields MUST be present)"
        case let .keyIndexOutOfRange(layer, index, count, offset):
            return "vector tile: a feature of layer '\(layer)' at byte \(offset) uses key index \(index) but the layer has \(count) keys (spec 4.4)"
        case let .valueIndexOutOfRange(layer, index, count, offset):
            return "vector tile: a feature of layer '\(layer)' at byte \(offset) uses value index \(index) but the layer has \(count) values (spec 4.4)"
        case let .geometry(layer, rule, offset):
            return "vector tile: a feature geometry of layer '\(layer)' at byte \(offset) is invalid: \(rule) (spec 4.3)"
        case let .mlt(rule, offset):
            return "MapLibre tile: \(rule) (byte \(offset))"
        case let .inflatedTooLarge(limit):
            return "compressed tile inflates to more than \(limit) bytes, the decoder's limit"
        case let .inflateFailed(call, code, message):
            return "compressed tile does not inflate: \(call) returned \(code) (\(message))"
        }
    }
}
