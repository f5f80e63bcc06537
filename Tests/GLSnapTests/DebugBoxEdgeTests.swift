import Foundation
@testable import GLSnap
import GLSnapImage
import GLSnapLayout
import XCTest

/// Collision boxes are drawn as GL JS 6's expected images show them: each edge walked from the
/// pixel holding its start toward the pixel holding its end, that last one left out, so the
/// outline of a box with fractional corners lights each of its pixels exactly once.
final class DebugBoxEdgeTests: XCTestCase {
    func testEveryPixelOfAFractionalBoxIsLitOnce() {
        let side = 32
        var overlay = DebugOverlay(image: RGBAImage(width: side, height: side,
                                                    pixels: [UInt8](repeating: 0, count: side * side * 4)), pixelRatio: 1)
        overlay.collision([CollisionDebugShape(x1: 4.2, y1: 5.2, x2: 20.3, y2: 12.3, placed: false)])
        let lit = Set((0..<side * side).filter { overlay.image.pixels[$0 * 4 + 3] > 0 })
        // Columns 4...20 on rows 5 and 12, rows 5...12 on columns 4 and 20: the pixels holding the
        // corners and the walk between them.
        var outline = Set<Int>()
        for x in 4...20 { outline.insert(5 * side + x); outline.insert(12 * side + x) }
        for y in 5...12 { outline.insert(y * side + 4); outline.insert(y * side + 20) }
        XCTAssertEqual(lit, outline)
        // Lit once: every outline pixel holds one blend of the collided box's red (alpha 0.5).
        let alphas = Set(outline.map { overlay.image.pixels[$0 * 4 + 3] })
        XCTAssertEqual(alphas, [128])
    }
}
