import GLSnapData
import GLSnapLayout
import XCTest

/// The hit tests behind rendered-feature queries, on shapes whose answers are plain geometry.
final class QueryIntersectionTests: XCTestCase {
    private func p(_ x: Double, _ y: Double) -> QueryPoint { QueryPoint(x, y) }
    private lazy var square = [p(0, 0), p(10, 0), p(10, 10), p(0, 10), p(0, 0)]

    func testRingContainsAndHoles() {
        XCTAssertTrue(QueryIntersection.ringContains(square, p(5, 5)))
        XCTAssertFalse(QueryIntersection.ringContains(square, p(11, 5)))
        let hole = [p(3, 3), p(3, 7), p(7, 7), p(7, 3), p(3, 3)]
        XCTAssertFalse(QueryIntersection.multiPolygonContains([square, hole], p(5, 5)), "inside the hole is outside")
        XCTAssertTrue(QueryIntersection.multiPolygonContains([square, hole], p(1, 1)))
        XCTAssertFalse(QueryIntersection.queryHitsPolygon([p(5, 5)], rings: [square, hole]))
        XCTAssertTrue(QueryIntersection.queryHitsPolygon([p(4, 4), p(6, 4), p(6, 6), p(4, 6), p(4, 4)], rings: [square, hole]) == false,
                      "a box wholly in the hole touches nothing")
        XCTAssertTrue(QueryIntersection.queryHitsPolygon([p(2, 2), p(4, 2), p(4, 4), p(2, 4), p(2, 2)], rings: [square, hole]),
                      "a box across the hole's edge")
    }

    func testCircleRadius() {
        XCTAssertTrue(QueryIntersection.queryHitsCircle([p(9, 0)], center: p(0, 0), radius: 10))
        XCTAssertFalse(QueryIntersection.queryHitsCircle([p(11, 0)], center: p(0, 0), radius: 10))
        // A box whose edge passes within the radius, the center outside it.
        let box = [p(8, -5), p(20, -5), p(20, 5), p(8, 5), p(8, -5)]
        XCTAssertTrue(QueryIntersection.queryHitsCircle(box, center: p(0, 0), radius: 9))
        XCTAssertFalse(QueryIntersection.queryHitsCircle(box, center: p(0, 0), radius: 7))
    }

    func testLinesByHalfWidth() {
        let line = [[p(0, 0), p(100, 0)]]
        XCTAssertTrue(QueryIntersection.queryHitsLines([p(50, 4)], lines: line, halfWidth: 5))
        XCTAssertFalse(QueryIntersection.queryHitsLines([p(50, 6)], lines: line, halfWidth: 5))
        XCTAssertFalse(QueryIntersection.queryHitsLines([p(106, 0)], lines: line, halfWidth: 5), "no cap past the end")
        // A box the line crosses without any vertex inside.
        XCTAssertTrue(QueryIntersection.queryHitsLines([p(40, -20), p(60, -20), p(60, 20), p(40, 20), p(40, -20)], lines: line, halfWidth: 0.5))
    }

    func testBoxAndRings() {
        XCTAssertTrue(QueryIntersection.ringIntersectsBox(square, 9, 9, 20, 20))
        XCTAssertFalse(QueryIntersection.ringIntersectsBox(square, 11, 11, 20, 20))
        XCTAssertTrue(QueryIntersection.ringIntersectsBox(square, 2, 2, 3, 3), "the box inside the ring")
        XCTAssertTrue(QueryIntersection.ringsIntersect([p(5, 5)], square))
        XCTAssertFalse(QueryIntersection.ringsIntersect([p(15, 5)], square))
    }

    func testTilePointsOfTheCenter() {
        // At zoom 1 the view's center (lon 0, lat 0) is the top-left corner of tile 1/1/1.
        let t = Transform(width: 256, height: 256, center: (0, 0), zoom: 1)
        let tile = CoveredTile(id: TileID(z: 1, x: 1, y: 1)!, wrap: 0, overscaledZoom: 1)
        let q = t.tilePoints([QueryPoint(128, 128)], tile: tile)[0]
        XCTAssertEqual(q.x, 0, accuracy: 1e-6)
        XCTAssertEqual(q.y, 0, accuracy: 1e-6)
        XCTAssertEqual(t.maxPitchScaleFactor, 1, accuracy: 1e-9, "no pitch: the top is as far as the center")
    }
}
