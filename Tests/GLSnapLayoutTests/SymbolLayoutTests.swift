import XCTest
import GLSnapData
import GLSnapStyle
@testable import GLSnapLayout

/// Every glyph 10 px wide with a 12 px advance; icons 20x10 CSS px.
final class FakeSymbolProvider: SymbolResourceProvider, @unchecked Sendable {
    let glyphAtlas = SymbolAtlas(bytesPerPixel: 1)
    let iconAtlas = SymbolAtlas(bytesPerPixel: 4)
    var warnings: [String] = []
    func glyph(fonts: [String], codepoint: UInt32) -> GlyphSlot? {
        if codepoint == 0x20 { return GlyphSlot(left: 0, top: 0, width: 0, height: 0, advance: 6, rect: nil) }
        return GlyphSlot(left: 1, top: 15, width: 10, height: 14, advance: 12, rect: AtlasRect(x: 0, y: 0, w: 18, h: 22))
    }
    func icon(name: String, params: [String: Color], iconSize: Double, pixelRatio: Double) -> IconSlot? {
        name == "missing" ? nil : IconSlot(rect: AtlasRect(x: 0, y: 0, w: 20, h: 10), pixelRatio: 1, sdf: false)
    }
    func warn(_ message: String) { warnings.append(message) }
}

final class SymbolLayoutTests: XCTestCase {
    private func layer(_ layout: String, paint: String = "{}") throws -> StyleLayer {
        let json = #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},"#
            + #" "layers": [{"id": "l", "type": "symbol", "source": "s", "layout": \#(layout), "paint": \#(paint)}]}"#
        return try XCTUnwrap(try Style(bytes: Array(json.utf8)).layers.first)
    }

    private func section(_ s: String) -> TextSection {
        TextSection(text: s.unicodeScalars.map(\.value), fonts: ["f"], scale: 1, color: nil)
    }

    func testShapingCentersOneLine() {
        let p = FakeSymbolProvider()
        let s = TextShaper.shape([section("ab")], provider: p, maxWidth: 240, lineHeight: 28.8, justify: 0.5,
                                 anchor: .center, spacing: 0, offset: (0, 0), breakLines: true)
        XCTAssertEqual(s.glyphs.map(\.x), [-12, 0])
        XCTAssertEqual(s.left, -12); XCTAssertEqual(s.right, 12)
        XCTAssertEqual(s.top, -14.4, accuracy: 1e-9); XCTAssertEqual(s.bottom, 14.4, accuracy: 1e-9)
        // The baseline: -17 + (0.5 line heights shifted up).
        XCTAssertEqual(s.glyphs[0].y, -17 + 0.5 * 28.8 - 0.5 * 28.8 + (-0.5 + 0.5) * 28.8 + 0, accuracy: 1e-9)
    }

    func testShapingBreaksBalancedLines() {
        let p = FakeSymbolProvider()
        // "aaa bbb ccc": 9 glyphs × 12 + 2 spaces × 6 = 120 px; a 100 px limit gives two lines.
        let s = TextShaper.shape([section("aaa bbb ccc")], provider: p, maxWidth: 100, lineHeight: 24, justify: 0,
                                 anchor: .topLeft, spacing: 0, offset: (0, 0), breakLines: true)
        XCTAssertEqual(s.lineCount, 2)
        // Balanced (target 60 px): "aaa bbb" (78 px with its space) then "ccc" (36 px) beats "aaa" / "bbb ccc".
        XCTAssertEqual(s.glyphs.count, 10)
        XCTAssertEqual(s.glyphs.map(\.x), [0, 12, 24, 36, 42, 54, 66, 0, 12, 24])
        XCTAssertEqual(s.right, 78)
        // Left-justified, top-left anchored: every line starts at x = 0.
        XCTAssertEqual(s.glyphs.filter { $0.x == 0 }.count, 2)
        XCTAssertEqual(s.top, 0); XCTAssertEqual(s.left, 0)
    }

