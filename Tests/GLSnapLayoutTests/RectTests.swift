import XCTest
@testable import GLSnapLayout

/// The box type of symbol layout and placement.
final class RectTests: XCTestCase {
    private let box = Rect(minX: -10, minY: -4, maxX: 30, maxY: 6)

    func testSize() {
        XCTAssertEqual(box.width, 40)
        XCTAssertEqual(box.height, 10)
        XCTAssertEqual(Rect.zero, Rect(minX: 0, minY: 0, maxX: 0, maxY: 0))
    }

    func testIntersectsCountsTouchingEdges() {
        XCTAssertTrue(box.intersects(Rect(minX: 0, minY: 0, maxX: 1, maxY: 1)), "inside")
        XCTAssertTrue(box.intersects(Rect(minX: 30, minY: 6, maxX: 40, maxY: 9)), "corners touch")
        XCTAssertTrue(Rect(minX: 30, minY: -20, maxX: 31, maxY: 20).intersects(box), "an edge touches")
        XCTAssertFalse(box.intersects(Rect(minX: 30.5, minY: 0, maxX: 40, maxY: 1)), "right of it")
        XCTAssertFalse(box.intersects(Rect(minX: 0, minY: -9, maxX: 1, maxY: -4.5)), "above it")
    }

    func testUnion() {
        let other = Rect(minX: 20, minY: -8, maxX: 50, maxY: 2)
        XCTAssertEqual(box.union(other), Rect(minX: -10, minY: -8, maxX: 50, maxY: 6))
        XCTAssertEqual(other.union(box), box.union(other))
        XCTAssertEqual(box.union(box), box)
        XCTAssertEqual(Rect.empty.union(box), box)
        let points = [Vec2(3, -1), Vec2(-2, 5), Vec2(0, 0)]
        XCTAssertEqual(points.reduce(Rect.empty) { $0.union(Rect($1)) }, Rect(minX: -2, minY: -1, maxX: 3, maxY: 5), "a bounding box")
    }

    func testTranslatedScaledOutset() {
        XCTAssertEqual(box.translated(by: Vec2(5, -1)), Rect(minX: -5, minY: -5, maxX: 35, maxY: 5))
        XCTAssertEqual(box.scaled(by: 0.5), Rect(minX: -5, minY: -2, maxX: 15, maxY: 3), "about the origin")
        XCTAssertEqual(box.outset(by: 2), Rect(minX: -12, minY: -6, maxX: 32, maxY: 8))
        XCTAssertEqual(box.outset(by: -2), Rect(minX: -8, minY: -2, maxX: 28, maxY: 4))
        XCTAssertEqual(box.outset(by: Rect(minX: 1, minY: 2, maxX: 3, maxY: 4)), Rect(minX: -11, minY: -6, maxX: 33, maxY: 10))
    }

    /// Each edge is the plain expression it replaces (`x1 * k - pad`), to the last bit: moving box
    /// arithmetic into Rect keeps images byte-identical.
    func testScaledOutsetRoundsAsTheExpressionPerEdge() {
        let b = Rect(minX: -37.1, minY: -13.7, maxX: 41.3, maxY: 9.9), k = 13.0 / 24.0, pad = 2.2
        let r = b.scaled(by: k).outset(by: pad)
        XCTAssertEqual(r.minX.bitPattern, (b.minX * k - pad).bitPattern)
        XCTAssertEqual(r.minY.bitPattern, (b.minY * k - pad).bitPattern)
        XCTAssertEqual(r.maxX.bitPattern, (b.maxX * k + pad).bitPattern)
        XCTAssertEqual(r.maxY.bitPattern, (b.maxY * k + pad).bitPattern)
    }

    func testTurnedQuarterClockwise() {
        // y down: the top edge turns to the right, the left edge to the top.
        let turned = box.turnedQuarterClockwise
        XCTAssertEqual(turned, Rect(minX: -6, minY: -10, maxX: 4, maxY: 30))
        XCTAssertEqual(turned.width, box.height)
        XCTAssertEqual(turned.height, box.width)
        // Four turns are none.
        XCTAssertEqual(turned.turnedQuarterClockwise.turnedQuarterClockwise.turnedQuarterClockwise, box)
    }

    func testCornersInGlyphQuadOrder() {
        let c = box.corners
        XCTAssertEqual(c.tl, Vec2(-10, -4))
        XCTAssertEqual(c.tr, Vec2(30, -4))
        XCTAssertEqual(c.bl, Vec2(-10, 6))
        XCTAssertEqual(c.br, Vec2(30, 6))
    }
}
