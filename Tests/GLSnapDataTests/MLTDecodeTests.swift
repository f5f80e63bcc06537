import XCTest
import GLSnapStyle
@testable import GLSnapData

/// MapLibre Tile decoding: hand-made tiles of each encoding path, MapLibre GL JS's test tiles,
/// and broken input (which must be a `TileDecodeError.mlt`, never a crash or a huge allocation).
final class MLTDecodeTests: XCTestCase {
    /// One layer block: tag 1, name, extent, column metadata, then the columns' bytes.
    private func block(_ name: String = "l", columns: [UInt8], data: [UInt8]) -> [UInt8] {
        let body: [UInt8] = [1, UInt8(name.utf8.count)] + Array(name.utf8) + [0x80, 0x20] + columns + data
        return [UInt8(body.count)] + body
    }

    /// A stream: type byte, encoding byte, value count, byte length (single-byte varints), body.
    private func stream(_ type: UInt8, _ encoding: UInt8, count: UInt8, _ body: [UInt8], rle: [UInt8] = []) -> [UInt8] {
        [type, encoding, count, UInt8(body.count)] + rle + body
    }

    /// Two features: id 5 at point (10, 20); id 6, a MultiLineString of lines (0,0)-(4,0) and (1,1)-(1,5);
    /// a nullable string "name" set on the second only.
    private var twoFeatures: [UInt8] {
        let ids = stream(0x10, 0x22, count: 2, [10, 2])  // delta + zigzag varints: 5, +1
        let types = stream(0x10, 0x62, count: 4, [1, 1, 0, 4], rle: [2, 2])  // RLE runs [1, 1] of [0, 4]
        let geometries = stream(0x31, 0x02, count: 1, [2])  // the MultiLineString has 2 lines
        let parts = stream(0x32, 0x02, count: 2, [2, 2])  // 2 vertices per line
        let vertices = stream(0x13, 0x42, count: 10, [20, 40, 19, 39, 8, 0, 2, 2, 0, 8])
        let present = stream(0x00, 0x00, count: 2, [0xff, 0b10])  // one literal byte: feature 1 only
        let lengths = stream(0x36, 0x02, count: 1, [2])
        let dictionary = stream(0x11, 0x00, count: 1, Array("ab".utf8))
        let offsets = stream(0x22, 0x02, count: 1, [0])
        let columns: [UInt8] = [3, 0, 4, 29, 4] + Array("name".utf8)  // id, geometry, nullable string "name"
        let data = ids + [4] + types + geometries + parts + vertices + [4] + present + lengths + dictionary + offsets
        return block(columns: columns, data: data)
    }

    func testDecodesPointsMultiLinesIdsAndDictionaryStrings() throws {
        let tile = try VectorTile.decode(twoFeatures, encoding: .mlt)
        let layer = try XCTUnwrap(tile.layers["l"])
        XCTAssertEqual(layer.extent, 4096)
        XCTAssertEqual(layer.features.count, 2)
        XCTAssertEqual(layer.features[0].id, .number(5))
        XCTAssertEqual(layer.features[0].geometryType, .point)
        XCTAssertEqual(layer.features[0].geometry, [[TilePoint(x: 10, y: 20)]])
        XCTAssertEqual(layer.features[0].properties, [:], "a null is an absent key")
        XCTAssertEqual(layer.features[1].id, .number(6))
        XCTAssertEqual(layer.features[1].geometryType, .lineString)
        XCTAssertEqual(layer.features[1].geometry, [[TilePoint(x: 0, y: 0), TilePoint(x: 4, y: 0)],
                                                    [TilePoint(x: 5, y: 1), TilePoint(x: 5, y: 5)]])
        XCTAssertEqual(layer.features[1].properties, ["name": .string("ab")])
    }

    func testPolygonRingsAreClosedAndOrientedLikeMVT() throws {
        // One polygon: a counter-clockwise (in tile coordinates) square, stored without its closing point.
        let types = stream(0x10, 0x02, count: 1, [2])
        let parts = stream(0x32, 0x02, count: 1, [1])
        let rings = stream(0x33, 0x02, count: 1, [4])
        let vertices = stream(0x13, 0x42, count: 8, [0, 0, 0, 20, 20, 0, 0, 19])  // (0,0) (0,10) (10,10) (10,0)
        let tile = try VectorTile.decode(block(columns: [1, 4], data: [4] + types + parts + rings + vertices), encoding: .mlt)
        let ring = try XCTUnwrap(tile.layers["l"]?.features.first?.geometry.first)
        XCTAssertEqual(ring.count, 5)
        XCTAssertEqual(ring.first, ring.last)
        XCTAssertEqual(ring, [TilePoint(x: 0, y: 0), TilePoint(x: 10, y: 0), TilePoint(x: 10, y: 10),
                              TilePoint(x: 0, y: 10), TilePoint(x: 0, y: 0)], "outer ring clockwise (y down)")
    }

    func testFSSTDictionaryStringsAndMortonVertices() throws {
        // Morton-dictionary vertices: one point, code 0b100111 = (3, 5) with 3 bits, shift 0.
        let types = stream(0x10, 0x02, count: 1, [0])
        let offsets = stream(0x20, 0x02, count: 1, [0])
        let morton = stream(0x14, 0x82, count: 1, [39], rle: [3, 0])
        // FSST: symbols "ab", "c"; the corpus [0, 1, escape, "x"] expands to "abcx" = "ab" + "cx".
        let strings = [5] + stream(0x35, 0x02, count: 2, [2, 1]) + stream(0x15, 0x00, count: 2, Array("abc".utf8))
            + stream(0x36, 0x02, count: 2, [2, 2]) + stream(0x11, 0x00, count: 2, [0, 1, 255, 0x78])
            + stream(0x22, 0x02, count: 1, [1])
        let bytes = block(columns: [2, 4, 28, 1, 0x73], data: [3] + types + offsets + morton + strings)
        let feature = try XCTUnwrap(try VectorTile.decode(bytes, encoding: .mlt).layers["l"]?.features.first)
        XCTAssertEqual(feature.geometry, [[TilePoint(x: 3, y: 5)]])
        XCTAssertEqual(feature.properties, ["s": .string("cx")])
    }

