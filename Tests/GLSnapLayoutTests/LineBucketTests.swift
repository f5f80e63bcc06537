import XCTest
import GLSnapData
@testable import GLSnapLayout

final class LineBucketTests: XCTestCase {
    private func pts(_ c: [(Int32, Int32)]) -> [TilePoint] { c.map { TilePoint(x: $0.0, y: $0.1) } }

    /// (x, y, round, up) of vertex k.
    private func pos(_ b: LineBucket, _ k: Int) -> (Int, Int, Int, Int) {
        let x = Int(b.positions[2 * k]), y = Int(b.positions[2 * k + 1])
        return (x >> 1, y >> 1, x & 1, y & 1)
    }

    /// (extrude x, extrude y) as stored, dir, linesofar.
    private func attr(_ b: LineBucket, _ k: Int) -> (Int, Int, Int, Int) {
        let d = b.data[(4 * k)..<(4 * k + 4)].map(Int.init)
        return (d[0] - 128, d[1] - 128, (d[2] & 3) - 1, (d[2] >> 2) | (d[3] << 6))
    }

    func testStraightLineWithButtCaps() {
        var b = LineBucket()
        b.addLine(pts([(0, 0), (100, 0)]), join: .miter, cap: .butt)
        XCTAssertEqual(b.vertexCount, 4)
        // Direction (1, 0): the left normal is perp = (0, 1), the right one (0, -1).
        XCTAssertTrue(pos(b, 0) == (0, 0, 0, 0) && attr(b, 0) == (0, 63, 0, 0))
        XCTAssertTrue(pos(b, 1) == (0, 0, 0, 1) && attr(b, 1) == (0, -63, 0, 0))
        XCTAssertTrue(pos(b, 2) == (100, 0, 0, 0) && attr(b, 2) == (0, 63, 0, 50))
        XCTAssertTrue(pos(b, 3) == (100, 0, 0, 1) && attr(b, 3) == (0, -63, 0, 50))
        XCTAssertEqual(b.data[10], 1 | (50 << 2))
        XCTAssertEqual(b.indices, [0, 1, 2, 2, 1, 3])
    }

    func testRightAngleMiterJoin() {
        var b = LineBucket()
        b.addLine(pts([(0, 0), (100, 0), (100, 100)]), join: .miter, cap: .butt)
        XCTAssertEqual(b.vertexCount, 6)
        // Miter length sqrt(2) along the bisector (-1, 1) / sqrt(2): extrude (-1, 1) and (1, -1).
        XCTAssertTrue(attr(b, 2) == (-63, 63, 0, 50))
        XCTAssertTrue(attr(b, 3) == (63, -63, 0, 50))
        XCTAssertTrue(pos(b, 4) == (100, 100, 0, 0) && attr(b, 4) == (-63, 0, 0, 100))
        XCTAssertEqual(b.indices.count, 4 * 3)
    }

    func testSharpCornerAddsVerticesAtFifteenPixels() {
        // 15 px at overscaling 1 = 240 tile units; segments longer than 480 get extra pairs.
        var b = LineBucket()
        b.addLine(pts([(0, 0), (1000, 0), (1000, 1000)]), join: .miter, cap: .butt)
        XCTAssertEqual(b.vertexCount, 10)
        XCTAssertTrue(pos(b, 2) == (760, 0, 0, 0) && attr(b, 2) == (0, 63, 0, 380))
        XCTAssertTrue(pos(b, 6) == (1000, 240, 0, 0) && attr(b, 6) == (-63, 0, 0, 620))
        XCTAssertTrue(attr(b, 9) == (63, 0, 0, 1000))
        XCTAssertEqual(b.data[38], UInt8(1 | ((1000 & 0x3F) << 2)))
        XCTAssertEqual(b.data[39], UInt8(1000 >> 6))
        // Past overscaling 16 the offset is 0: the extra pairs sit on the corner itself.
        var over = LineBucket(overscaling: 32)
        over.addLine(pts([(0, 0), (1000, 0), (1000, 1000)]), join: .miter, cap: .butt)
        XCTAssertEqual(over.vertexCount, 10)
        XCTAssertTrue(pos(over, 2) == (1000, 0, 0, 0) && attr(over, 2) == (0, 63, 0, 500))
    }

