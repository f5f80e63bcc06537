import GLSnapStyle

/// Field numbers of vector_tile.proto (Mapbox Vector Tile 2.1).
private enum MVTField {
    static let tileLayers: UInt32 = 3
    static let layerName: UInt32 = 1
    static let layerFeatures: UInt32 = 2
    static let layerKeys: UInt32 = 3
    static let layerValues: UInt32 = 4
    static let layerExtent: UInt32 = 5
    static let layerVersion: UInt32 = 15
    static let featureID: UInt32 = 1
    static let featureTags: UInt32 = 2
    static let featureType: UInt32 = 3
    static let featureGeometry: UInt32 = 4
}

/// Which vector-tile rules decoding enforces.
public enum VectorTileRules: Sendable {
    /// 2.x and 1.x tiles as MapLibre reads them: a layer without a version is a 1.x layer.
    case compatible
    /// The 2.1 specification to the letter: every layer must carry its version (4.1 Layers).
    case strict2
}

extension VectorTile {
    /// The extent a layer has when it does not say (vector_tile.proto's default).
    public static let defaultExtent = 4096

    /// Decodes a Mapbox Vector Tile (2.1, and 1.x layers), inflating it first when the bytes
    /// start with a gzip or zlib header.
    ///
    /// What is fatal and what is recovered follows the mvt-fixtures suite:
    /// - Fatal (throws): malformed protobuf; a known field with the wrong wire type; a layer
    ///   without name, or with a version other than 1 or 2 (a missing version means 1); extent 0; a value with
    ///   no known type; a tag index past the layer's keys or values; any broken geometry
    ///   command stream (see `decodeGeometry`).
    /// - Recovered (the feature is dropped, the rest decodes): a feature whose type is missing,
    ///   UNKNOWN or not a GeomType; a feature without geometry; an odd number of tags.
    /// - A second layer with a name already seen is ignored (the first wins, as in MapLibre Native).
    /// - When a feature repeats its geometry field, the last one wins.
    public static func decode(_ bytes: [UInt8], rules: VectorTileRules = .compatible) throws -> VectorTile {
        if Inflate.isCompressed(bytes) {
            let inflated = try Inflate.inflate(bytes)
            return try inflated.withUnsafeBytes { try decode(buffer: $0, rules: rules) }
        }
        return try bytes.withUnsafeBytes { try decode(buffer: $0, rules: rules) }
    }

    /// Decodes uncompressed vector-tile bytes in place (no copy of the buffer).
    public static func decode(buffer: UnsafeRawBufferPointer, rules: VectorTileRules = .compatible) throws -> VectorTile {
        var reader = ProtobufReader(buffer)
        var layers: [String: VectorLayer] = [:]
        while let field = try reader.nextField() {
            guard field.number == MVTField.tileLayers else {
                try reader.skip(field)
                continue
            }
            try reader.expect(field, .lengthDelimited, "Tile.layers")
            let layer = try decodeLayer(try reader.readMessage(), offset: field.offset, rules: rules)
            if layers[layer.name] == nil { layers[layer.name] = layer }
        }
        return VectorTile(layers: layers)
    }

    private static func decodeLayer(_ message: ProtobufReader, offset: Int, rules: VectorTileRules) throws -> VectorLayer {
        var reader = message
        var name: String?
        var versionField: UInt64?
        var extent = UInt64(defaultExtent)
        var keys: [String] = []
        var values: [JSON] = []
        var features: [ProtobufReader] = []
        while let field = try reader.nextField() {
            switch field.number {
            case MVTField.layerName:
                try reader.expect(field, .lengthDelimited, "Layer.name")
                name = try reader.readString()
            case MVTField.layerVersion:
                try reader.expect(field, .varint, "Layer.version")
                versionField = try reader.readVarint()
            case MVTField.layerExtent:
                try reader.expect(field, .varint, "Layer.extent")
                extent = try reader.readVarint()
            case MVTField.layerKeys:
                try reader.expect(field, .lengthDelimited, "Layer.keys")
                keys.append(try reader.readString())
            case MVTField.layerValues:
                try reader.expect(field, .lengthDelimited, "Layer.values")
                values.append(try decodeValue(try reader.readMessage(), layer: name ?? "", offset: field.offset))
            case MVTField.layerFeatures:
                try reader.expect(field, .lengthDelimited, "Layer.features")
                features.append(try reader.readMessage())
            default:
                try reader.skip(field)
            }
        }
        guard let name else { throw TileDecodeError.missingLayerName(offset: offset) }
        // A missing version takes proto2's declared default, 1 (1.x tiles omit it; MapLibre reads
        // them), except under the strict 2.1 rules, where the field is required.
        if rules == .strict2 && versionField == nil {
            throw TileDecodeError.missingLayerVersion(layer: name, offset: offset)
        }
        let version = versionField ?? 1
        guard version == 1 || version == 2 else {
            throw TileDecodeError.unsupportedLayerVersion(layer: name, version: version, offset: offset)
        }
        guard extent >= 1, extent <= UInt64(Int32.max) else {
            throw TileDecodeError.invalidExtent(layer: name, extent: extent, offset: offset)
        }
        let context = LayerContext(name: name, version: Int(version), keys: keys, values: values)
        var decoded: [VectorFeature] = []
        decoded.reserveCapacity(features.count)
        for feature in features {
            if let f = try decodeFeature(feature, context) { decoded.append(f) }
        }
        return VectorLayer(name: name, extent: Int(extent), version: Int(version), features: decoded)
    }

