import XCTest
@testable import GLSnapStyle

final class LocaleExpressionTests: XCTestCase {
    func evaluate(_ text: String, _ props: [String: JSON] = [:], spec: JSON? = nil, zoom: Double = 0) throws -> Value {
        let (e, errors) = StyleExpression.compile(try json(text), propertySpec: spec)
        let expr = try XCTUnwrap(e, "\(errors)")
        return try expr.evaluate(EvaluationContext(zoom: zoom, feature: TestFeature(properties: props)))
    }

    func testCollatorFollowsTheLocale() throws {
        let gt = #"[">", "ä", "a", ["collator", {"locale": ["get", "l"]}]]"#
        XCTAssertEqual(try evaluate(gt, ["l": .string("de")]), .bool(true))   // ä sorts as "ae"
        XCTAssertEqual(try evaluate(gt, ["l": .string("sv")]), .bool(true))   // ä is a letter after z
        XCTAssertEqual(try evaluate(gt, ["l": .string("fr")]), .bool(false))  // ä equals a at base strength
        // Root collation: a < ä < b, lowercase before uppercase.
        XCTAssertEqual(try evaluate(#"["<", "ä", "b", ["collator", {"case-sensitive": false, "diacritic-sensitive": true, "locale": "en"}]]"#), .bool(true))
        XCTAssertEqual(try evaluate(#"["<", "a", "A", ["collator", {"case-sensitive": true, "locale": "en"}]]"#), .bool(true))
        XCTAssertEqual(try evaluate(#"["==", "ü", "ue", ["collator", {"case-sensitive": true, "locale": "de"}]]"#), .bool(true))
    }

    func testNumberFormatCurrencyAndUnit() throws {
        XCTAssertEqual(try evaluate(#"["number-format", 123456.789, {"locale": "en-US", "currency": "JPY"}]"#), .string("¥123,457"))
        XCTAssertEqual(try evaluate(#"["number-format", 123456.789, {"locale": "en-US", "currency": "EUR"}]"#), .string("€123,456.79"))
        XCTAssertEqual(try evaluate(#"["number-format", 1234.567, {"unit": ["get", "u"]}]"#, ["u": .string("kilometer")]), .string("1,234.567 km"))
        XCTAssertEqual(try evaluate(#"["number-format", 21, {"unit": "celsius"}]"#), .string("21°C"))
        let (e, errors) = StyleExpression.compile(try json(#"["number-format", 1, {"currency": "EUR", "unit": "meter"}]"#), propertySpec: nil)
        XCTAssertNil(e)
        XCTAssertEqual(errors.map(\.message), ["NumberFormat options `currency` and `unit` are mutually exclusive"])
    }

    func testProjectionDefinitionInterpolates() throws {
        let spec = try json(#"{"type": "projectionDefinition", "property-type": "data-constant", "expression": {"interpolated": true, "parameters": ["zoom"]}}"#)
        let e = #"["interpolate", ["linear"], ["zoom"], 0, "vertical-perspective", 10, "mercator"]"#
        XCTAssertEqual(try evaluate(e, spec: spec, zoom: 0), .string("vertical-perspective"))
        XCTAssertEqual(try evaluate(e, spec: spec, zoom: 5),
                       .object(["from": .string("vertical-perspective"), "to": .string("mercator"), "transition": .number(0.5)]))
        let (compiled, _) = StyleExpression.compile(try json(e), propertySpec: spec)
        XCTAssertEqual(compiled?.typeName, "projectionDefinition")
    }

    func testArraysWithoutLengthDoNotInterpolate() throws {
        let (e, errors) = StyleExpression.compile(try json(#"["interpolate", ["linear"], ["get", "x"], 1, ["array", "number", ["get", "a"]], 3, ["array", "number", ["get", "b"]]]"#), propertySpec: nil)
        XCTAssertNil(e)
        XCTAssertEqual(errors.map(\.message), ["Type array<number> is not interpolatable."])
    }

    func testStyleStateDefaultsFeedGlobalState() throws {
        let style = try Style(json: try json("""
        {"version": 8, "state": {"color": {"default": "cyan"}, "big": {"default": true}},
         "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
         "layers": [{"id": "c", "type": "circle", "source": "s", "filter": ["global-state", "big"],
                     "paint": {"circle-color": ["global-state", "color"]}}]}
        """))
        XCTAssertEqual(style.globalStateDefaults["color"], .string("cyan"))
        let layer = try XCTUnwrap(style.layers.first)
        XCTAssertEqual(layer.paint("circle-color").evaluateColor(EvaluationContext(zoom: 0)), Color.parse("cyan"))
        XCTAssertTrue(try XCTUnwrap(layer.filter).evaluate(EvaluationContext(zoom: 0, feature: TestFeature())))
        // A value set in the context wins over the style's default.
        var ctx = EvaluationContext(zoom: 0)
        ctx.globalState = ["color": .string("red")]
        XCTAssertEqual(layer.paint("circle-color").evaluateColor(ctx), Color.parse("red"))
    }
}
