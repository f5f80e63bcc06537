import XCTest
import GLSnapData
import GLSnapStyle
@testable import GLSnapLayout

/// Full-width CJK glyphs (24 px advance, a 22 px box) and half-width Latin ones (12 px).
final class CJKSymbolProvider: SymbolResourceProvider, @unchecked Sendable {
    let glyphAtlas = SymbolAtlas(bytesPerPixel: 1)
    let iconAtlas = SymbolAtlas(bytesPerPixel: 4)
    var warnings: [String] = []
    func glyph(fonts: [String], codepoint: UInt32) -> GlyphSlot? {
        if codepoint == 0x20 { return GlyphSlot(left: 0, top: 0, width: 0, height: 0, advance: 6, rect: nil) }
        if codepoint >= 0x2E80 {
            return GlyphSlot(left: 1, top: -8, width: 22, height: 22, advance: 24, rect: AtlasRect(x: 0, y: 0, w: 30, h: 30))
        }
        return GlyphSlot(left: 1, top: -8, width: 10, height: 14, advance: 12, rect: AtlasRect(x: 0, y: 0, w: 18, h: 22))
    }
    func icon(name: String, params: [String: Color], iconSize: Double, pixelRatio: Double) -> IconSlot? { nil }
    func warn(_ message: String) { warnings.append(message) }
}

final class VerticalTextTests: XCTestCase {
    private func cps(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }
    private func section(_ s: String) -> TextSection { TextSection(text: cps(s), fonts: ["f"], scale: 1, color: nil) }

    func testUprightOrientationFollowsUnicode() {
        XCTAssertTrue(VerticalText.hasUprightOrientation(0x4E2D), "CJK ideograph")
        XCTAssertTrue(VerticalText.hasUprightOrientation(0x30DE), "katakana MA")
        XCTAssertFalse(VerticalText.hasUprightOrientation(0x30FC), "the prolonged sound mark turns with the line")
        XCTAssertFalse(VerticalText.hasUprightOrientation(0xFF08), "fullwidth parenthesis turns")
        XCTAssertTrue(VerticalText.hasUprightOrientation(0xAC00), "Hangul")
        XCTAssertFalse(VerticalText.hasUprightOrientation(0x41), "Latin")
        XCTAssertTrue(VerticalText.allowsVerticalWritingMode(cps("abc中")))
        XCTAssertFalse(VerticalText.allowsVerticalWritingMode(cps("abc, déf")))
    }

    func testPunctuationTakesVerticalFormsOutsideLatinRuns() {
        XCTAssertEqual(VerticalText.verticalizePunctuation(cps("中，国。")), [0x4E2D, 0xFE10, 0x56FD, 0xFE12])
        XCTAssertEqual(VerticalText.verticalizePunctuation(cps("「東京」")), [0xFE41, 0x6771, 0x4EAC, 0xFE42])
        // A comma inside a Latin word stays as it is; brackets around CJK turn into vertical forms.
        XCTAssertEqual(VerticalText.verticalizePunctuation(cps("a,b")), cps("a,b"))
        XCTAssertEqual(VerticalText.verticalizePunctuation(cps("中(文)")), [0x4E2D, 0xFE35, 0x6587, 0xFE36])
    }

    func testWritingModesAsMapLibreReadsThem() {
        XCTAssertEqual(WritingMode.modes(nil, placement: .point), [.horizontal])
        XCTAssertEqual(WritingMode.modes(nil, placement: .line), [.horizontal, .vertical])
        XCTAssertEqual(WritingMode.modes(["vertical", "horizontal", "vertical"], placement: .point), [.vertical, .horizontal])
    }

    func testVerticalShapingAdvancesOneEmPerUprightGlyph() {
        let p = CJKSymbolProvider()
        // Point labels: every glyph but spaces stands upright and advances one em (Latin too).
        let s = TextShaper.shape([section("中a 文")], provider: p, maxWidth: 240, lineHeight: 28.8, justify: 0, anchor: .center,
                                 spacing: 0, offset: (0, 0), breakLines: true, writingMode: .vertical, allowVerticalPlacement: true)
        XCTAssertEqual(s.glyphs.map(\.vertical), [true, true, false, true])
        XCTAssertEqual(s.glyphs[1].x - s.glyphs[0].x, 24, accuracy: 1e-9)
        XCTAssertEqual(s.glyphs[2].x - s.glyphs[1].x, 24, accuracy: 1e-9)
        XCTAssertEqual(s.glyphs[3].x - s.glyphs[2].x, 6, accuracy: 1e-9, "a space advances its own width")
        XCTAssertTrue(s.verticalizable)
        // Line labels: only characters upright by Unicode; Latin keeps its advance and turns with the line.
        let line = TextShaper.shape([section("中ab")], provider: p, maxWidth: 0, lineHeight: 28.8, justify: 0.5, anchor: .center,
                                    spacing: 0, offset: (0, 0), breakLines: false, writingMode: .vertical)
        XCTAssertEqual(line.glyphs.map(\.vertical), [true, false, false])
        XCTAssertEqual(line.glyphs[2].x - line.glyphs[1].x, 12, accuracy: 1e-9)
    }

