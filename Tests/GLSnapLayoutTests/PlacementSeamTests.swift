import XCTest
@testable import GLSnapLayout

/// The rule two neighbouring blocks of a tile pyramid level both apply at their shared edge.
final class PlacementSeamTests: XCTestCase {
    /// Two 512-px blocks side by side, the seam at the left one's x = 512 and the right one's x = 0.
    private func grids() -> (left: CollisionGrid, right: CollisionGrid) {
        var l = CollisionGrid(width: 512, height: 512), r = CollisionGrid(width: 512, height: 512)
        l.seams = PlacementSeams(right: true)
        r.seams = PlacementSeams(left: true)
        return (l, r)
    }

    func testALabelCrossingTheSeamIsDroppedByBothSides() {
        let (l, r) = grids()
        // A label box from x 480 to 560 in the left block's pixels: -32 to 48 in the right's.
        XCTAssertTrue(l.collides(.box(480, 100, 560, 120)))
        XCTAssertTrue(r.collides(.box(-32, 100, 48, 120)))
        // A line label's glyph circle across it too.
        XCTAssertTrue(l.collides(.circle(510, 200, 5)))
        XCTAssertTrue(r.collides(.circle(-2, 200, 5)))
    }

    func testALabelOnOneSideIsDecidedByThatSideAlone() {
        let (l, r) = grids()
        // Wholly in the left block: free there, and never drawn by the right one.
        XCTAssertFalse(l.collides(.box(400, 100, 500, 120)))
        XCTAssertTrue(r.collides(.box(-112, 100, -12, 120)))
        // Edges that are not seams (the view's outer edges) keep MapLibre's rule: a label may
        // reach past them.
        XCTAssertFalse(l.collides(.box(-20, 100, 40, 120)))
        XCTAssertFalse(r.collides(.box(480, 100, 560, 120)))
        XCTAssertFalse(CollisionGrid(width: 512, height: 512).collides(.box(480, 100, 560, 120)))
    }
}