    private struct LayerContext {
        var name: String
        var version: Int
        var keys: [String]
        var values: [JSON]
    }

    private static func decodeValue(_ message: ProtobufReader, layer: String, offset: Int) throws -> JSON {
        var reader = message
        var value: JSON?
        while let field = try reader.nextField() {
            switch field.number {
            case 1:
                try reader.expect(field, .lengthDelimited, "Value.string_value")
                value = .string(try reader.readString())
            case 2:
                try reader.expect(field, .fixed32, "Value.float_value")
                value = .number(Double(Float(bitPattern: try reader.readFixed32())))
            case 3:
                try reader.expect(field, .fixed64, "Value.double_value")
                value = .number(Double(bitPattern: try reader.readFixed64()))
            case 4:
                try reader.expect(field, .varint, "Value.int_value")
                value = .number(Double(Int64(bitPattern: try reader.readVarint())))
            case 5:
                try reader.expect(field, .varint, "Value.uint_value")
                value = .number(Double(try reader.readVarint()))
            case 6:
                try reader.expect(field, .varint, "Value.sint_value")
                value = .number(Double(try reader.readSVarint()))
            case 7:
                try reader.expect(field, .varint, "Value.bool_value")
                value = .bool(try reader.readVarint() != 0)
            default:
                try reader.skip(field)
            }
        }
        guard let value else { throw TileDecodeError.valueWithoutType(layer: layer, offset: offset) }
        return value
    }

    /// One feature, or nil when it is dropped as recoverable (see `decode`).
    private static func decodeFeature(_ message: ProtobufReader, _ layer: LayerContext) throws -> VectorFeature? {
        var reader = message
        var id: JSON?
        var rawType: UInt64 = 0
        var tags: PackedVarints?
        var geometry: PackedVarints?
        while let field = try reader.nextField() {
            switch field.number {
            case MVTField.featureID:
                try reader.expect(field, .varint, "Feature.id")
                id = .number(Double(try reader.readVarint()))
            case MVTField.featureTags:
                try reader.expect(field, .lengthDelimited, "Feature.tags")
                tags = try reader.readPackedVarints()
            case MVTField.featureType:
                try reader.expect(field, .varint, "Feature.type")
                rawType = try reader.readVarint()
            case MVTField.featureGeometry:
                try reader.expect(field, .lengthDelimited, "Feature.geometry")
                geometry = try reader.readPackedVarints()
            default:
                try reader.skip(field)
            }
        }
        guard rawType <= 3, let type = GeometryType(rawValue: UInt8(rawType)), type != .unknown,
              let geometry else { return nil }
        var properties: [String: JSON] = [:]
        if var tags {
            let count = tags.count
            guard count % 2 == 0 else { return nil }
            properties.reserveCapacity(count / 2)
            while let keyIndex = try tags.next() {
                let offset = tags.position
                guard let valueIndex = try tags.next() else { break }
                guard keyIndex < UInt64(layer.keys.count) else {
                    throw TileDecodeError.keyIndexOutOfRange(layer: layer.name, index: keyIndex,
                                                             keyCount: layer.keys.count, offset: offset)
                }
                guard valueIndex < UInt64(layer.values.count) else {
                    throw TileDecodeError.valueIndexOutOfRange(layer: layer.name, index: valueIndex,
                                                               valueCount: layer.values.count, offset: offset)
                }
                properties[layer.keys[Int(keyIndex)]] = layer.values[Int(valueIndex)]
            }
        }
        let points = try decodeGeometry(geometry, type: type, layerVersion: layer.version, layer: layer.name)
        return VectorFeature(id: id, geometryType: type, properties: properties, geometry: points)
    }
}
