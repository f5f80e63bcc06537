import XCTest
import GLSnapData
@testable import GLSnapLayout

/// A fitted icon's pieces carry their offsets as GL JS's vertices do: corners in 1/32 px, pixel
/// offsets in 1/16 px, minimum scales in 1/256.
final class IconPartQuantizeTests: XCTestCase {
    private func isMultiple(_ v: Double, of step: Double) -> Bool { (v * step).rounded() == v * step }

    func testFittedPiecesAreOnGLJSVertexSteps() {
        // A 40 × 40 image whose middle 20 px stretch, fitted to a box with no round edges and a
        // content box that moves the pixel offsets off whole pixels (ratio 2).
        let slot = IconSlot(rect: AtlasRect(x: 100, y: 200, w: 40, h: 40), pixelRatio: 2, sdf: false,
                            stretchX: [10...30], stretchY: [10...30], content: [7, 9, 33, 31])
        let parts = IconTextFit.parts(box: Rect(minX: -36.0713, minY: -19.317, maxX: 35.9982, maxY: 19.7731), slot: slot,
                                      fitted: true, rotate: 0.3)
        XCTAssertEqual(parts.count, 9)
        for (i, p) in parts.enumerated() {
            for c in [p.tl, p.tr, p.bl, p.br] {
                XCTAssertTrue(isMultiple(c.x, of: 32) && isMultiple(c.y, of: 32), "piece \(i) corner \(c)")
            }
            for c in [p.pixelTL, p.pixelBR] {
                XCTAssertTrue(isMultiple(c.x, of: 16) && isMultiple(c.y, of: 16), "piece \(i) pixel offset \(c)")
            }
            XCTAssertTrue(isMultiple(p.minScaleX, of: 256) && isMultiple(p.minScaleY, of: 256), "piece \(i) scales")
        }
    }
}
