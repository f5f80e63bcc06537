import XCTest
import GLSnapData
import GLSnapStyle
@testable import GLSnapLayout

/// `format` sections: images in text, line breaks, per-section scale and vertical-align.
final class FormattedTextTests: XCTestCase {
    private func section(_ s: String, scale: Double = 1, align: Double = 1) -> TextSection {
        TextSection(text: s.unicodeScalars.map(\.value), fonts: ["f"], scale: scale, color: nil, verticalAlign: align)
    }
    /// A 20 × 10 CSS px image, as FakeSymbolProvider's icons.
    private func image(align: Double = 1) -> TextSection {
        TextSection(text: [0xE000], fonts: [], scale: 1, color: nil,
                    image: IconSlot(rect: AtlasRect(x: 5, y: 5, w: 40, h: 20), pixelRatio: 2, sdf: false), verticalAlign: align)
    }

    func testImageIsOneGlyphAsWideAsTheImage() {
        let p = FakeSymbolProvider()
        let s = TextShaper.shape([section("ab"), image()], provider: p, maxWidth: 240, lineHeight: 24, justify: 0, anchor: .left,
                                 spacing: 0, offset: (0, 0), breakLines: true)
        XCTAssertEqual(s.glyphs.count, 3)
        XCTAssertEqual(s.glyphs[2].x, 24)
        XCTAssertEqual(s.right - s.left, 44, accuracy: 1e-9)
        XCTAssertTrue(s.glyphs[2].isImage)
        // Its rect is the padded one, one texel around the image.
        XCTAssertEqual(s.glyphs[2].slot.rect, AtlasRect(x: 4, y: 4, w: 42, h: 22))
        var quads: [GlyphQuad] = []
        SymbolLayout.appendGlyphQuads(&quads, s, rotate: 0, alongLine: false, offset: (0, 0))
        XCTAssertTrue(quads[2].isImage)
        XCTAssertFalse(quads[0].isImage)
        // Drawn at its CSS size (padding included): 42 texels at pixel ratio 2.
        XCTAssertEqual(quads[2].tr.x - quads[2].tl.x, 21, accuracy: 1e-9)
    }

    func testImageIsDrawnAtItsSizeWhateverTheTextSize() {
        let p = FakeSymbolProvider()
        // At text-size 48 the image glyph's scale halves, so text drawn at 48 px shows it at 20 × 10.
        let s = TextShaper.shape([image()], provider: p, maxWidth: 240, lineHeight: 24, justify: 0, anchor: .left,
                                 spacing: 0, offset: (0, 0), breakLines: true, layoutTextSize: 48, textSizeThisZoom: 48)
        XCTAssertEqual(s.glyphs[0].scale, 0.5, accuracy: 1e-9)
        XCTAssertEqual((s.right - s.left) * 48 / 24, 20, accuracy: 1e-9)
    }

    func testNewlineSectionsBreakLinesAndImagesFollow() {
        let p = FakeSymbolProvider()
        let s = TextShaper.shape([section("Square"), section("\n"), image()], provider: p, maxWidth: 240, lineHeight: 24,
                                 justify: 0.5, anchor: .center, spacing: 0, offset: (0, 0), breakLines: true)
        XCTAssertEqual(s.lineCount, 2)
        XCTAssertGreaterThan(s.glyphs[6].y, s.glyphs[0].y, "the image is on the second line")
        // An image taller than the em would push its line down; this one (10 px) does not.
        XCTAssertEqual(s.bottom - s.top, 48, accuracy: 1e-9)
    }

    func testLineBreaksInsideAndBetweenSections() {
        let p = FakeSymbolProvider()
        let s = TextShaper.shape([section("London\nParis"), section("Berlin", scale: 0.5)], provider: p, maxWidth: 2400,
                                 lineHeight: 24, justify: 0, anchor: .topLeft, spacing: 0, offset: (0, 0), breakLines: true)
        XCTAssertEqual(s.lineCount, 2)
        let lines = Set(s.glyphs.map { ($0.y * 1000).rounded() }).count
        XCTAssertGreaterThanOrEqual(lines, 2)
        XCTAssertEqual(s.glyphs.filter { $0.x == 0 }.count, 2, "each line starts at the left")
    }

    func testVerticalAlignPlacesSmallSectionsInTheLine() {
        let p = FakeSymbolProvider()
        func y(_ align: Double) -> Double {
            let s = TextShaper.shape([section("A"), section("b", scale: 0.5, align: align)], provider: p, maxWidth: 240,
                                     lineHeight: 24, justify: 0, anchor: .left, spacing: 0, offset: (0, 0), breakLines: true)
            return s.glyphs[1].y - s.glyphs[0].y
        }
        // The line is one em high; a half-em section has half an em to spare above it.
        XCTAssertEqual(y(0), 0, accuracy: 1e-9, "top")
        XCTAssertEqual(y(0.5), 6, accuracy: 1e-9, "center")
        XCTAssertEqual(y(1), 12, accuracy: 1e-9, "bottom (the default): on the baseline")
    }

