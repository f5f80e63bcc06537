import XCTest
import GLSnapStyle
@testable import GLSnapLayout

final class PatternAtlasTests: XCTestCase {
    /// A 2 x 2 image whose texels are 1, 2 (top) and 3, 4 (bottom) in every channel.
    private let image: [UInt8] = [1, 2, 3, 4].flatMap { [UInt8](repeating: $0, count: 4) }

    func testWrapPaddingCopiesTheOppositeEdges() {
        let padded = PatternAtlas.wrapPadded(image, width: 2, height: 2)
        let red = stride(from: 0, to: padded.count, by: 4).map { padded[$0] }
        XCTAssertEqual(red, [4, 3, 4, 3,
                             2, 1, 2, 1,
                             4, 3, 4, 3,
                             2, 1, 2, 1])
    }

    func testAddPlacesTheImageInsideItsPadding() throws {
        let atlas = PatternAtlas()
        let p = try XCTUnwrap(atlas.add(key: "a", pixels: image, width: 2, height: 2, pixelRatio: 2))
        XCTAssertEqual(p, PatternPosition(x: 1, y: 1, width: 2, height: 2, pixelRatio: 2))
        XCTAssertEqual(p.corners, [1, 1, 3, 3])
        let snap = atlas.atlas.snapshot()
        XCTAssertEqual(snap.pixels[(1 * snap.width + 1) * 4], 1)
        XCTAssertEqual(snap.pixels[(2 * snap.width + 2) * 4], 4)
        XCTAssertEqual(snap.pixels[0], 4, "the corner texel wraps to the opposite corner")
        // Adding the key again keeps the first placement.
        XCTAssertEqual(atlas.add(key: "a", pixels: image, width: 2, height: 2, pixelRatio: 1), p)
    }

    func testMissingImagesAreRememberedAsMissing() {
        let atlas = PatternAtlas()
        XCTAssertNil(atlas.lookup("gone"))
        XCTAssertNil(atlas.add(key: "gone", pixels: nil, width: 0, height: 0, pixelRatio: 1))
        XCTAssertEqual(atlas.lookup("gone").map { $0 == nil }, true)
        XCTAssertNil(atlas.position("gone"))
        // Pixels that do not match the size are refused rather than read past their end.
        XCTAssertNil(atlas.add(key: "short", pixels: [0, 0, 0], width: 1, height: 1, pixelRatio: 1))
    }

    func testImageNamesFromValues() {
        XCTAssertEqual(PatternAtlas.image(.string("dots"))?.name, "dots")
        XCTAssertNil(PatternAtlas.image(.string("")))
        XCTAssertNil(PatternAtlas.image(.null))
    }
}
