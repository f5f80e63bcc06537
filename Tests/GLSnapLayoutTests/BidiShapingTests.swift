import XCTest
import GLSnapData
import GLSnapStyle
@testable import GLSnapLayout

/// Every glyph 10 px wide with a 12 px advance (spaces 6 px), its code point kept in the atlas
/// rect's x so that tests can read which character was drawn where.
private final class CodepointProvider: SymbolResourceProvider, @unchecked Sendable {
    let glyphAtlas = SymbolAtlas(bytesPerPixel: 1)
    let iconAtlas = SymbolAtlas(bytesPerPixel: 4)
    var warnings: [String] = []
    func glyph(fonts: [String], codepoint: UInt32) -> GlyphSlot? {
        GlyphSlot(left: 1, top: 15, width: 10, height: 14, advance: codepoint == 0x20 ? 6 : 12,
                  rect: AtlasRect(x: Int(codepoint), y: 0, w: 18, h: 22))
    }
    func icon(name: String, params: [String: Color], iconSize: Double, pixelRatio: Double) -> IconSlot? { nil }
    func warn(_ message: String) { warnings.append(message) }
}

final class BidiShapingTests: XCTestCase {
    private func cps(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }

    private func shape(_ texts: [String], maxWidth: Double = .infinity, spacing: Double = 0) -> Shaping {
        let sections = texts.map { TextSection(text: cps($0), fonts: ["f"], scale: 1, color: nil) }
        return TextShaper.shape(sections, provider: CodepointProvider(), maxWidth: maxWidth, lineHeight: 24, justify: 0.5,
                                anchor: .center, spacing: spacing, offset: (0, 0), breakLines: true)
    }

    /// The code points drawn, line by line (top first), each line left to right.
    private func drawn(_ s: Shaping) -> [[UInt32]] {
        var lines: [Double: [PositionedGlyph]] = [:]
        for g in s.glyphs { lines[g.y, default: []].append(g) }
        return lines.keys.sorted().map { y in lines[y]!.sorted { $0.x < $1.x }.map { UInt32($0.slot.rect!.x) } }
    }

    func testHebrewIsDrawnRightToLeft() {
        XCTAssertEqual(drawn(shape(["אבג"])), [cps("גבא")])
    }

    func testLatinTakesTheFastPathInLogicalOrder() {
        let text = BidiText([TextSection(text: cps("ab (c)"), fonts: ["f"], scale: 1, color: nil)])
        XCTAssertEqual(text.codepoints, cps("ab (c)"))
        XCTAssertEqual(text.visualOrder(0..<6), Array(0..<6))
        XCTAssertEqual(drawn(shape(["ab (c)"])), [cps("ab (c)")])
    }

    func testNumbersStayLeftToRightInsideRightToLeftText() {
        // An RTL paragraph: the Hebrew word is drawn reversed, the number keeps its digit order, to its left.
        XCTAssertEqual(drawn(shape(["אב 123"])).map { $0.filter { $0 != 0x20 } }, [cps("123בא")])
        // Arabic-Indic digits too.
        XCTAssertEqual(drawn(shape(["אב ١٢"])).map { $0.filter { $0 != 0x20 } }, [cps("١٢בא")])
    }

    func testLatinInsideRightToLeftKeepsItsOrder() {
        XCTAssertEqual(drawn(shape(["אב cd גד"])).map { $0.filter { $0 != 0x20 } }, [cps("דגcdבא")])
        // An LTR paragraph (Latin first) with a Hebrew word inside.
        XCTAssertEqual(drawn(shape(["ab גד ef"])).map { $0.filter { $0 != 0x20 } }, [cps("abדגef")])
    }

    func testBracketsAreMirroredInRightToLeftRuns() {
        // Logical "א(ב)": reversed, the brackets would face the wrong way; mirrored they read "(ב)א".
        XCTAssertEqual(drawn(shape(["א(ב)"])), [cps("(ב)א")])
    }

    func testLinesAreBrokenFirstThenEachIsReordered() {
        // Two words, too wide for one line: the first logical word is the first (top) line, each drawn RTL.
        let s = shape(["אבג דהו"], maxWidth: 40)
        XCTAssertEqual(s.lineCount, 2)
        XCTAssertEqual(drawn(s), [cps("גבא"), cps("והד")])
    }

    func testEachParagraphTakesItsOwnDirection() {
        // A Latin paragraph then a Hebrew one: each line gets the direction of its paragraph.
        XCTAssertEqual(drawn(shape(["ab אב\nאב ab"])).map { $0.filter { $0 != 0x20 } }, [cps("abבא"), cps("abבא")])
        XCTAssertEqual(BidiText([TextSection(text: cps("a.\nא."), fonts: ["f"], scale: 1, color: nil)]).visualOrder(3..<5), [4, 3])
    }

