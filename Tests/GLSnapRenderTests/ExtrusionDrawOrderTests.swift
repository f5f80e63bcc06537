import XCTest
import GLSnapData
import GLSnapLayout
@testable import GLSnapRender

/// Extrusion tiles are drawn in GL JS's translucent-pass order: deeper tiles first, then the
/// world in view before its copies (the west copy before the east one at the same distance), then
/// north to south and west to east.
final class ExtrusionDrawOrderTests: XCTestCase {
    private func tile(_ z: Int, _ x: Int, _ y: Int, wrap: Int = 0, overscaled: Int? = nil) -> FrameTile {
        FrameTile(tile: CoveredTile(id: TileID(z: z, x: x, y: y)!, wrap: wrap, overscaledZoom: overscaled ?? z), geometry: nil)
    }

    private func key(_ t: FrameTile) -> [Int] { [t.tile.overscaledZoom, t.tile.wrap, t.tile.id.y, t.tile.id.x] }

    func testTilesMeetingAtACornerDrawNorthwestFirst() {
        // As a cover lists them, nearest the center first.
        let cover = [tile(18, 1, 1), tile(18, 0, 1), tile(18, 1, 0), tile(18, 0, 0)]
        XCTAssertEqual(Painter.extrusionDrawOrder(cover).map(key),
                       [[18, 0, 0, 0], [18, 0, 0, 1], [18, 0, 1, 0], [18, 0, 1, 1]])
    }

    func testDeeperTilesAndTheWorldInViewComeFirst() {
        let cover = [tile(2, 0, 0, wrap: -1), tile(2, 3, 0), tile(2, 0, 0, wrap: 1), tile(2, 1, 1, overscaled: 3)]
        XCTAssertEqual(Painter.extrusionDrawOrder(cover).map(key),
                       [[3, 0, 1, 1], [2, 0, 0, 3], [2, -1, 0, 0], [2, 1, 0, 0]])
    }
}
