import GLSnapStyle

/// How a vector source's tiles are encoded (the style's `encoding` on a vector source).
public enum VectorTileEncoding: String, Sendable {
    /// Mapbox Vector Tiles (protocol buffers), the default.
    case mvt
    /// MapLibre Tiles: column-oriented layers (maplibre/maplibre-tile-spec, tag 0x01 layers).
    case mlt
}

/// The type codes of MLT column metadata (the reference decoders' type map).
private enum MLTColumnCode {
    static let idRange: ClosedRange<UInt64> = 0...3
    static let idNullable: UInt64 = 1
    static let idLong: UInt64 = 2
    static let geometry: UInt64 = 4
    static let scalars: ClosedRange<UInt64> = 10...29
    static let structure: UInt64 = 30
    static let map: UInt64 = 31
}

/// The scalar types of property columns (type code = 10 + 2 × type + nullable).
enum MLTScalar: UInt8 {
    case boolean = 0, int8, uint8, int32, uint32, int64, uint64, float, double, string
    var isSigned: Bool { self == .int8 || self == .int32 || self == .int64 }
    var isWide: Bool { self == .int64 || self == .uint64 }
}

/// One column of a layer's metadata.
struct MLTColumn {
    enum Kind { case id(nullable: Bool, long: Bool), geometry, scalar(MLTScalar, nullable: Bool), structure([MLTColumn]), map }
    var name: String
    var kind: Kind
}

extension VectorTile {
    /// Decodes tile bytes of either encoding (gzip or zlib bytes are inflated first).
    public static func decode(_ bytes: [UInt8], encoding: VectorTileEncoding) throws -> VectorTile {
        switch encoding {
        case .mvt: return try decode(bytes)
        // Only gzip is recognized: a first block of 120 bytes starts 0x78 0x01, a valid zlib header.
        case .mlt: return try decodeMLT(bytes.starts(with: [0x1f, 0x8b]) ? Inflate.inflate(bytes) : bytes)
        }
    }

    /// Decodes a MapLibre Tile: a sequence of blocks (varint length, varint tag), each tag-1 block
    /// one layer with its embedded column metadata; blocks of other tags are skipped. Layers come
    /// out in the model MVT decoding gives: polygon rings closed, outer rings clockwise in tile
    /// coordinates and holes counter-clockwise; null properties are absent keys.
    ///
    /// Throws `TileDecodeError.mlt` naming the rule broken and its byte offset: a block or stream
    /// past the end, an unknown column type or technique, a count past `MLTLimits`, a topology
    /// stream that does not match the geometry types, an index past its dictionary.
    public static func decodeMLT(_ bytes: [UInt8]) throws -> VectorTile {
        var reader = MLTReader(bytes)
        let limits = MLTLimits()
        var layers: [String: VectorLayer] = [:]
        while !reader.atEnd {
            let start = reader.position
            let length = try reader.length("a block length")
            let blockEnd = reader.position + length
            var block = MLTReader(bytes, from: reader.position, to: blockEnd)
            reader.position = blockEnd
            guard length > 0 else { continue }
            let tag = try block.varint("a block tag")
            guard tag == 1 else { continue }
            do {
                let layer = try decodeMLTLayer(&block, limits: limits)
                if layers[layer.name] == nil { layers[layer.name] = layer }
            } catch let TileDecodeError.mlt(rule, offset) where !rule.hasPrefix("layer ") {
                throw TileDecodeError.mlt(rule: "layer at byte \(start): " + rule, offset: offset)
            }
        }
        return VectorTile(layers: layers)
    }

    private static func decodeMLTLayer(_ reader: inout MLTReader, limits: MLTLimits) throws -> VectorLayer {
        let name = try reader.string("the layer name")
        guard !name.isEmpty else { throw reader.fail("a layer has an empty name (spec: layer names must be non-empty)") }
        do {
            let extent = try reader.count("the extent", limit: Int(Int32.max))
            guard extent >= 1 else { throw reader.fail("the extent is 0") }
            let columnCount = try reader.length("the column count")
            var columns: [MLTColumn] = []
            for _ in 0..<columnCount { columns.append(try readColumn(&reader, depth: 0)) }
            var table = MLTTable(bytes: reader.bytes, limits: limits)
            for column in columns { try table.decode(column, &reader) }
            return VectorLayer(name: name, extent: extent, version: 2, features: try table.features())
        } catch let TileDecodeError.mlt(rule, offset) {
            throw TileDecodeError.mlt(rule: "layer \"\(name)\": " + rule, offset: offset)
        }
    }

    private static func readColumn(_ reader: inout MLTReader, depth: Int) throws -> MLTColumn {
        let start = reader.position
        let code = try reader.varint("a column type")
        switch code {
        case MLTColumnCode.idRange where depth == 0:
            return MLTColumn(name: "id", kind: .id(nullable: code & MLTColumnCode.idNullable != 0, long: code & MLTColumnCode.idLong != 0))
        case MLTColumnCode.geometry where depth == 0:
            return MLTColumn(name: "geometry", kind: .geometry)
        case MLTColumnCode.scalars:
            guard let scalar = MLTScalar(rawValue: UInt8((code - 10) / 2)) else { throw reader.fail("bad scalar code", at: start) }
            return MLTColumn(name: try reader.string("a column name"), kind: .scalar(scalar, nullable: code & 1 == 1))
        case MLTColumnCode.structure, MLTColumnCode.map:
            guard depth < 4 else { throw reader.fail("columns nest deeper than 4 levels", at: start) }
            let name = try reader.string("a column name")
            let n = try reader.length("a child count")
            var children: [MLTColumn] = []
            for _ in 0..<n { children.append(try readColumn(&reader, depth: depth + 1)) }
            return MLTColumn(name: name, kind: code == MLTColumnCode.map ? .map : .structure(children))
        default:
            throw reader.fail("column type code \(code) is not defined (ids 0-3, geometry 4, scalars 10-29, struct 30, map 31)", at: start)
        }
    }
}