    private func layer(_ layout: String) throws -> StyleLayer {
        let json = #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},"#
            + #" "layers": [{"id": "labels", "type": "symbol", "source": "s", "layout": \#(layout)}]}"#
        return try XCTUnwrap(try Style(bytes: Array(json.utf8)).layers.first)
    }

    private func tile(text: String) -> VectorLayer {
        VectorLayer(name: "s", extent: 8192, version: 2, features: [
            VectorFeature(id: .number(42), geometryType: .point, properties: ["name": .string(text)], geometry: [[TilePoint(x: 4096, y: 4096)]])
        ])
    }

    func testImagesInFormatAreLaidOutAndMissingOnesWarned() throws {
        let p = FakeSymbolProvider()
        let l = try layer(#"{"text-field": ["format", "a", ["image", "pin"], ["image", "missing"], "b"]}"#)
        let symbols = try XCTUnwrap(SymbolLayout.build(layer: l, from: tile(text: ""), zoom: 0,
                                                       canonical: TileID(z: 0, x: 0, y: 0)!, provider: p, pixelRatio: 1))
        XCTAssertEqual(symbols.instances[0].glyphs.count, 3, "a, the pin, b")
        XCTAssertEqual(symbols.glyphQuads.filter(\.isImage).count, 1)
        XCTAssertEqual(p.warnings.count, 1)
        let w = try XCTUnwrap(p.warnings.first)
        XCTAssertTrue(w.contains("layer 'labels'") && w.contains("feature id 42") && w.contains("'missing'"), w)
        // The image is drawn with the icons' atlas, apart from the glyphs.
        let t = Transform(width: 512, height: 512, center: (0, 0), zoom: 0)
        let covered = CoveredTile(id: TileID(z: 0, x: 0, y: 0)!, wrap: 0, overscaledZoom: 0)
        let out = SymbolPlacement.place([SymbolLayerInput(layer: l, tiles: [(covered, symbols)])], transform: t, provider: p)
        XCTAssertEqual(out[0].text.count, 2 * 6 * SymbolDrawData.floatsPerVertex)
        XCTAssertEqual(out[0].textImages.count, 6 * SymbolDrawData.floatsPerVertex)
    }

    func testHugeFormattedTextIsCutAndNamesTheFeature() throws {
        let p = FakeSymbolProvider()
        let l = try layer(#"{"text-field": ["format", ["get", "name"], {}, ["image", "pin"], {}, ["get", "name"], {}]}"#)
        let big = String(repeating: "x", count: 1 << 20)
        let start = Date()
        let symbols = try XCTUnwrap(SymbolLayout.build(layer: l, from: tile(text: big), zoom: 0,
                                                       canonical: TileID(z: 0, x: 0, y: 0)!, provider: p, pixelRatio: 1))
        XCTAssertLessThan(Date().timeIntervalSince(start), 30)
        XCTAssertEqual(symbols.instances[0].glyphs.count, SymbolLayout.maxLabelLength)
        let w = try XCTUnwrap(p.warnings.first)
        XCTAssertTrue(w.contains("layer 'labels'") && w.contains("feature id 42"), w)
    }

    func testVariableAnchorsGetTheirOwnJustification() throws {
        let p = FakeSymbolProvider()
        // Two lines ("aaaa" and "b"); text-justify auto follows the anchor placed.
        let l = try layer(#"{"text-field": "{name}", "text-max-width": 2, "text-justify": "auto", "text-variable-anchor": ["left", "right"]}"#)
        let symbols = try XCTUnwrap(SymbolLayout.build(layer: l, from: tile(text: "aaaa b"), zoom: 0,
                                                       canonical: TileID(z: 0, x: 0, y: 0)!, provider: p, pixelRatio: 1))
        let inst = symbols.instances[0]
        XCTAssertEqual(inst.justifiedGlyphs.count, 3)
        let left = Array(symbols.glyphQuads[inst.glyphs(justifiedFor: .left)])
        let right = Array(symbols.glyphQuads[inst.glyphs(justifiedFor: .right)])
        XCTAssertEqual(left.count, 5); XCTAssertEqual(right.count, 5)
        XCTAssertEqual(left[4].tl.x, left[0].tl.x, accuracy: 1e-9, "left: both lines start together")
        XCTAssertEqual(right[4].tr.x, right[3].tr.x, accuracy: 1e-9, "right: both lines end together")
        XCTAssertEqual(inst.glyphs(justifiedFor: .left), inst.glyphs, "the first anchor's is the one laid out first")
    }
}
