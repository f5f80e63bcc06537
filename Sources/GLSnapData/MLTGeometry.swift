import GLSnapStyle

/// The geometry column of an MLT layer: geometry types, topology length streams and vertices,
/// turned into the parts `VectorFeature.geometry` holds.
///
///     types ──geometries──▶ sub-geometries ──parts──▶ rings or lines ──rings──▶ vertices
///
/// A length stream holds counts only for the types that need one (a Multi* type's count of
/// sub-geometries, a polygon's ring count, a line's vertex count); the others count 1.
enum MLTGeometry {
    private static let multiPoint: Int64 = 3

    static func decode(_ streams: [MLTStream], bytes: [UInt8], featureCount: Int?,
                       limits: MLTLimits) throws -> [(GeometryType, [[TilePoint]])] {
        guard let typeStream = streams.first else { throw TileDecodeError.mlt(rule: "the geometry column has no streams", offset: 0) }
        func fail(_ rule: String) -> TileDecodeError { .mlt(rule: "geometry: " + rule, offset: typeStream.body.lowerBound) }
        var types = try typeStream.integers(bytes, signed: false, limits: limits)
        let n = featureCount ?? types.count
        if types.count == 1 && n > 1 { types = Array(repeating: types[0], count: n) }
        guard types.count == n else { throw fail("\(types.count) geometry types for \(n) features") }
        guard n <= DataLimits.maxMLTLayerFeatures else {
            throw fail("\(n) features are more than the \(DataLimits.maxMLTLayerFeatures) a layer may hold")
        }
        guard types.allSatisfy({ (0...5).contains($0) }) else { throw fail("a geometry type is outside 0...5") }

        var geometryLengths: [Int64]?, partLengths: [Int64]?, ringLengths: [Int64]?
        var vertexOffsets: [Int64]?, vertices: [Int64] = [], morton: MLTStream?
        for stream in streams.dropFirst() {
            switch (stream.kind, stream.subtype) {
            case (.length, MLTLength.geometries): geometryLengths = try stream.integers(bytes, signed: false, limits: limits)
            case (.length, MLTLength.parts): partLengths = try stream.integers(bytes, signed: false, limits: limits)
            case (.length, MLTLength.rings): ringLengths = try stream.integers(bytes, signed: false, limits: limits)
            case (.offset, 0): vertexOffsets = try stream.integers(bytes, signed: false, limits: limits)
            case (.data, MLTDictionary.morton):
                vertices = try stream.integers(bytes, signed: false, limits: limits)
                morton = stream
            case (.data, _): vertices = try stream.integers(bytes, signed: true, limits: limits)
            default: continue  // pre-tessellated triangles and indices are not needed: glsnap triangulates
            }
        }

        // Offsets per level, as the reference decoders derive them from the lengths.
        var lengths = LengthCursor()
        var geometryOffsets: [Int]?, partOffsets: [Int]?, ringOffsets: [Int]?
        if let geometryLengths {
            geometryOffsets = try lengths.root(types, geometryLengths, threshold: 2, fail)
            if let partLengths, let ringLengths, let g = geometryOffsets {
                partOffsets = try lengths.level(types, g, partLengths, fail) { $0 == 5 || $0 == 2 }
                ringOffsets = try lengths.level2(types, g, partOffsets ?? [], ringLengths, fail)
            } else if let partLengths, let g = geometryOffsets {
                partOffsets = try lengths.level(types, g, partLengths, fail) { $0 == 4 || $0 == 1 }
            }
        } else if let partLengths, let ringLengths {
            partOffsets = try lengths.root(types, partLengths, threshold: 1, fail)
            ringOffsets = try lengths.level(types, partOffsets ?? [], ringLengths, fail) { $0 != 0 && $0 != multiPoint }
        } else if let partLengths {
            partOffsets = try lengths.root(types, partLengths, threshold: 0, fail)
        }

        // Vertices, through the dictionary when there is one.
        let vertexCount = vertexOffsets?.count ?? (morton == nil ? vertices.count / 2 : vertices.count)
        var produced = 0
        let maxVertices = DataLimits.maxMLTStreamValues / 2
        func vertex(_ i: Int) throws -> TilePoint {
            guard i >= 0, i < vertexCount else { throw fail("vertex \(i) is past the \(vertexCount) vertices") }
            produced += 1
            guard produced <= maxVertices else { throw fail("the geometries expand to more than \(maxVertices) vertices") }
            var index = i
            if let vertexOffsets {
                let v = vertexOffsets[i]
                guard v >= 0, v < Int64(morton == nil ? vertices.count / 2 : vertices.count) else {
                    throw fail("vertex offset \(v) is past the vertex dictionary")
                }
                index = Int(v)
            }
            if let morton {
                let code = UInt64(bitPattern: vertices[index])
                var x: Int64 = 0, y: Int64 = 0
                for bit in 0..<UInt64(morton.mortonBits) {
                    x |= Int64((code >> (2 * bit)) & 1) << bit
                    y |= Int64((code >> (2 * bit + 1)) & 1) << bit
                }
                return TilePoint(x: Int32(truncatingIfNeeded: x - morton.mortonShift), y: Int32(truncatingIfNeeded: y - morton.mortonShift))
            }
            return TilePoint(x: Int32(truncatingIfNeeded: vertices[2 * index]), y: Int32(truncatingIfNeeded: vertices[2 * index + 1]))
        }
        func range(_ offsets: [Int]?, _ r: Range<Int>) throws -> Range<Int> {
            guard let offsets else { return r }
            guard r.upperBound < offsets.count else { throw fail("a topology stream is shorter than its geometries") }
            return offsets[r.lowerBound]..<offsets[r.upperBound]
        }

        var out: [(GeometryType, [[TilePoint]])] = []
        out.reserveCapacity(n)
        for i in 0..<n {
            let t = types[i]
            let sub = try range(geometryOffsets, i..<(i + 1))
            var parts: [[TilePoint]] = []
            switch t {
            case 0, 3:  // points: every vertex its own part
                let v = try range(ringOffsets, try range(partOffsets, sub))
                for k in v { parts.append([try vertex(k)]) }
                out.append((.point, parts))
            case 1, 4:  // lines: the level above the vertices
                let lineLevel = ringOffsets == nil ? sub : try range(partOffsets, sub)
                let lineToVertex = ringOffsets ?? partOffsets
                for line in lineLevel {
                    parts.append(try range(lineToVertex, line..<(line + 1)).map(vertex))
                }
                out.append((.lineString, parts))
            default:  // polygons: rings, the first of each polygon its outer ring
                guard let partOffsets, let ringOffsets else { throw fail("a polygon without part and ring lengths") }
                for polygon in sub {
                    let rings = try range(partOffsets, polygon..<(polygon + 1))
                    for ring in rings {
                        var points = try range(ringOffsets, ring..<(ring + 1)).map(vertex)
                        if let first = points.first, points.last != first { points.append(first) }
                        orient(&points, outer: ring == rings.lowerBound)
                        parts.append(points)
                    }
                }
                out.append((.polygon, parts))
            }
        }
        return out
    }