    func testVerticalPointLabelReadsDownwardWithUprightGlyphs() {
        let p = CJKSymbolProvider()
        let s = TextShaper.shape([section("中文字")], provider: p, maxWidth: 240, lineHeight: 28.8, justify: 0, anchor: .center,
                                 spacing: 0, offset: (0, 0), breakLines: true, writingMode: .vertical, allowVerticalPlacement: true)
        var quads: [GlyphQuad] = []
        SymbolLayout.appendGlyphQuads(&quads, s, rotate: 0, alongLine: false, offset: (0, 0), allowVerticalPlacement: true, turnLabel: true)
        XCTAssertEqual(quads.count, 3)
        let centers = quads.map { Vec2(($0.tl.x + $0.br.x) / 2, ($0.tl.y + $0.br.y) / 2) }
        for k in 1..<3 {
            XCTAssertEqual(centers[k].x, centers[0].x, accuracy: 1e-9, "one column")
            XCTAssertEqual(centers[k].y - centers[k - 1].y, 24, accuracy: 1e-9, "one em further down")
        }
        for q in quads {
            // Upright, not mirrored: the texture's top-left corner is drawn at the top left.
            XCTAssertEqual(q.tl.y, q.tr.y, accuracy: 1e-9); XCTAssertLessThan(q.tl.x, q.tr.x)
            XCTAssertEqual(q.tl.x, q.bl.x, accuracy: 1e-9); XCTAssertLessThan(q.tl.y, q.bl.y)
        }
        // The collision box turns the same way: as tall as the label is long.
        let box = s.box.turnedQuarterClockwise
        XCTAssertEqual(box.height, s.right - s.left, accuracy: 1e-9)
        XCTAssertEqual(box.width, s.bottom - s.top, accuracy: 1e-9)
    }

    func testVerticalLineGlyphTurnsAQuarterBack() {
        let p = CJKSymbolProvider()
        let s = TextShaper.shape([section("中a")], provider: p, maxWidth: 0, lineHeight: 28.8, justify: 0.5, anchor: .center,
                                 spacing: 0, offset: (0, 0), breakLines: false, writingMode: .vertical)
        var quads: [GlyphQuad] = []
        SymbolLayout.appendGlyphQuads(&quads, s, rotate: 0, alongLine: true, offset: (0, 0))
        // The upright glyph's texture runs up the quad (turned counterclockwise: its top edge on the left).
        let q = quads[0]
        XCTAssertLessThan(q.tr.y, q.tl.y, "the texture's x runs up the line's normal")
        XCTAssertEqual(q.tl.x, q.tr.x, accuracy: 1e-9)
        XCTAssertGreaterThan(q.bl.x, q.tl.x, "its y runs along the line")
        // The Latin glyph stays as laid along the line.
        XCTAssertEqual(quads[1].tl.y, quads[1].tr.y, accuracy: 1e-9)
        XCTAssertLessThan(quads[1].tl.x, quads[1].tr.x)
    }

    private func layer(_ layout: String) throws -> StyleLayer {
        let json = #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},"#
            + #" "layers": [{"id": "l", "type": "symbol", "source": "s", "layout": \#(layout)}]}"#
        return try XCTUnwrap(try Style(bytes: Array(json.utf8)).layers.first)
    }

    private func tile(_ points: [(Int32, Int32)], text: String) -> VectorLayer {
        VectorLayer(name: "s", extent: 8192, version: 2, features: points.map {
            VectorFeature(id: .number(7), geometryType: .point, properties: ["name": .string(text)], geometry: [[TilePoint(x: $0.0, y: $0.1)]])
        })
    }

