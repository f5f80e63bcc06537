import XCTest
import GLSnapStyle
@testable import GLSnapData

final class MBTilesSourceTests: XCTestCase {
    private func chicago() throws -> MBTilesSource {
        try MBTilesSource(path: try sharedDirectory("fixtures/tiles/chicago-z13.mbtiles").path)
    }

    func testMetadata() throws {
        let source = try chicago()
        XCTAssertEqual(source.metadata.name, "chicago (Mapbox Streets v7 schema)")
        XCTAssertEqual(source.metadata.format, "pbf")
        XCTAssertEqual(source.metadata.minzoom, 13)
        XCTAssertEqual(source.metadata.maxzoom, 13)
        XCTAssertEqual(source.metadata.bounds, [-87.802734, 41.771312, -87.583008, 41.967659])
        XCTAssertEqual(source.metadata.json?["vector_layers"], .array([]))
        XCTAssertEqual(source.info.type, .vector)
        XCTAssertEqual(source.info.minzoom, 13)
        XCTAssertEqual(source.info.tileSize, 512)
    }

    func testDecodesATileFromItsTMSRow() throws {
        // Stored at TMS row 5146: XYZ y = 2^13 - 1 - 5146 = 3045. Counts from an independent
        // protobuf walk of the gzip-inflated blob.
        let source = try chicago()
        let tile = try XCTUnwrap(try source.vectorTile(XCTUnwrap(TileID(z: 13, x: 2100, y: 3045))))
        XCTAssertEqual(tile.layers.count, 12)
        XCTAssertEqual(tile.layers["road"]?.features.count, 212)
        XCTAssertEqual(tile.layers["landuse"]?.features.count, 193)
        XCTAssertEqual(tile.layers["water"]?.features.count, 1)
        XCTAssertEqual(tile.layers["road_label"]?.features.count, 122)
        XCTAssertEqual(tile.layers["water"]?.extent, 4096)
        let water = try XCTUnwrap(tile.layers["water"]?.features.first)
        XCTAssertEqual(water.geometryType, .polygon)
        for ring in water.geometry {
            XCTAssertEqual(ring.first, ring.last, "polygon rings are closed")
            for p in ring { XCTAssertTrue((-4096...8192).contains(p.x) && (-4096...8192).contains(p.y)) }
        }
        XCTAssertTrue(tile.layers["road"]?.features.contains { $0.properties["class"] != nil } ?? false)
    }

    func testMissingTilesAndOutOfRangeRequests() throws {
        let source = try chicago()
        // The bounds cover exactly the stored rows 3042...3047; the row query itself finds nothing above.
        XCTAssertTrue(source.info.covers(try XCTUnwrap(TileID(z: 13, x: 2098, y: 3042))))
        XCTAssertFalse(source.info.covers(try XCTUnwrap(TileID(z: 13, x: 2098, y: 3041))))
        XCTAssertNil(try source.tileData(XCTUnwrap(TileID(z: 13, x: 2098, y: 3041))))
        // Outside the zoom range and outside the bounds.
        XCTAssertNil(try source.vectorTile(XCTUnwrap(TileID(z: 12, x: 1050, y: 1522))))
        XCTAssertNil(try source.vectorTile(XCTUnwrap(TileID(z: 13, x: 0, y: 0))))
        XCTAssertNil(try source.rasterTile(XCTUnwrap(TileID(z: 13, x: 2100, y: 3045))), "vector source has no raster")
    }

    func testConcurrentReads() throws {
        let source = try chicago()
        let ids = (5144...5149).flatMap { row in (2098...2102).compactMap { TileID(z: 13, x: $0, y: 8191 - row) } }
        XCTAssertEqual(ids.count, 30)
        let counts = UnsafeMutableBufferPointer<Int>.allocate(capacity: ids.count)
        defer { counts.deallocate() }
        DispatchQueue.concurrentPerform(iterations: ids.count) { i in
            counts[i] = (try? source.vectorTile(ids[i]))??.layers.count ?? -1
        }
        XCTAssertTrue(counts.allSatisfy { $0 > 0 }, "\(Array(counts))")
    }

    func testErrorsNameTheFile() throws {
        XCTAssertThrowsError(try MBTilesSource(path: "/nonexistent/x.mbtiles")) {
            XCTAssertEqual("\($0)", "file not found: /nonexistent/x.mbtiles")
        }
        let notSQLite = FileManager.default.temporaryDirectory.appendingPathComponent("glsnap-not-sqlite.mbtiles")
        try Data("not a database, just text long enough to have a header".utf8).write(to: notSQLite)
        defer { try? FileManager.default.removeItem(at: notSQLite) }
        XCTAssertThrowsError(try MBTilesSource(path: notSQLite.path)) {
            XCTAssertTrue("\($0)".hasPrefix("MBTiles file \(notSQLite.path): sqlite3_prepare_v2 failed"), "\($0)")
        }
    }
}
