import Foundation
import XCTest
import GLSnapTestSupport
@testable import GLSnapData

final class SymbolGlyphTests: XCTestCase {
    private func shared() throws -> String {
        try SharedFolder.require().path
    }

    func testParsesFixtureRange() throws {
        let bytes = try ResourceResolver().load(try shared() + "/fixtures/glyphs/Noto Sans Regular/0-255.pbf")
        let glyphs = try GlyphPBF.parse(bytes)
        let byID = Dictionary(glyphs.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let a = try XCTUnwrap(byID[65])
        XCTAssertGreaterThan(a.width, 0)
        XCTAssertEqual(a.bitmap.count, (a.width + 6) * (a.height + 6))
        XCTAssertGreaterThan(a.advance, 0)
        let space = try XCTUnwrap(byID[32])
        XCTAssertTrue(space.bitmap.isEmpty)
    }

    func testTruncatedRangeThrows() throws {
        let bytes = try ResourceResolver().load(try shared() + "/fixtures/glyphs/Noto Sans Regular/0-255.pbf")
        XCTAssertThrowsError(try GlyphPBF.parse(Array(bytes.prefix(bytes.count / 2)), url: "x.pbf")) { error in
            guard case GlyphError.malformed(let url, _)? = error as? GlyphError else { return XCTFail("\(error)") }
            XCTAssertEqual(url, "x.pbf")
        }
    }

    func testStoreFallsBackThroughFontstack() throws {
        let dir = try shared() + "/fixtures/glyphs/"
        let store = GlyphStore(template: dir + "{fontstack}/{range}.pbf", resolver: ResourceResolver())
        XCTAssertNotNil(store.glyph(fonts: ["Missing Font", "Noto Sans Bold"], codepoint: 66))
        XCTAssertNil(store.glyph(fonts: ["Missing Font"], codepoint: 66))
        XCTAssertEqual(GlyphStore.url(template: "local://glyphs/{fontstack}/{range}.pbf?key=1", fontstack: "A,B", range: 1),
                       "local://glyphs/A,B/256-511.pbf")
    }

    func testSpriteIndexDropsEntriesOutsideSheet() throws {
        let json = #"{"a": {"x": 0, "y": 0, "width": 10, "height": 10, "pixelRatio": 2, "sdf": true},"#
            + #" "b": {"x": 95, "y": 0, "width": 10, "height": 10}}"#
        var problems: [String] = []
        let index = try SpriteIndex.parse(Array(json.utf8), url: "s.json", sheetWidth: 100, sheetHeight: 100, problems: &problems)
        XCTAssertEqual(index["a"], SpriteEntry(x: 0, y: 0, width: 10, height: 10, pixelRatio: 2, sdf: true))
        XCTAssertNil(index["b"])
        XCTAssertEqual(problems.count, 1)
    }

    func testSpriteIndexReadsStretchMetadataAndRefusesZeroZones() throws {
        let json = #"{"ok": {"x": 0, "y": 0, "width": 40, "height": 20, "stretchX": [[10, 30]], "stretchY": [[5, 5], [5, 15]],"#
            + #" "content": [10, 5, 30, 15], "textFitWidth": "stretchOnly", "textFitHeight": "proportional"},"#
            + #" "zero": {"x": 0, "y": 0, "width": 40, "height": 20, "stretchX": [[10, 10]], "content": [30, 5, 10, 15]},"#
            + #" "outside": {"x": 0, "y": 0, "width": 40, "height": 20, "stretchY": [[5, 25]]}}"#
        var problems: [String] = []
        let index = try SpriteIndex.parse(Array(json.utf8), url: "s.json", sheetWidth: 100, sheetHeight: 100, problems: &problems)
        let ok = try XCTUnwrap(index["ok"])
        XCTAssertEqual(ok.stretchX, [10...30])
        XCTAssertEqual(ok.stretchY, [5...15])  // the empty zone is dropped, the other kept
        XCTAssertEqual(ok.content, [10, 5, 30, 15])
        XCTAssertEqual(ok.textFitWidth, .stretchOnly)
        XCTAssertEqual(ok.textFitHeight, .proportional)
        let zero = try XCTUnwrap(index["zero"])
        XCTAssertEqual(zero.stretchX, [])
        XCTAssertNil(zero.content)
        XCTAssertEqual(try XCTUnwrap(index["outside"]).stretchY, [])
        XCTAssertEqual(problems.count, 3, "\(problems)")
        XCTAssertTrue(problems.contains { $0.contains("image 'zero'") && $0.contains("zero-length") }, "\(problems)")
        XCTAssertTrue(problems.contains { $0.contains("image 'outside'") && $0.contains("stretchY") }, "\(problems)")
    }
}
