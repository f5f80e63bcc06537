import XCTest
import GLSnapData
@testable import GLSnapLayout

final class FillExtrusionBucketTests: XCTestCase {
    private func pts(_ c: [(Int32, Int32)]) -> [TilePoint] { c.map { TilePoint(x: $0.0, y: $0.1) } }

    func testSquareHasFourWallsAndARoof() {
        var b = FillExtrusionBucket()
        b.addPolygon([pts([(0, 0), (100, 0), (100, 100), (0, 100)])])
        // 4 walls x 4 vertices, then 4 roof vertices.
        XCTAssertEqual(b.vertexCount, 20)
        XCTAssertEqual(b.indices.count, 4 * 6 + 2 * 3)
        // First wall: edge (0,0) -> (100,0) stored from its second point, bottom then top.
        XCTAssertEqual(Array(b.positions.prefix(8)), [100, 0, 100, 0, 0, 0, 0, 0])
        // Normal (-dy, dx)/len = (0, 1) scaled by 16384; top flag in the low bit of x.
        XCTAssertEqual(Array(b.normals.prefix(8)), [0, 16384, 0, 0, 1, 16384, 0, 0])
        // Edge distance grows along the ring: the wall's far end is 100 units on.
        XCTAssertEqual(b.normals[11], 100)
        // Roof vertices face up (z = 16384) and are tops.
        XCTAssertEqual(Array(b.normals[64..<68]), [1, 0, 16384, 0])
        XCTAssertEqual(Array(b.indices.prefix(6)), [0, 2, 1, 1, 2, 3])
    }

    func testEdgesAlongTheTileBorderOutsideAreSkipped() {
        var b = FillExtrusionBucket()
        let e = TileExtent.extent
        // A polygon sticking out of the right edge: its wall at x = e + 64 runs outside the tile.
        b.addPolygon([pts([(e - 64, 0), (e + 64, 0), (e + 64, 100), (e - 64, 100)])])
        XCTAssertEqual(b.vertexCount, 3 * 4 + 4)
    }

    func testRingEntirelyOutsideHasNoWalls() {
        var b = FillExtrusionBucket()
        b.addPolygon([pts([(-300, 0), (-200, 0), (-200, 100), (-300, 100)])])
        XCTAssertEqual(b.vertexCount, 4)
    }
}