    func testRoundCaps() {
        var b = LineBucket()
        b.addLine(pts([(0, 0), (100, 0)]), join: .round, cap: .round)
        XCTAssertEqual(b.vertexCount, 8)
        // Start cap: normal (0,1) shifted back along the line: (-1, 1) and (-1, -1), round bit set.
        XCTAssertTrue(pos(b, 0) == (0, 0, 1, 0) && attr(b, 0) == (-63, 63, -1, 0))
        XCTAssertTrue(pos(b, 1) == (0, 0, 1, 1) && attr(b, 1) == (-63, -63, 1, 0))
        XCTAssertTrue(pos(b, 2) == (0, 0, 0, 0) && attr(b, 2) == (0, 63, 0, 0))
        // End cap: butt pair, then (1, 1) and (1, -1) shifted forwards.
        XCTAssertTrue(pos(b, 6) == (100, 0, 1, 0) && attr(b, 6) == (63, 63, 1, 50))
        XCTAssertTrue(pos(b, 7) == (100, 0, 1, 1) && attr(b, 7) == (63, -63, -1, 50))
        XCTAssertEqual(b.indices.count, 6 * 3)
    }

    func testSquareCapsExtendWithoutRoundBit() {
        var b = LineBucket()
        b.addLine(pts([(0, 0), (100, 0)]), join: .miter, cap: .square)
        XCTAssertEqual(b.vertexCount, 4)
        XCTAssertTrue(pos(b, 0) == (0, 0, 0, 0) && attr(b, 0) == (-63, 63, -1, 0))
        XCTAssertTrue(attr(b, 3) == (63, -63, -1, 50))
    }

    func testBevelAndFakeRoundJoins() {
        var bevel = LineBucket()
        bevel.addLine(pts([(0, 0), (100, 0), (100, 100)]), join: .bevel, cap: .butt)
        // Start 2, closing pair + opening pair at the corner, end 2. Turning left (y down):
        // the inner side keeps the miter point, the outer side gets offset -1.
        XCTAssertEqual(bevel.vertexCount, 8)
        XCTAssertTrue(attr(bevel, 2) == (-63, 63, -1, 50))
        XCTAssertTrue(attr(bevel, 3) == (0, -63, 0, 50))
        XCTAssertTrue(attr(bevel, 4) == (-63, 63, 1, 50))
        XCTAssertTrue(attr(bevel, 5) == (63, 0, 0, 50))
        var round = LineBucket()
        round.addLine(pts([(0, 0), (100, 0), (100, 100)]), join: .round, cap: .butt)
        // 90 degrees: round(2 * sqrt(2 - sqrt 2) in degrees / 20) = 4 slices, 3 extra vertices.
        XCTAssertEqual(round.vertexCount, 11)
        // The slices sit on the outer (right, "up") side, from -prevNormal (0,-1) to -nextNormal (1,0);
        // the middle one is exactly halfway: 63 * sqrt(1/2) = 44.5 -> 45.
        XCTAssertTrue(pos(round, 5) == (100, 0, 0, 1) && attr(round, 5) == (45, -45, 0, 50))
        XCTAssertEqual(attr(round, 4).0 + attr(round, 4).1, 24 - 58)
        XCTAssertTrue(attr(round, 7) == (-63, 63, 1, 50))
    }

