import XCTest
import GLSnapData
import GLSnapStyle
@testable import GLSnapLayout

final class RoundedCornersTests: XCTestCase {
    private func pts(_ c: [(Int32, Int32)]) -> [TilePoint] { c.map { TilePoint(x: $0.0, y: $0.1) } }

    private func distance(_ p: TilePoint, _ x: Double, _ y: Double) -> Double {
        ((Double(p.x) - x) * (Double(p.x) - x) + (Double(p.y) - y) * (Double(p.y) - y)).squareRoot()
    }

    func testSquareCornerBecomesAnArcTangentToBothEdges() {
        let ring = RoundedCorners.roundRing(pts([(0, 0), (1000, 0), (1000, 1000), (0, 1000), (0, 0)]), distance: 100)
        XCTAssertEqual(ring.first, ring.last, "a closed ring stays closed")
        XCTAssertFalse(ring.contains(TilePoint(x: 0, y: 0)))
        // The first corner's arc runs from 100 units up the edge in to 100 along the edge out, in
        // 3 or 4 segments of at most 30 degrees, every point on the circle of radius 100 around (100, 100).
        let arc = Array(ring.prefix { $0.x < 500 && $0.y < 500 })
        XCTAssertTrue((4...5).contains(arc.count), "\(arc)")
        XCTAssertLessThan(distance(arc.first!, 0, 100), 1.5)
        XCTAssertLessThan(distance(arc.last!, 100, 0), 1.5)
        for p in arc { XCTAssertEqual(distance(p, 100, 100), 100, accuracy: 1.5) }
    }

    func testShortEdgesClampTheArcToAFifthOfTheirLength() {
        let ring = RoundedCorners.roundRing(pts([(0, 0), (100, 0), (100, 100), (0, 100)]), distance: 1000)
        XCTAssertFalse(ring.contains(TilePoint(x: 0, y: 0)))
        for p in ring where p.x < 50 && p.y < 50 { XCTAssertEqual(distance(p, 20, 20), 20, accuracy: 1.5) }
    }

    func testSharpCornerOfATriangleIsCutBackAlongBothEdges() {
        // A 45-45-90 triangle: the apex at (0, 0) is cut back 100 units along both edges, so
        // nothing of the ring comes nearer to it than the arc's middle: r / cos 22.5 - r tan 22.5,
        // 0.67 r from the apex.
        let ring = RoundedCorners.roundRing(pts([(0, 0), (2000, 2000), (0, 2000), (0, 0)]), distance: 100)
        for p in ring { XCTAssertGreaterThan(distance(p, 0, 0), 65, "\(p)") }
        XCTAssertTrue(ring.contains { distance($0, 0, 100) < 1.5 })
        XCTAssertTrue(ring.contains { distance($0, 70.7, 70.7) < 1.5 })
    }

    func testStraightCornersStaySharpAndTheTileBufferCutIsRoundedToo() {
        let e = TileExtent.extent
        // The ring runs out of the tile into the buffer on the right, where the source cut it:
        // GL JS rounds those corners as well (the neighbor tile draws that part alike).
        let ring = RoundedCorners.roundRing(pts([(e - 1000, 0), (e + 64, 0), (e + 64, 1000), (e - 1000, 1000), (e - 1000, 500)]),
                                            distance: 100)
        XCTAssertTrue(ring.contains(TilePoint(x: e - 1000, y: 500)), "a straight vertex is kept")
        XCTAssertFalse(ring.contains(TilePoint(x: e + 64, y: 0)))
        XCTAssertFalse(ring.contains(TilePoint(x: e - 1000, y: 0)))
    }

    func testMetersAreTileUnitsAtTheTileCenter() {
        let atEquator = exp2(18) * 8192 / (2 * Double.pi * 6_371_008.8)
        XCTAssertEqual(RoundedCorners.tileUnitsPerMeter(CanonicalTileID(z: 18, x: 131_071, y: 131_071)), atEquator, accuracy: 0.01)
        XCTAssertGreaterThan(RoundedCorners.tileUnitsPerMeter(CanonicalTileID(z: 1, x: 0, y: 0)), 2 * 8192 / (2 * Double.pi * 6_371_008.8),
                             "north of the equator a meter is more of the map")
        let rings = [pts([(0, 0), (4000, 0), (4000, 4000), (0, 4000)])]
        let equator = CanonicalTileID(z: 18, x: 131_071, y: 131_071)
        XCTAssertEqual(RoundedCorners.round(rings, meters: 0, canonical: equator), rings)
        XCTAssertEqual(RoundedCorners.round(rings, meters: 0.004, canonical: equator), rings, "under half a tile unit: as it was")
        let rounded = RoundedCorners.round(rings, meters: 2, canonical: equator)[0]
        XCTAssertGreaterThanOrEqual(rounded.count, 4 * 4)
        XCTAssertLessThanOrEqual(rounded.count, 4 * 9)
        XCTAssertEqual(distance(rounded[0], 0, 107.3), 0, accuracy: 1.5, "2 m is 107 units at zoom 18 on the equator")
    }

    func testDegenerateRingsComeBackAsTheyWere() {
        let line = pts([(0, 0), (10, 0)])
        XCTAssertEqual(RoundedCorners.roundRing(line, distance: 5), line)
        let spike = pts([(0, 0), (1, 0), (0, 0)])
        XCTAssertEqual(RoundedCorners.roundRing(spike, distance: 5), spike)
        // Repeated points keep their corner (no direction to round).
        let repeated = RoundedCorners.roundRing(pts([(0, 0), (0, 0), (100, 0), (100, 100)]), distance: 10)
        XCTAssertEqual(Array(repeated.prefix(2)), pts([(0, 0), (0, 0)]))
    }
}