    /// Outer rings clockwise in tile coordinates (y down: positive shoelace sum), holes the other way.
    private static func orient(_ ring: inout [TilePoint], outer: Bool) {
        var area: Int64 = 0
        var j = ring.count - 1
        for i in ring.indices {
            area &+= (Int64(ring[j].x) - Int64(ring[i].x)) * (Int64(ring[i].y) + Int64(ring[j].y))
            j = i
        }
        if area != 0 && (area < 0) == outer { ring.reverse() }
    }
}

/// Turns length streams into offsets, checking every count against what the next level holds.
private struct LengthCursor {
    typealias Fail = (String) -> TileDecodeError

    /// Offsets over features: a type above `threshold` reads its count, the others count 1.
    func root(_ types: [Int64], _ lengths: [Int64], threshold: Int64, _ fail: Fail) throws -> [Int] {
        var out = [0]
        out.reserveCapacity(types.count + 1)
        var k = 0
        for t in types {
            var n = 1
            if t > threshold {
                guard k < lengths.count else { throw fail("a length stream has fewer counts than its geometries need") }
                n = try checked(lengths[k], fail); k += 1
            }
            out.append(try add(out[out.count - 1], n, fail))
        }
        return out
    }

    /// Offsets one level down: each entry of `above` of a type `reads` reads a count, others count 1.
    func level(_ types: [Int64], _ above: [Int], _ lengths: [Int64], _ fail: Fail, reads: (Int64) -> Bool) throws -> [Int] {
        var out = [0]
        var k = 0
        guard above.count == types.count + 1 else { throw fail("topology streams disagree on the feature count") }
        for (i, t) in types.enumerated() {
            for _ in above[i]..<max(above[i], above[i + 1]) {
                var n = 1
                if reads(t) {
                    guard k < lengths.count else { throw fail("a length stream has fewer counts than its geometries need") }
                    n = try checked(lengths[k], fail); k += 1
                }
                out.append(try add(out[out.count - 1], n, fail))
            }
        }
        return out
    }

    /// Ring (vertex) offsets under geometry and part offsets: points count 1 per geometry.
    func level2(_ types: [Int64], _ geometries: [Int], _ parts: [Int], _ lengths: [Int64], _ fail: Fail) throws -> [Int] {
        var out = [0]
        var k = 0
        var partIndex = 0
        guard geometries.count == types.count + 1 else { throw fail("topology streams disagree on the feature count") }
        for (i, t) in types.enumerated() {
            for _ in geometries[i]..<max(geometries[i], geometries[i + 1]) {
                guard partIndex + 1 < parts.count else { throw fail("the part lengths are shorter than the geometries") }
                if t == 0 || t == 3 {
                    out.append(try add(out[out.count - 1], 1, fail))
                } else {
                    for _ in 0..<max(0, parts[partIndex + 1] - parts[partIndex]) {
                        guard k < lengths.count else { throw fail("the ring lengths are fewer than the rings") }
                        out.append(try add(out[out.count - 1], try checked(lengths[k], fail), fail)); k += 1
                    }
                }
                partIndex += 1
            }
        }
        return out
    }

    private func checked(_ v: Int64, _ fail: Fail) throws -> Int {
        guard v >= 0, v <= Int64(DataLimits.maxMLTStreamValues) else { throw fail("a length \(v) is out of range") }
        return Int(v)
    }

    private func add(_ a: Int, _ b: Int, _ fail: Fail) throws -> Int {
        let s = a + b
        guard s <= DataLimits.maxMLTStreamValues else { throw fail("offsets exceed \(DataLimits.maxMLTStreamValues)") }
        return s
    }
}