    func testZeroMaxWidthBreaksAtEveryOpportunity() {
        let p = FakeSymbolProvider()
        // GL JS 6 (render test text-max-width/zero-width-point-placement): a point label with
        // text-max-width 0 takes one word a line; line placement still never breaks.
        let point = TextShaper.shape([section("aaa bbb ccc")], provider: p, maxWidth: 0, lineHeight: 24, justify: 0,
                                     anchor: .topLeft, spacing: 0, offset: (0, 0), breakLines: true)
        XCTAssertEqual(point.lineCount, 3)
        let line = TextShaper.shape([section("aaa bbb ccc")], provider: p, maxWidth: 0, lineHeight: 24, justify: 0,
                                    anchor: .topLeft, spacing: 0, offset: (0, 0), breakLines: false)
        XCTAssertEqual(line.lineCount, 1)
        // An empty label stays one (empty) line.
        let empty = TextShaper.shape([section("")], provider: p, maxWidth: 0, lineHeight: 24, justify: 0,
                                     anchor: .topLeft, spacing: 0, offset: (0, 0), breakLines: true)
        XCTAssertLessThanOrEqual(empty.lineCount, 1)
    }

    func testEmptyLineCountsForCentering() {
        let p = FakeSymbolProvider()
        // "a\n\na": three lines (the middle one empty), centered: the block is 3 × 24 high and
        // the glyphs sit on the first and third lines, symmetric about the anchor.
        let s = TextShaper.shape([section("a\n\na")], provider: p, maxWidth: 240, lineHeight: 24, justify: 0.5,
                                 anchor: .center, spacing: 0, offset: (0, 0), breakLines: true)
        XCTAssertEqual(s.lineCount, 3)
        XCTAssertEqual(s.top, -36, accuracy: 1e-9); XCTAssertEqual(s.bottom, 36, accuracy: 1e-9)
        XCTAssertEqual(s.glyphs.count, 2)
        XCTAssertEqual(s.glyphs[1].y - s.glyphs[0].y, 48, accuracy: 1e-9)
        XCTAssertEqual(s.glyphs[0].y, -17 - 24, accuracy: 1e-9, "one line height above the single-line baseline")
    }

    func testAtlasPacksWithoutOverlap() {
        let atlas = SymbolAtlas(bytesPerPixel: 1, width: 64, height: 16, maxHeight: 64)
        var rects: [AtlasRect] = []
        for _ in 0..<12 {
            guard let r = atlas.add([UInt8](repeating: 7, count: 100), w: 10, h: 10, padding: 1) else { break }
            rects.append(r)
        }
        XCTAssertEqual(rects.count, 12)
        for i in rects.indices { for j in rects.indices where i < j {
            let a = rects[i], b = rects[j]
            XCTAssertFalse(a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h, "\(a) overlaps \(b)")
        } }
        XCTAssertNil(atlas.add([UInt8](repeating: 0, count: 100 * 100), w: 100, h: 100, padding: 1))
    }

    func testAnchorsAlongStraightLine() {
        let line = [Vec2(0, 4096), Vec2(8192, 4096)]
        let anchors = SymbolAnchors.along(line, spacing: 1000, maxAngle: .pi / 4, labelLength: 100, glyphSize: 24,
                                          hasText: true, boxScale: 1, overscaling: 1, extent: 8192)
        // Continued line (starts on the tile edge): offset spacing/2, then every 1000 units while the label fits.
        XCTAssertEqual(anchors.map(\.point.x), [500, 1500, 2500, 3500, 4500, 5500, 6500, 7500])
        XCTAssertTrue(anchors.allSatisfy { $0.point.y == 4096 })
    }

    private func tile(_ points: [(Int32, Int32)], text: String) -> VectorLayer {
        VectorLayer(name: "s", extent: 8192, version: 2, features: points.map {
            VectorFeature(id: nil, geometryType: .point, properties: ["name": .string(text)], geometry: [[TilePoint(x: $0.0, y: $0.1)]])
        })
    }