    func testAParagraphSeparatorStartsANewLine() {
        // U+001C (bidi class B) ends a paragraph, so a line, even with room for more on it; Latin too.
        let s = shape(["ab\u{1C}cd"], maxWidth: 1000)
        XCTAssertEqual(s.lineCount, 2)
        XCTAssertEqual(drawn(s).map { $0.filter { $0 != 0x1C } }, [cps("ab"), cps("cd")])
        XCTAssertEqual(drawn(shape(["אב\u{1C}ab"], maxWidth: 1000)).map { $0.filter { $0 != 0x1C } }, [cps("בא"), cps("ab")])
    }

    func testSectionsAreReorderedWithTheirCharacters() {
        // Two sections: the section index travels with each character.
        let s = shape(["אב", "גד"])
        XCTAssertEqual(drawn(s), [cps("דגבא")])
        XCTAssertEqual(s.glyphs.sorted { $0.x < $1.x }.map(\.section), [1, 1, 0, 0])
    }

    func testArabicLettersTakeTheirJoiningForms() {
        // مكتبة: meem initial, kaf medial, teh medial, beh medial, teh marbuta final.
        XCTAssertEqual(ArabicShaping.shape(cps("مكتبة")), [0xFEE3, 0xFEDC, 0xFE98, 0xFE92, 0xFE94])
        // A lone letter is isolated; a non-joining alef ends the join.
        XCTAssertEqual(ArabicShaping.shape(cps("م")), [0xFEE1])
        XCTAssertEqual(ArabicShaping.shape(cps("با")), [0xFE91, 0xFE8E])
        // Lam + alef is one ligature.
        XCTAssertEqual(ArabicShaping.shape(cps("لا")), [0xFEFB])
        // Drawn right to left in those forms.
        XCTAssertEqual(drawn(shape(["مكتبة"])), [[0xFE94, 0xFE92, 0xFE98, 0xFEDC, 0xFEE3]])
        // Latin is left as it is.
        XCTAssertEqual(ArabicShaping.shape(cps("abc")), cps("abc"))
    }

    func testArabicIsDrawnWithoutLetterSpacing() {
        let arabic = shape(["مكتبة"], spacing: 5).glyphs.map(\.x).sorted()
        XCTAssertEqual(zip(arabic.dropFirst(), arabic).map { $0 - $1 }, [12, 12, 12, 12])
        let hebrew = shape(["אבג"], spacing: 5).glyphs.map(\.x).sorted()
        XCTAssertEqual(zip(hebrew.dropFirst(), hebrew).map { $0 - $1 }, [17, 17])
    }

    func testUnpairedBidiControlsAreHarmlessAndNotDrawn() {
        // An override with no PDF runs to the paragraph's end.
        XCTAssertEqual(drawn(shape(["\u{202E}abc"])), [cps("cba")])
        // A PDF or PDI with nothing to close is ignored.
        XCTAssertEqual(drawn(shape(["ab\u{202C}c\u{2069}"])), [cps("abc")])
        // An isolate never closed, and embeddings nested past the 125 levels the algorithm allows.
        XCTAssertEqual(drawn(shape(["\u{2067}אב"])), [cps("בא")])
        let deep = String(repeating: "\u{202B}", count: 300) + "ab" + String(repeating: "\u{202C}", count: 10)
        XCTAssertEqual(drawn(shape([deep])).flatMap { $0 }.sorted(), cps("ab"))
    }

    func testAMegabyteOfArabicIsCutWithAWarningNamingLayerAndFeature() throws {
        let json = #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},"#
            + #" "layers": [{"id": "arabic", "type": "symbol", "source": "s", "layout": {"text-field": "{name}"}}]}"#
        let layer = try XCTUnwrap(try Style(bytes: Array(json.utf8)).layers.first)
        let big = String(repeating: "مكتبة ", count: (1 << 20) / 11 + 1)  // 1 MiB of UTF-8 (11 bytes a word)
        XCTAssertGreaterThanOrEqual(big.utf8.count, 1 << 20)
        let source = VectorLayer(name: "s", extent: 8192, version: 2, features: [
            VectorFeature(id: .number(7), geometryType: .point, properties: ["name": .string(big)], geometry: [[TilePoint(x: 4096, y: 4096)]]),
        ])
        let p = CodepointProvider()
        let symbols = try XCTUnwrap(SymbolLayout.build(layer: layer, from: source, zoom: 0, canonical: TileID(z: 0, x: 0, y: 0)!,
                                                       provider: p, pixelRatio: 1))
        XCTAssertEqual(p.warnings, ["layer 'arabic', feature id 7: a label of more than \(SymbolLayout.maxLabelLength) characters was cut"])
        XCTAssertGreaterThan(symbols.glyphQuads.count, 0)
        XCTAssertLessThanOrEqual(symbols.glyphQuads.count, SymbolLayout.maxLabelLength)
    }
}