    func testEveryTruncationIsAnErrorNamingTheRule() {
        let bytes = twoFeatures
        for n in 1..<bytes.count {
            XCTAssertThrowsError(try VectorTile.decode(Array(bytes[0..<n]), encoding: .mlt), "prefix \(n)") { error in
                guard case TileDecodeError.mlt = error else { return XCTFail("\(n): \(error)") }
            }
        }
    }

    func testHostileCountsAreRefusedBeforeAllocating() {
        // A stream claiming 2^32 values in 1 byte: refused by the value limit, not allocated.
        let types: [UInt8] = [0x10, 0x02, 0x80, 0x80, 0x80, 0x80, 0x10, 1, 0]
        let huge = block(columns: [1, 4], data: [1] + types)
        XCTAssertThrowsError(try VectorTile.decode(huge, encoding: .mlt)) { error in
            XCTAssertTrue("\(error)".contains("larger than 8388608"), "\(error)")
            XCTAssertTrue("\(error)".contains("layer \"l\""), "\(error)")
        }
        // 2^20 + 1 point features from one RLE run: more than a layer may hold.
        let many = stream(0x10, 0x62, count: 2, [0x81, 0x80, 0x40, 0], rle: [1, 0x81, 0x80, 0x40])
        XCTAssertThrowsError(try VectorTile.decode(block(columns: [1, 4], data: [1] + many), encoding: .mlt)) { error in
            XCTAssertTrue("\(error)".contains("more than the 1048576 a layer may hold"), "\(error)")
        }
        // RLE runs that add up past the declared count.
        let runs = stream(0x10, 0x62, count: 2, [100, 0], rle: [1, 3])
        XCTAssertThrowsError(try VectorTile.decode(block(columns: [1, 4], data: [1] + runs), encoding: .mlt)) { error in
            XCTAssertTrue("\(error)".contains("add up to more than"), "\(error)")
        }
        // A vertex dictionary offset past the dictionary.
        let types2 = stream(0x10, 0x02, count: 1, [0])
        let offsets = stream(0x20, 0x02, count: 1, [9])
        let vertices = stream(0x13, 0x42, count: 2, [2, 2])
        XCTAssertThrowsError(try VectorTile.decode(block(columns: [1, 4], data: [3] + types2 + offsets + vertices),
                                                   encoding: .mlt)) { error in
            XCTAssertTrue("\(error)".contains("vertex offset 9 is past the vertex dictionary"), "\(error)")
        }
    }

    func testMapLibreTestTilesDecode() throws {
        let dir = try sharedDirectory("integration-gljs/tiles/mlt")
        let tile = try VectorTile.decode(try readBytes(dir.appendingPathComponent("14/8717/5679.mlt")), encoding: .mlt)
        let roads = try XCTUnwrap(tile.layers["transportation"])
        XCTAssertEqual(roads.extent, 4096)
        XCTAssertFalse(roads.features.isEmpty)
        XCTAssertTrue(roads.features.contains { $0.geometryType == .lineString && $0.geometry.allSatisfy { $0.count >= 2 } })
        XCTAssertTrue(roads.features.contains { $0.properties["class"] != nil })
        for path in ["5/17/10.mlt", "5/22/12.mlt", "14/8716/5685.mlt"] {
            let bytes = try readBytes(dir.appendingPathComponent(path))
            XCTAssertFalse(try VectorTile.decode(bytes, encoding: .mlt).layers.isEmpty, path)
            // Truncated anywhere: an error or fewer layers, never a crash.
            for n in stride(from: 1, to: bytes.count, by: max(1, bytes.count / 23)) {
                do { _ = try VectorTile.decode(Array(bytes[0..<n]), encoding: .mlt) } catch let error as TileDecodeError {
                    guard case .mlt = error else { return XCTFail("\(path) prefix \(n): \(error)") }
                }
            }
        }
    }

    func testABrokenTileNamesTheSourceAndTile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("1/0"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(Array(twoFeatures.dropLast(3))).write(to: dir.appendingPathComponent("1/0/0.mlt"))
        let definition = try JSON.parse(Array(#"{"type": "vector", "encoding": "mlt", "tiles": ["\#(dir.path)/{z}/{x}/{y}.mlt"]}"#.utf8))
        let source = try XCTUnwrap(try SourceFactory.make(name: "roads", definition: definition, resolver: ResourceResolver()))
        XCTAssertEqual(source.info.vectorEncoding, .mlt)
        XCTAssertThrowsError(try source.vectorTile(XCTUnwrap(TileID(z: 1, x: 0, y: 0)))) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("source 'roads'") && text.contains("1/0/0") && text.contains("MapLibre tile"), text)
        }
        let bad = try JSON.parse(Array(#"{"type": "vector", "encoding": "pbf", "tiles": ["x/{z}"]}"#.utf8))
        XCTAssertThrowsError(try SourceFactory.make(name: "roads", definition: bad, resolver: ResourceResolver()))
    }
}