    func testFlipBevelForHairpin() {
        var b = LineBucket()
        b.addLine(pts([(0, 0), (100, 0), (0, 10)]), join: .miter, cap: .butt)
        // Miter length far above 2: miter -> bevel -> flipbevel, two pairs at the corner.
        XCTAssertEqual(b.vertexCount, 8)
        // Hand-computed: miter length ~20.06, bevel length ~1.0006 along perp(joinNormal),
        // flipped since the line turns left: (0.0498, 0.9993) -> (3, 63), then its negation.
        XCTAssertTrue(attr(b, 2) == (3, 63, 0, 50) && attr(b, 3) == (-3, -63, 0, 50))
        XCTAssertTrue(attr(b, 4) == (-3, -63, 0, 50) && attr(b, 5) == (3, 63, 0, 50))
        XCTAssertEqual(attr(b, 7).3, 100)  // 100 + |(-100, 10)| = 200.5 -> 100.25
    }

    func testPolygonRingWrapsAround() {
        var b = LineBucket()
        b.addLine(pts([(0, 0), (100, 0), (100, 100), (0, 100), (0, 0)]), join: .miter, cap: .round, isPolygonRing: true)
        // Every vertex is a join (no caps), including the closing one: 5 miter pairs.
        XCTAssertEqual(b.vertexCount, 10)
        XCTAssertTrue(b.positions.enumerated().allSatisfy { $0.offset % 2 == 1 || $0.element & 1 == 0 })
        // The first vertex already counts the closing edge (0,100)->(0,0).
        XCTAssertEqual(attr(b, 0).3, 50)
        XCTAssertEqual(attr(b, 9).3, 250)
        var degenerate = LineBucket()
        degenerate.addLine(pts([(0, 0), (100, 0)]), join: .miter, cap: .butt, isPolygonRing: true)
        XCTAssertEqual(degenerate.vertexCount, 0)
    }

    func testDuplicatePointsAndDegenerateLines() {
        var b = LineBucket()
        b.addLine(pts([(5, 5), (5, 5), (50, 5), (50, 5), (50, 5)]), join: .miter, cap: .butt)
        XCTAssertEqual(b.vertexCount, 4)
        b.addLine(pts([(1, 1), (1, 1)]), join: .round, cap: .round)
        b.addLine([], join: .round, cap: .round)
        XCTAssertEqual(b.vertexCount, 4)
        // A second line starts its own strip: no triangle joins the two lines.
        b.addLine(pts([(0, 10), (0, 20)]), join: .miter, cap: .butt)
        XCTAssertEqual(b.indices.suffix(6), [4, 5, 6, 6, 5, 7])
        var extreme = LineBucket()
        extreme.addLine(pts([(0, 0), (100, 0), (0, 0)]), join: .miter, cap: .butt, miterLimit: .infinity)
        XCTAssertEqual(extreme.indices.count % 3, 0)
    }

    func testDistanceRestartsPastHalfTheMaximum() {
        var b = LineBucket()
        b.addLine(pts([(-16000, 0), (16000, 0)]), join: .miter, cap: .butt)
        XCTAssertEqual(b.vertexCount, 6)
        XCTAssertEqual(attr(b, 2).3, 16000)
        XCTAssertEqual(attr(b, 4).3, 0)
        XCTAssertEqual(attr(b, 5).3, 0)
    }

    func testProgressRunsAcrossTheClipInProportionToDistance() {
        var b = LineBucket(tracksProgress: true)
        b.addLine(pts([(0, 0), (100, 0), (400, 0)]), join: .miter, cap: .butt, clip: 0.2...0.6)
        XCTAssertEqual(b.progress.count, b.vertexCount)
        // Two vertices per point: at 0, 100 (a quarter of the 400 units) and 400.
        XCTAssertEqual(b.progress, [0.2, 0.2, 0.3, 0.3, 0.6, 0.6])
    }

    func testProgressIsNotKeptUnlessAsked() {
        var b = LineBucket()
        b.addLine(pts([(0, 0), (100, 0)]), join: .miter, cap: .butt)
        XCTAssertTrue(b.progress.isEmpty)
    }
}
