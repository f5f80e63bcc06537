import GLSnapStyle

/// The columns of one MLT layer as they are decoded, and their assembly into features.
struct MLTTable {
    let bytes: [UInt8]
    let limits: MLTLimits
    /// The feature count, known from the id column or the geometry types.
    var count: Int?
    var ids: [JSON?]?
    var geometries: [(GeometryType, [[TilePoint]])] = []
    private(set) var properties: [(String, [JSON?])] = []
    /// Property values held (features × columns), bounded by `DataLimits.maxMLTStreamValues`.
    private var cells = 0

    init(bytes: [UInt8], limits: MLTLimits) { self.bytes = bytes; self.limits = limits }

    mutating func decode(_ column: MLTColumn, _ reader: inout MLTReader) throws {
        switch column.kind {
        case let .id(nullable, long):
            let present = nullable ? try presence(&reader) : nil
            let stream = try MLTStream.read(&reader, limits: limits)
            let n = present?.count ?? stream.decodedCount
            guard n <= DataLimits.maxMLTLayerFeatures else {
                throw reader.fail("\(n) ids are more than the \(DataLimits.maxMLTLayerFeatures) features a layer may hold")
            }
            let values = try stream.integers(bytes, signed: false, wide: long, limits: limits)
            ids = try spread(values, present: present, count: n, broadcast: true, column: "id")
                .map { $0.map { .number(Double(UInt64(bitPattern: $0))) } }
            count = n
        case .geometry:
            let streams = try reader.length("the geometry stream count")
            var list: [MLTStream] = []
            for _ in 0..<streams { list.append(try MLTStream.read(&reader, limits: limits)) }
            let decoded = try MLTGeometry.decode(list, bytes: bytes, featureCount: count, limits: limits)
            count = decoded.count
            geometries = decoded
        case let .scalar(type, nullable):
            let streams = type == .string ? try reader.length("a stream count") : 1
            guard streams > 0 else { return }
            let present = nullable ? try presence(&reader) : nil
            let n = try featureCount(present)
            if type == .string {
                var list: [MLTStream] = []
                for _ in 0..<(streams - (nullable ? 1 : 0)) { list.append(try MLTStream.read(&reader, limits: limits)) }
                try add(column.name, try MLTStrings.column(list, bytes: bytes, present: present, count: n, limits: limits))
            } else {
                let stream = try MLTStream.read(&reader, limits: limits)
                try add(column.name, try scalars(stream, type, present: present, count: n, name: column.name))
            }
        case let .structure(children):
            let streams = try reader.length("a stream count")
            guard streams > 0 else { return }
            let n = try featureCount(nil)
            for (child, values) in try MLTStrings.shared(&reader, bytes: bytes, children: children, count: n,
                                                                   budget: DataLimits.maxMLTStreamValues - cells, limits: limits) {
                try add(column.name + child, values)
            }
        case .map:
            // Nested (experimental) map columns are skipped stream by stream.
            let streams = try reader.length("a stream count")
            for _ in 0..<streams { _ = try MLTStream.read(&reader, limits: limits) }
        }
    }

    private mutating func add(_ name: String, _ values: [JSON?]) throws {
        cells += values.count
        guard cells <= DataLimits.maxMLTStreamValues else {
            throw TileDecodeError.mlt(rule: "the property columns hold more than \(DataLimits.maxMLTStreamValues) values", offset: 0)
        }
        properties.append((name, values))
    }

    private func featureCount(_ present: [Bool]?) throws -> Int {
        if let n = present?.count ?? count {
            guard cells + n <= DataLimits.maxMLTStreamValues else {
                throw TileDecodeError.mlt(rule: "the property columns hold more than \(DataLimits.maxMLTStreamValues) values", offset: 0)
            }
            return n
        }
        throw TileDecodeError.mlt(rule: "a property column comes before the geometry column", offset: 0)
    }

