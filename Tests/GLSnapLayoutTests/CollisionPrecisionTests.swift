import XCTest
import GLSnapData
@testable import GLSnapLayout

/// Collision boxes keep double precision, as GL JS's grid keeps them: boxes that touch on paper
/// touch or part by the last bits of their projected anchors, not always collide.
final class CollisionPrecisionTests: XCTestCase {
    /// Two boxes parted by a billionth of a pixel do not collide; touching or overlapping by as
    /// little, they do (MapLibre's GridIndex counts touching edges).
    func testAHairlineGapIsKept() {
        var grid = CollisionGrid(width: 512, height: 256)
        let edge = 136.986_41
        func below(_ top: Double) -> CollisionShape { .box(Rect(minX: 472.38, minY: top, maxX: 498.38, maxY: 162.986)) }
        grid.insert(.box(Rect(minX: 471.13, minY: 110.986, maxX: 497.13, maxY: edge)))
        XCTAssertFalse(grid.collides(below(edge + 1e-9)))
        XCTAssertTrue(grid.collides(below(edge)))
        XCTAssertTrue(grid.collides(below(edge - 1e-9)))
    }

    /// symbol-visibility/visible: two 22 px icons (2 px icon-padding) of one z14 tile whose anchors
    /// lie 416 tile units (26 px) apart. Projected through the tile's matrix their boxes part by a
    /// hair (a last bit of the double sum), so both are placed, as in the older suite's image and
    /// GL JS's expected-ubuntu-22.png; rounded to single precision they touched and the second
    /// was hidden.
    func testIconsTwentySixPixelsApartBothFit() throws {
        let t = Transform(width: 512, height: 256, center: (13.418056, 52.499167), zoom: 14)
        let projection = TileProjection(m: t.tileMatrix(for: try XCTUnwrap(TileID(z: 14, x: 8803, y: 5374)), wrap: 0),
                                        width: t.width, height: t.height)
        func iconBox(_ anchor: Vec2) throws -> CollisionShape {
            let a = try XCTUnwrap(projection.project(anchor))
            return .box(Rect(minX: -13, minY: -13, maxX: 13, maxY: 13).translated(by: Vec2(a.x, a.y)))
        }
        var grid = CollisionGrid(width: t.width, height: t.height)
        let upper = try iconBox(Vec2(952, 6286)), lower = try iconBox(Vec2(972, 6702))
        XCTAssertEqual(lower.y1 - upper.y2, 0, accuracy: 1e-4, "the boxes touch on paper")
        grid.insert(upper)
        XCTAssertFalse(grid.collides(lower))
    }
}
