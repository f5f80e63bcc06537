import XCTest
import GLSnapData
@testable import GLSnapLayout

/// icon-text-fit's math on its own: fitting boxes, cutting images along stretch zones.
final class IconTextFitTests: XCTestCase {
    /// A 40 × 40 image at pixel ratio 1 whose middle 20 px stretch on both axes.
    private let ninePart = IconSlot(rect: AtlasRect(x: 100, y: 200, w: 40, h: 40), pixelRatio: 1, sdf: false,
                                    stretchX: [10...30], stretchY: [10...30])

    func testFitBothAddsPaddingAndOffset() {
        // Text box ±50 × ±10 at 24 px, drawn at 12 px (font scale 0.5): ±25 × ±5 px.
        let box = IconTextFit.fit(displaySize: (40, 40), text: Rect(minX: -50, minY: -10, maxX: 50, maxY: 10), mode: .both,
                                  padding: [1, 2, 3, 4], offset: (10, 20), fontScale: 0.5)
        XCTAssertEqual(box, Rect(minX: 10 - 25 - 4, minY: 20 - 5 - 1, maxX: 10 + 25 + 2, maxY: 20 + 5 + 3))
    }

    func testFitWidthKeepsHeightCenteredOnText() {
        let box = IconTextFit.fit(displaySize: (40, 16), text: Rect(minX: -50, minY: 0, maxX: 50, maxY: 20), mode: .width,
                                  padding: [0, 0, 0, 0], offset: (0, 0), fontScale: 1)
        XCTAssertEqual(box, Rect(minX: -50, minY: 2, maxX: 50, maxY: 18))
    }

    func testNinePartCutsKeepCornersAtTheirSize() throws {
        // Fitted to 100 × 60 px: the fixed 10 px corners stay 10 px, the middle stretches to 80 × 40.
        let parts = IconTextFit.parts(box: Rect(minX: -50, minY: -30, maxX: 50, maxY: 30), slot: ninePart, fitted: true, rotate: 0)
        XCTAssertEqual(parts.count, 9)
        let x = parts.map { $0.corners(size: 1) }
        // Outer edges: a border pixel beyond the box on every side.
        XCTAssertEqual(x[0].0.x, -51, accuracy: 1e-9); XCTAssertEqual(x[0].0.y, -31, accuracy: 1e-9)
        XCTAssertEqual(x[8].3.x, 51, accuracy: 1e-9); XCTAssertEqual(x[8].3.y, 31, accuracy: 1e-9)
        // The top-left corner piece ends 10 px in; the middle piece spans the stretched rest.
        XCTAssertEqual(x[0].3.x, -40, accuracy: 1e-9); XCTAssertEqual(x[0].3.y, -20, accuracy: 1e-9)
        XCTAssertEqual(x[4].0.x, -40, accuracy: 1e-9); XCTAssertEqual(x[4].3.x, 40, accuracy: 1e-9)
        XCTAssertEqual(x[4].0.y, -20, accuracy: 1e-9); XCTAssertEqual(x[4].3.y, 20, accuracy: 1e-9)
        // Texels: the middle piece samples the image's stretch zone exactly.
        XCTAssertEqual(parts[4].u0, 110); XCTAssertEqual(parts[4].u1, 130)
        XCTAssertEqual(parts[4].v0, 210); XCTAssertEqual(parts[4].v1, 230)
        XCTAssertEqual(parts[0].u0, 99); XCTAssertEqual(parts[0].v0, 199)
    }

    func testShrunkIconKeepsItsFixedParts() {
        // Fitted to 10 px wide, less than the 20 px of fixed parts: the scaled part may not
        // shrink below what keeps the fixed parts whole (MapLibre's minFontScale).
        let parts = IconTextFit.parts(box: Rect(minX: -5, minY: -20, maxX: 5, maxY: 20), slot: ninePart, fitted: true, rotate: 0)
        XCTAssertEqual(parts[4].minScaleX, 2, accuracy: 1e-9)  // 20 px fixed / 10 px box
        let middle = parts[4].corners(size: 1)
        XCTAssertGreaterThanOrEqual(middle.3.x - middle.0.x, 0)
    }

    func testContentBoxMapsToTheFittedBox() {
        // Content [10, 10, 30, 30] at pixel ratio 2: the 10 px content square is what the text
        // fills, the image's 5 px margins lie outside the fitted box.
        let slot = IconSlot(rect: AtlasRect(x: 0, y: 0, w: 40, h: 40), pixelRatio: 2, sdf: false,
                            stretchX: [10...30], stretchY: [10...30], content: [10, 10, 30, 30])
        let parts = IconTextFit.parts(box: Rect(minX: -20, minY: -10, maxX: 20, maxY: 10), slot: slot, fitted: true, rotate: 0)
        let middle = parts[4].corners(size: 1)
        XCTAssertEqual(middle.0.x, -20, accuracy: 1e-9); XCTAssertEqual(middle.3.x, 20, accuracy: 1e-9)
        let corner = parts[0].corners(size: 1)
        XCTAssertEqual(corner.0.x, -20 - 5.5, accuracy: 1e-9)  // 10 px fixed at ratio 2, plus the border pixel
        XCTAssertEqual(IconTextFit.collisionPadding(slot), Rect(minX: 5, minY: 5, maxX: 5, maxY: 5))
    }

    func testZeroOrBadZonesStretchTheWholeImage() {
        let zero = IconSlot(rect: AtlasRect(x: 0, y: 0, w: 40, h: 40), pixelRatio: 1, sdf: false, stretchX: [10...10])
        let parts = IconTextFit.parts(box: Rect(minX: -50, minY: -20, maxX: 50, maxY: 20), slot: zero, fitted: true, rotate: 0)
        XCTAssertEqual(parts.count, 1)
        let c = parts[0].corners(size: 1)
        XCTAssertTrue([c.0.x, c.0.y, c.3.x, c.3.y].allSatisfy(\.isFinite))
        XCTAssertNil(IconTextFit.usableZones([20...30, 10...15], size: 40))  // out of order
        XCTAssertNil(IconTextFit.usableZones([30...50], size: 40))           // outside the image
        XCTAssertEqual(IconTextFit.usableZones([0...0, 10...20], size: 40), [10...20])
    }

    func testApplyTextFitProportional() {
        // Content 90 × 10 (aspect 9); a fitted 14 × 14 box: proportional width widens it to 126.
        let content: [Double] = [5, 5, 95, 15]
        let box = Rect(minX: 0, minY: 0, maxX: 14, maxY: 14)
        XCTAssertEqual(IconTextFit.applyTextFit(box, content: content, width: .stretchOrShrink, height: .stretchOrShrink), box)
        XCTAssertEqual(IconTextFit.applyTextFit(box, content: content, width: .proportional, height: .proportional),
                       Rect(minX: 0, minY: 0, maxX: 126, maxY: 14))
        XCTAssertEqual(IconTextFit.applyTextFit(box, content: content, width: .stretchOnly, height: .proportional),
                       Rect(minX: 0, minY: 0, maxX: 126, maxY: 14))
        // Proportional width with stretch-only height: the box is already wider than 9:1? No, so unchanged.
        XCTAssertEqual(IconTextFit.applyTextFit(box, content: content, width: .proportional, height: .stretchOnly), box)
        let wide = Rect(minX: -100, minY: -5, maxX: 100, maxY: 5)
        XCTAssertEqual(IconTextFit.applyTextFit(wide, content: content, width: .proportional, height: .stretchOnly),
                       Rect(minX: -100, minY: -5 * 23 / 10, maxX: 100, maxY: -5 * 23 / 10 + 23))
    }
}