    /// A PRESENT stream: one flag per feature.
    private func presence(_ reader: inout MLTReader) throws -> [Bool] {
        let stream = try MLTStream.read(&reader, limits: limits)
        guard stream.kind == .present else {
            throw reader.fail("a nullable column does not start with a PRESENT stream", at: stream.body.lowerBound)
        }
        if let count, stream.numValues != count {
            throw reader.fail("a PRESENT stream has \(stream.numValues) flags for \(count) features", at: stream.body.lowerBound)
        }
        return try stream.booleans(bytes, count: stream.numValues)
    }

    /// Values of the present features placed at their features; one value for many features is
    /// a constant column when `broadcast`.
    func spread<T>(_ values: [T], present: [Bool]?, count: Int, broadcast: Bool, column: String) throws -> [T?] {
        let needed = present?.reduce(0) { $0 + ($1 ? 1 : 0) } ?? count
        if broadcast && values.count == 1 && needed > 1 {
            guard let present else { return Array(repeating: values[0], count: count) }
            return present.map { $0 ? values[0] : nil }
        }
        guard values.count == needed else {
            throw TileDecodeError.mlt(rule: "column \"\(column)\" has \(values.count) values for \(needed) features", offset: 0)
        }
        guard let present else { return values }
        var out: [T?] = []
        out.reserveCapacity(count)
        var k = 0
        for flag in present {
            if flag { out.append(values[k]); k += 1 } else { out.append(nil) }
        }
        return out
    }

    private func scalars(_ stream: MLTStream, _ type: MLTScalar, present: [Bool]?, count: Int, name: String) throws -> [JSON?] {
        switch type {
        case .boolean:
            return try spread(try stream.booleans(bytes, count: stream.numValues).map { JSON.bool($0) },
                              present: present, count: count, broadcast: false, column: name)
        case .float, .double:
            let width = type == .float ? 4 : 8
            guard stream.numValues <= stream.body.count / width else {
                throw TileDecodeError.mlt(rule: "column \"\(name)\" has \(stream.numValues) values in \(stream.body.count) bytes",
                                          offset: stream.body.lowerBound)
            }
            var values: [JSON] = []
            values.reserveCapacity(stream.numValues)
            var p = stream.body.lowerBound
            for _ in 0..<stream.numValues {
                var bits: UInt64 = 0
                for k in 0..<width { bits |= UInt64(bytes[p + k]) << (8 * UInt64(k)) }
                p += width
                values.append(.number(type == .float ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits))) : Double(bitPattern: bits)))
            }
            return try spread(values, present: present, count: count, broadcast: false, column: name)
        case .string:
            preconditionFailure("strings are decoded by MLTStrings")
        default:
            let ints = try stream.integers(bytes, signed: type.isSigned, wide: type.isWide, limits: limits)
            let values: [JSON] = ints.map {
                .number(type == .uint64 ? Double(UInt64(bitPattern: $0)) : Double($0))
            }
            return try spread(values, present: present, count: count, broadcast: true, column: name)
        }
    }

    /// The layer's features in column order; a feature without geometry is an error.
    func features() throws -> [VectorFeature] {
        let n = count ?? 0
        guard geometries.count == n else {
            throw TileDecodeError.mlt(rule: "the layer has \(n) features but \(geometries.count) geometries", offset: 0)
        }
        for (name, values) in properties where values.count != n {
            throw TileDecodeError.mlt(rule: "column \"\(name)\" has \(values.count) values for \(n) features", offset: 0)
        }
        var out: [VectorFeature] = []
        out.reserveCapacity(n)
        for i in 0..<n {
            var props: [String: JSON] = [:]
            props.reserveCapacity(properties.count)
            for (name, values) in properties { if let v = values[i] { props[name] = v } }
            let (type, geometry) = geometries[i]
            out.append(VectorFeature(id: ids?[i] ?? nil, geometryType: type, properties: props, geometry: geometry))
        }
        return out
    }
}
