import XCTest
@testable import GLSnapStyle

/// `Style(json:dropping:)` loads a style as MapLibre does: what cannot be used is left out and
/// reported with its path; `Style(json:)` still refuses the same style.
final class LenientStyleTests: XCTestCase {
    static let text = """
    {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
     "layers": [
      {"id": "bg", "type": "background", "paint": {"background-color": "hsla(0, 0, 0, 0)", "background-opacity": 0.5}},
      {"id": "steps", "type": "fill", "source": "s",
       "paint": {"fill-opacity": ["interpolate", ["linear"], ["zoom"], 10, 0.5, 5, 1], "fill-color": "red"}},
      {"id": "mixed", "type": "fill", "source": "s", "filter": ["all", ["==", "a", 1], ["==", ["get", "b"], 2]]},
      {"id": "relief", "type": "nonsense", "source": "s"},
      {"id": "bg", "type": "background"},
      {"id": "kept", "type": "line", "source": "s", "paint": {"line-width": 3}}
     ]}
    """

    func testBadValuesAreLeftOutAndNamed() throws {
        let json = try JSON.parse(Array(LenientStyleTests.text.utf8))
        var dropped: [StyleProblem] = []
        let style = try Style(json: json, dropping: &dropped)
        XCTAssertEqual(style.layers.map(\.id), ["bg", "steps", "kept"])
        let bg = style.layers[0]
        XCTAssertFalse(bg.hasValue("background-color", kind: .paint), "the unparsable color is left out")
        XCTAssertEqual(bg.paint("background-color").constantValue, .color(Color(r: 0, g: 0, b: 0, a: 1)), "spec default")
        XCTAssertTrue(bg.hasValue("background-opacity", kind: .paint), "the layer's other values stay")
        XCTAssertFalse(style.layers[1].hasValue("fill-opacity", kind: .paint))
        XCTAssertTrue(style.layers[1].hasValue("fill-color", kind: .paint))
        let paths = dropped.map(\.path)
        XCTAssertTrue(paths.contains("layers[0].paint.background-color"), "\(paths)")
        XCTAssertTrue(paths.contains { $0.hasPrefix("layers[1].paint.fill-opacity") }, "\(paths)")
        XCTAssertTrue(paths.contains { $0.hasPrefix("layers[2].filter") }, "\(paths)")
        XCTAssertTrue(paths.contains("layers[3].type"), "\(paths)")
        XCTAssertTrue(paths.contains("layers[4].id"), "\(paths)")
        XCTAssertEqual(dropped.count, 5, "\(dropped)")
    }

    func testStrictInitStillRefuses() throws {
        let json = try JSON.parse(Array(LenientStyleTests.text.utf8))
        XCTAssertThrowsError(try Style(json: json)) { error in
            guard case StyleError.invalid(let problems)? = error as? StyleError else { return XCTFail("\(error)") }
            XCTAssertEqual(problems.count, 5)
        }
    }

    func testMissingLayersIsEmptyNotFatal() throws {
        var dropped: [StyleProblem] = []
        let style = try Style(json: .object(["version": .number(8), "sources": .object([:])]), dropping: &dropped)
        XCTAssertTrue(style.layers.isEmpty)
        XCTAssertEqual(dropped.map(\.path), ["layers"])
        XCTAssertThrowsError(try Style(json: .array([]), dropping: &dropped), "not an object is still refused")
    }

    func testMixedFilterReadsAsAnExpressionAsInGLJS() throws {
        // GL JS 6 (render test filter/mixed-legacy-expression): the legacy member compares two strings.
        let json: JSON = try JSON.parse(Array(#"["any", ["==", ["get", "position"], "left"], ["==", "position", "left"]]"#.utf8))
        let (filter, errors) = Filter.compile(json)
        XCTAssertEqual(errors.map(\.message), [])
        guard case .expression? = filter?.kind else { return XCTFail("\(String(describing: filter))") }
    }
}
