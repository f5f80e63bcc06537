import XCTest
@testable import GLSnapImage

final class LocalGlyphTests: XCTestCase {
    func testSignedDistanceOfASquare() {
        // A fully covered 4x4 square with a 3 px border: 10x10 field.
        let field = SignedDistance.field(coverage: [UInt8](repeating: 255, count: 16), width: 4, height: 4, border: 3)
        XCTAssertEqual(field.count, 100)
        let row = 4 * 10
        // One pixel outside the edge: distance 1 → 255 - 255 × (1/8 + 1/4) = 159.
        XCTAssertEqual(field[row + 2], 159)
        // One pixel inside: distance -1 → 255 - 255 × (-1/8 + 1/4) = 223.
        XCTAssertEqual(field[row + 3], 223)
        // Three pixels out (the field's corner is further): 255 - 255 × (3/8 + 1/4) = 96.
        XCTAssertEqual(field[row + 0], 96)
        XCTAssertEqual(field[0], UInt8((255 - 255 * ((18.0).squareRoot() / 8 + 0.25)).rounded()))
    }

    func testHalfCoveredPixelPutsTheEdgeInside() {
        // A single pixel half covered: the edge (value 191) lies at its center.
        let field = SignedDistance.field(coverage: [128], width: 1, height: 1, border: 3)
        XCTAssertEqual(field.count, 49)
        XCTAssertEqual(Int(field[3 * 7 + 3]), 191, accuracy: 1)
    }

    func testLocalFontGlyphHasPBFMetrics() throws {
        let r = LocalGlyphRasterizer()
        guard let h = r.glyph(font: "Noto Sans Regular", codepoint: 0x48) else {
            throw XCTSkip("no local font has 'H' (install fonts-dejavu-core)")
        }
        XCTAssertGreaterThan(h.width, 8)
        XCTAssertGreaterThan(h.height, 12)
        XCTAssertEqual(h.sdf.count, (h.width + 6) * (h.height + 6))
        // Measured from the ascender, as PBFs do: a capital's top lies a few pixels below it.
        XCTAssertLessThan(h.top, 0)
        XCTAssertGreaterThan(h.top, -14)
        XCTAssertGreaterThan(h.advance, h.width)
        // The SDF is inside (>= 192) somewhere, and outside at the corner.
        XCTAssertGreaterThan(h.sdf.max() ?? 0, 191)
        XCTAssertLessThan(h.sdf[0], 100)
        // A space has an advance and no bitmap.
        let space = try XCTUnwrap(r.glyph(font: "Noto Sans Regular", codepoint: 0x20))
        XCTAssertTrue(space.sdf.isEmpty)
        XCTAssertGreaterThan(space.advance, 0)
        // Out-of-range code points give nothing.
        XCTAssertNil(r.glyph(font: "Noto Sans Regular", codepoint: 0x110000))
    }
}
