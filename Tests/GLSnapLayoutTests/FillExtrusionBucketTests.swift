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

    func testPolygonEntirelyOutsideHasNoWallsAndNoRoof() {
        var b = FillExtrusionBucket()
        b.addPolygon([pts([(-300, 0), (-200, 0), (-200, 100), (-300, 100)])])
        XCTAssertEqual(b.vertexCount, 0)
        XCTAssertEqual(b.indices.count, 0)
    }

    func testMultipolygonPartInTheBufferIsLeftToItsTile() {
        var b = FillExtrusionBucket()
        let e = TileExtent.extent
        // Two outer rings of one feature: one inside, one wholly in the buffer below the tile.
        b.addPolygon([pts([(0, 0), (100, 0), (100, 100), (0, 100)]),
                      pts([(0, e + 100), (100, e + 100), (100, e + 200), (0, e + 200)])])
        XCTAssertEqual(b.vertexCount, 20)
        XCTAssertEqual(b.indices.count, 4 * 6 + 2 * 3)
        XCTAssertTrue(b.positions.allSatisfy { $0 <= 100 })
    }

    func testHoleEntirelyOutsideKeepsTheRoof() {
        var b = FillExtrusionBucket()
        let e = TileExtent.extent
        // The outer ring reaches into the tile; its hole lies wholly beyond the right edge.
        b.addPolygon([pts([(e - 100, 0), (e + 400, 0), (e + 400, 400), (e - 100, 400)]),
                      pts([(e + 100, 100), (e + 100, 200), (e + 200, 200), (e + 200, 100)])])
        XCTAssertEqual(b.indices.count, 3 * 6 + 8 * 3)   // three walls, a roof of 8 triangles around the hole
        XCTAssertEqual(b.vertexCount, 3 * 4 + 8)        // its wall at x = e + 400 is skipped; no hole walls
    }

    func testCounterclockwiseOuterRingGetsOutwardWalls() {
        var b = FillExtrusionBucket()
        // The square of the first test wound the other way: walls are made from the reversed
        // ring (100,0) (100,100) (0,100) (0,0), so each edge runs as in the first test and its
        // normal turns the same way: the first wall, x = 100, gets (-1, 0).
        b.addPolygon([pts([(0, 0), (0, 100), (100, 100), (100, 0)])])
        XCTAssertEqual(b.vertexCount, 20)
        XCTAssertEqual(Array(b.positions.prefix(8)), [100, 100, 100, 100, 100, 0, 100, 0])
        XCTAssertEqual(Array(b.normals.prefix(8)), [-16384, 0, 0, 0, -16383, 0, 0, 0])
    }

    func testRoofTrianglesRunCounterclockwiseOnScreen() {
        for ring in [[(0, 0), (100, 0), (100, 100), (0, 100)], [(0, 0), (0, 100), (100, 100), (100, 0)]] {
            var b = FillExtrusionBucket()
            b.addPolygon([pts(ring.map { (Int32($0.0), Int32($0.1)) })])
            let roof = b.indices.suffix(6)
            XCTAssertEqual(roof.count, 6)
            for t in stride(from: roof.startIndex, to: roof.endIndex, by: 3) {
                func p(_ i: Int) -> (Int, Int) {
                    let v = Int(roof[i]) * 2
                    return (Int(b.positions[v]), Int(b.positions[v + 1]))
                }
                let (a, c1, c2) = (p(t), p(t + 1), p(t + 2))
                // y points down, so a negative cross product is counterclockwise as seen.
                let cross = (c1.0 - a.0) * (c2.1 - a.1) - (c1.1 - a.1) * (c2.0 - a.0)
                XCTAssertLessThan(cross, 0)
            }
        }
    }
}
