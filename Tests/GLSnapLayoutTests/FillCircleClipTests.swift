import XCTest
import GLSnapData
@testable import GLSnapLayout

final class FillCircleClipTests: XCTestCase {
    private func pts(_ c: [(Int32, Int32)]) -> [TilePoint] { c.map { TilePoint(x: $0.0, y: $0.1) } }

    func testFillSquareWithHole() {
        var f = FillBucket()
        let outer = pts([(0, 0), (100, 0), (100, 100), (0, 100)])          // clockwise on screen
        let hole = pts([(20, 20), (20, 80), (80, 80), (80, 20)])
        f.addPolygon([outer, hole])
        XCTAssertEqual(f.vertexCount, 8)
        XCTAssertEqual(Array(f.positions.prefix(4)), [0, 0, 100, 0])
        XCTAssertEqual(f.triangleIndices.count, 8 * 3)
        XCTAssertEqual(f.lineIndices, [3, 0, 0, 1, 1, 2, 2, 3, 7, 4, 4, 5, 5, 6, 6, 7])
        // Triangles cover 100^2 - 60^2.
        var area = 0.0
        for k in stride(from: 0, to: f.triangleIndices.count, by: 3) {
            let p = (0..<3).map { i -> (Double, Double) in
                let v = Int(f.triangleIndices[k + i])
                return (Double(f.positions[2 * v]), Double(f.positions[2 * v + 1]))
            }
            area += abs((p[1].0 - p[0].0) * (p[2].1 - p[0].1) - (p[2].0 - p[0].0) * (p[1].1 - p[0].1)) / 2
        }
        XCTAssertEqual(area, 10000 - 3600)
    }

    func testFillTwoPolygonsOffsetIndices() {
        var f = FillBucket()
        let a = pts([(0, 0), (10, 0), (10, 10), (0, 10)])
        let b = pts([(20, 0), (30, 0), (30, 10), (20, 10)])
        f.addPolygon([a, b])
        XCTAssertEqual(f.vertexCount, 8)
        XCTAssertEqual(f.triangleIndices.count, 12)
        XCTAssertTrue(f.triangleIndices.prefix(6).allSatisfy { $0 < 4 })
        XCTAssertTrue(f.triangleIndices.suffix(6).allSatisfy { $0 >= 4 && $0 < 8 })
    }

    func testCircleLayout() {
        var c = CircleBucket()
        XCTAssertTrue(c.addPoint(TilePoint(x: 10, y: 20)))
        XCTAssertEqual(c.positions, [20, 40, 21, 40, 21, 41, 20, 41])
        XCTAssertEqual(c.indices, [0, 1, 2, 0, 3, 2])
        XCTAssertFalse(c.addPoint(TilePoint(x: -1, y: 20)))
        XCTAssertFalse(c.addPoint(TilePoint(x: 8192, y: 20)))
        XCTAssertTrue(c.addPoint(TilePoint(x: 8191, y: 0)))
        XCTAssertEqual(c.indices.suffix(6), [4, 5, 6, 4, 7, 6])
    }

    func testExtentScaling() {
        XCTAssertEqual(TileExtent.scale(TilePoint(x: 4096, y: -3), fromExtent: 4096), TilePoint(x: 8192, y: -6))
        XCTAssertEqual(TileExtent.scale(TilePoint(x: 3, y: 1), fromExtent: 16384), TilePoint(x: 2, y: 1)) // 1.5 -> 2, 0.5 -> 1
        XCTAssertEqual(TileExtent.scale(TilePoint(x: -3, y: 0), fromExtent: 16384), TilePoint(x: -1, y: 0)) // -1.5 -> -1
        XCTAssertEqual(TileExtent.scale(TilePoint(x: 9000, y: -9000), fromExtent: 4096),
                       TilePoint(x: 16383, y: -16384))
    }

    func testClipLines() {
        let line = pts([(-50, 50), (50, 50), (50, 150), (150, 150), (150, 50)])
        let out = clipLines([line], minX: 0, minY: 0, maxX: 100, maxY: 100)
        XCTAssertEqual(out, [pts([(0, 50), (50, 50), (50, 100)])])
        // Leaving and re-entering makes two lines; fully outside gives none.
        let zig = pts([(10, 10), (10, 200), (20, 200), (20, 10)])
        XCTAssertEqual(clipLines([zig], minX: 0, minY: 0, maxX: 100, maxY: 100),
                       [pts([(10, 10), (10, 100)]), pts([(20, 100), (20, 10)])])
        XCTAssertEqual(clipLines([pts([(200, 0), (300, 10)])], minX: 0, minY: 0, maxX: 100, maxY: 100), [])
        XCTAssertEqual(clipLines([pts([(-10, -10), (110, 110)])], minX: 0, minY: 0, maxX: 100, maxY: 100),
                       [pts([(0, 0), (100, 100)])])
    }

    func testClipPolygon() {
        let ring = pts([(-50, -50), (50, -50), (50, 50), (-50, 50), (-50, -50)])
        let out = clipPolygon([ring], minX: 0, minY: 0, maxX: 100, maxY: 100)
        XCTAssertEqual(out.count, 1)
        XCTAssertEqual(Set(out[0]), Set(pts([(0, 0), (50, 0), (50, 50), (0, 50)])))
        XCTAssertEqual(out[0].first, out[0].last)
        XCTAssertEqual(clipPolygon([pts([(200, 200), (300, 200), (300, 300)])], minX: 0, minY: 0, maxX: 100, maxY: 100), [])
    }

    func testTileEdgeRuns() {
        let e = TileExtent.extent
        let ring = pts([(0, 0), (100, 100), (e, 100), (e, 200), (100, 200), (0, 0)])
        XCTAssertEqual(tileEdgeRuns(ring), [pts([(0, 0), (100, 100), (e, 100)]), pts([(e, 200), (100, 200), (0, 0)])])
    }
}