    func testWritingModeOrderDecidesOrientation() throws {
        let p = CJKSymbolProvider()
        let t = Transform(width: 512, height: 512, center: (0, 0), zoom: 0)
        let covered = CoveredTile(id: TileID(z: 0, x: 0, y: 0)!, wrap: 0, overscaledZoom: 0)
        func columns(_ modes: String) throws -> Bool {
            let l = try layer(#"{"text-field": "{name}", "text-writing-mode": \#(modes)}"#)
            let symbols = try XCTUnwrap(SymbolLayout.build(layer: l, from: tile([(4096, 4096)], text: "地図"), zoom: 0,
                                                           canonical: TileID(z: 0, x: 0, y: 0)!, provider: p, pixelRatio: 1))
            XCTAssertEqual(symbols.instances[0].verticalGlyphs.count, modes.contains("vertical") ? 2 : 0)
            let out = SymbolPlacement.place([SymbolLayerInput(layer: l, tiles: [(covered, symbols)])], transform: t, provider: p)
            let v = out[0].text, f = SymbolDrawData.floatsPerVertex
            XCTAssertEqual(v.count, 2 * 6 * f)
            // The first vertex (top left) of each glyph: one above the other, or side by side.
            return abs(v[0] - v[6 * f]) < 1e-3 && v[6 * f + 1] > v[1]
        }
        XCTAssertTrue(try columns(#"["vertical", "horizontal"]"#))
        XCTAssertFalse(try columns(#"["horizontal", "vertical"]"#))
        XCTAssertFalse(try columns(#"["horizontal"]"#))
    }

    func testLatinHasNoVerticalLayout() throws {
        let p = CJKSymbolProvider()
        let l = try layer(#"{"text-field": "{name}", "text-writing-mode": ["vertical"]}"#)
        let symbols = try XCTUnwrap(SymbolLayout.build(layer: l, from: tile([(4096, 4096)], text: "Map"), zoom: 0,
                                                       canonical: TileID(z: 0, x: 0, y: 0)!, provider: p, pixelRatio: 1))
        XCTAssertTrue(symbols.instances[0].verticalGlyphs.isEmpty)
        XCTAssertEqual(symbols.instances[0].glyphs.count, 3)
    }

    func testLineLabelOnAVerticalLineStandsUprightReadingDown() throws {
        let p = CJKSymbolProvider()
        let t = Transform(width: 512, height: 512, center: (0, 0), zoom: 0)
        let covered = CoveredTile(id: TileID(z: 0, x: 0, y: 0)!, wrap: 0, overscaledZoom: 0)
        let l = try layer(#"{"text-field": "{name}", "symbol-placement": "line", "text-allow-overlap": true}"#)
        for (from, to) in [(Int32(1000), Int32(7000)), (7000, 1000)] {
            let line = VectorLayer(name: "s", extent: 8192, version: 2, features: [
                VectorFeature(id: nil, geometryType: .lineString, properties: ["name": .string("中文字")],
                              geometry: [[TilePoint(x: 4096, y: from), TilePoint(x: 4096, y: to)]])
            ])
            let symbols = try XCTUnwrap(SymbolLayout.build(layer: l, from: line, zoom: 0, canonical: TileID(z: 0, x: 0, y: 0)!,
                                                           provider: p, pixelRatio: 1))
            let inst = try XCTUnwrap(symbols.instances.first)
            XCTAssertEqual(inst.verticalGlyphs.count, 3)
            let out = SymbolPlacement.place([SymbolLayerInput(layer: l, tiles: [(covered, Self.first(symbols))])], transform: t, provider: p)
            let v = out[0].text, f = SymbolDrawData.floatsPerVertex
            XCTAssertEqual(v.count, 3 * 6 * f)
            var tops: [Float] = []
            for g in 0..<3 {
                let tl = (v[g * 6 * f], v[g * 6 * f + 1]), tr = (v[(g * 6 + 1) * f], v[(g * 6 + 1) * f + 1])
                let bl = (v[(g * 6 + 2) * f], v[(g * 6 + 2) * f + 1])
                XCTAssertEqual(tl.1, tr.1, accuracy: 1e-3, "upright: the texture's top edge level")
                XCTAssertLessThan(tl.0, tr.0); XCTAssertLessThan(tl.1, bl.1)
                tops.append(tl.1)
            }
            XCTAssertTrue(tops[0] < tops[1] && tops[1] < tops[2], "reads top to bottom, line drawn \(from) to \(to): \(tops)")
        }
    }

    /// The tile with its first symbol only.
    private static func first(_ tile: SymbolTile) -> SymbolTile {
        var t = tile
        t.instances = Array(tile.instances.prefix(1))
        return t
    }
}
