import XCTest
@testable import GLSnapStyle

final class ScriptDetectionTests: XCTestCase {
    private func supported(_ text: String, checks: Bool) throws -> Value {
        let (e, errors) = StyleExpression.compile(try json(#"["is-supported-script", ["get", "x"]]"#), propertySpec: nil)
        let expr = try XCTUnwrap(e, "\(errors)")
        var ctx = EvaluationContext(zoom: 0, feature: TestFeature(properties: ["x": .string(text)]))
        ctx.checksScripts = checks
        return try expr.evaluate(ctx)
    }

    func testRenderingJudgesScriptsAsMapLibreWithRightToLeftSupport() throws {
        // Arabic (with Arabic-Indic digits) and Hebrew are shaped and reordered, so supported.
        XCTAssertEqual(try supported("سلام۳۹", checks: true), .bool(true))
        XCTAssertEqual(try supported("שָׁלוֹם", checks: true), .bool(true))
        XCTAssertEqual(try supported("Chicago 東京", checks: true), .bool(true))
        // Devanagari, Khmer and Myanmar need shaping that per-code-point glyphs cannot give.
        XCTAssertEqual(try supported("देवनागरी", checks: true), .bool(false))
        XCTAssertEqual(try supported("ភាសាខ្មែរ", checks: true), .bool(false))
        XCTAssertEqual(try supported("a မြန်မာ", checks: true), .bool(false))
    }

    func testWithoutRenderingContextEveryScriptIsSupported() throws {
        // As the style-spec expression tests expect when no global context is given.
        XCTAssertEqual(try supported("देवनागरी", checks: false), .bool(true))
    }

    func testRightToLeftNeedsSupportAndArabicRefusesLetterSpacing() {
        XCTAssertFalse(ScriptDetection.isSupported("سلام", rightToLeft: false))
        XCTAssertTrue(ScriptDetection.isSupported("abc", rightToLeft: false))
        XCTAssertFalse(ScriptDetection.allowsLetterSpacing(0x0645))
        XCTAssertFalse(ScriptDetection.allowsLetterSpacing(0xFEE3))
        XCTAssertTrue(ScriptDetection.allowsLetterSpacing(0x05D0))
    }
}
