import XCTest
@testable import GLSnapLayout

/// Glyphs and icons on a line take their direction as GL JS's placeGlyphAlongLine walks the
/// line from the anchor: the first leg starts at the anchor itself (rounded in the tile, so off
/// the segment by up to half a unit), and a vertex right at the distance passes the walk on.
final class SymbolLineDirectionTests: XCTestCase {
    func testTheFirstLegRunsFromTheAnchor() throws {
        // The anchor lies 1 above a level segment: the glyph ahead is turned toward the vertex
        // ahead, the glyph behind away from the vertex behind.
        let walk = LineWalk(line: [(0, 0), (100, 0)], anchor: (50, 1), segment: 0)
        let ahead = try XCTUnwrap(walk.glyph(10, lineOffset: (0, 0), flip: false))
        XCTAssertEqual(ahead.angle, atan2(-1, 50), accuracy: 1e-12)
        let behind = try XCTUnwrap(walk.glyph(-10, lineOffset: (0, 0), flip: false))
        XCTAssertEqual(behind.angle, atan2(1, 50), accuracy: 1e-12)
    }

    func testAGlyphOnAVertexTakesTheSegmentBeyond() throws {
        let walk = LineWalk(line: [(0, 0), (100, 0), (100, 100)], anchor: (50, 0), segment: 0)
        let corner = try XCTUnwrap(walk.glyph(50, lineOffset: (0, 0), flip: false))
        XCTAssertEqual(corner.x, 100, accuracy: 1e-12)
        XCTAssertEqual(corner.y, 0, accuracy: 1e-12)
        XCTAssertEqual(corner.angle, .pi / 2, accuracy: 1e-12)
        XCTAssertNil(walk.glyph(150, lineOffset: (0, 0), flip: false), "the line's end is no place for a glyph")
    }

    func testAnIconTakesItsDirectionFromTheAnchor() {
        let line = [Vec2(0, 0), Vec2(100, 0), Vec2(100, 100)]
        func direction(_ anchor: Vec2, segment: Int, forward: Bool) -> SymbolPlacement.LineDirection {
            SymbolPlacement.lineDirection(line, segment: segment, from: anchor, forward: forward, project: { $0 })
        }
        // Backward from a rounded anchor: from the vertex behind to the anchor.
        XCTAssertEqual(direction(Vec2(10, 1), segment: 0, forward: false), .angle(atan2(1, 10)))
        // On the first vertex there is nothing behind: GL JS leaves the icon out.
        XCTAssertEqual(direction(Vec2(0, 0), segment: 0, forward: false), .offLine)
        XCTAssertEqual(direction(Vec2(0, 0), segment: 0, forward: true), .angle(0))
        // On the corner, walking back, the segment before it.
        XCTAssertEqual(direction(Vec2(100, 0), segment: 1, forward: false), .angle(0))
        XCTAssertEqual(direction(Vec2(100, 0), segment: 1, forward: true), .angle(.pi / 2))
        XCTAssertEqual(SymbolPlacement.lineDirection(line, segment: 0, from: Vec2(10, 0), forward: true, project: { _ in nil }),
                       .behindCamera)
    }
}