    func testCollisionHidesOverlappingLabelsUnlessAllowed() throws {
        let p = FakeSymbolProvider()
        let t = Transform(width: 512, height: 512, center: (0, 0), zoom: 0)
        let src = tile([(4096, 4096), (4100, 4096), (1000, 1000)], text: "ab")
        for (allow, expectedQuads) in [(false, 2), (true, 3)] {
            let l = try layer(#"{"text-field": "{name}", "text-allow-overlap": \#(allow)}"#)
            let symbols = try XCTUnwrap(SymbolLayout.build(layer: l, from: src, zoom: 0, canonical: TileID(z: 0, x: 0, y: 0)!, provider: p, pixelRatio: 1))
            XCTAssertEqual(symbols.count, 3)
            let covered = CoveredTile(id: TileID(z: 0, x: 0, y: 0)!, wrap: 0, overscaledZoom: 0)
            let out = SymbolPlacement.place([SymbolLayerInput(layer: l, tiles: [(covered, symbols)])], transform: t, provider: p)
            // Two glyph quads of 6 vertices per label.
            XCTAssertEqual(out[0].text.count / SymbolDrawData.floatsPerVertex, expectedQuads * 2 * 6, "allow-overlap \(allow)")
        }
    }

    /// `within` in a symbol layer's layout knows the tile its features are in (within/layout-text):
    /// without it the expression cannot place a feature and answers false for every one.
    func testWithinInTextFieldPlacesFeaturesInTheirTile() throws {
        let p = FakeSymbolProvider()
        let west = #"{"type": "Polygon", "coordinates": [[[-170, -60], [-10, -60], [-10, 60], [-170, 60], [-170, -60]]]}"#
        let l = try layer(#"{"text-field": ["case", ["within", \#(west)], "aa", "a"], "text-allow-overlap": true}"#)
        // At z0, x 1000 of 8192 is near 136 W (inside), x 7000 near 128 E (outside).
        let symbols = try XCTUnwrap(SymbolLayout.build(layer: l, from: tile([(1000, 4096), (7000, 4096)], text: ""), zoom: 0,
                                                       canonical: TileID(z: 0, x: 0, y: 0)!, provider: p, pixelRatio: 1))
        XCTAssertEqual(symbols.glyphQuads.count, 3, "two glyphs for the western point, one for the eastern")
    }

    func testMissingIconIsSkippedButTextStays() throws {
        let p = FakeSymbolProvider()
        let l = try layer(#"{"text-field": "{name}", "icon-image": "missing"}"#)
        let symbols = try XCTUnwrap(SymbolLayout.build(layer: l, from: tile([(4096, 4096)], text: "a"), zoom: 0,
                                                       canonical: TileID(z: 0, x: 0, y: 0)!, provider: p, pixelRatio: 1))
        XCTAssertEqual(symbols.count, 1)
        XCTAssertNil(symbols.instances[0].icon)
    }

    /// `coalesce` of images takes the first the style holds (runtime-styling/image-add-coalesce):
    /// layout tells the expression which images are available.
    func testCoalesceOfImagesSkipsImagesTheStyleLacks() throws {
        final class ListingProvider: SymbolResourceProvider, @unchecked Sendable {
            let glyphAtlas = SymbolAtlas(bytesPerPixel: 1)
            let iconAtlas = SymbolAtlas(bytesPerPixel: 4)
            var requested: [String] = []
            func glyph(fonts: [String], codepoint: UInt32) -> GlyphSlot? { nil }
            func icon(name: String, params: [String: Color], iconSize: Double, pixelRatio: Double) -> IconSlot? {
                requested.append(name)
                return IconSlot(rect: AtlasRect(x: 0, y: 0, w: 20, h: 10), pixelRatio: 1, sdf: false)
            }
            func warn(_ message: String) {}
            func availableImages(pixelRatio: Double) -> Set<String>? { ["rocket", "other"] }
        }
        let p = ListingProvider()
        let l = try layer(#"{"icon-image": ["coalesce", ["image", "none1"], ["image", "none2"], ["image", "rocket"], ["image", "other"]]}"#)
        let symbols = try XCTUnwrap(SymbolLayout.build(layer: l, from: tile([(4096, 4096)], text: "a"), zoom: 0,
                                                       canonical: TileID(z: 0, x: 0, y: 0)!, provider: p, pixelRatio: 1))
        XCTAssertNotNil(symbols.instances.first?.icon)
        XCTAssertEqual(p.requested, ["rocket"])
    }

    func testHugeTextFieldIsCutWithWarning() throws {
        let p = FakeSymbolProvider()
        let l = try layer(#"{"text-field": "{name}"}"#)
        let big = String(repeating: "x", count: 1 << 20)
        let symbols = try XCTUnwrap(SymbolLayout.build(layer: l, from: tile([(4096, 4096)], text: big), zoom: 0,
                                                       canonical: TileID(z: 0, x: 0, y: 0)!, provider: p, pixelRatio: 1))
        XCTAssertEqual(symbols.instances[0].glyphs.count, SymbolLayout.maxLabelLength)
        XCTAssertEqual(p.warnings.count, 1)
    }
}
