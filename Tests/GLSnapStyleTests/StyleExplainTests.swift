import XCTest
@testable import GLSnapStyle

/// One validation path: what loading leaves out is worded by the validator, in strict loading too.
final class StyleExplainTests: XCTestCase {
    static let text = """
    {"version": 8, "sources": {},
     "layers": [{"id": "b", "type": "background",
       "paint": {"background-color": "not-a-color"}},
       {"id": "c", "type": "background",
       "paint": {"background-opacity": ["get", "x"]}}]}
    """

    func testStrictLoadingGivesTheValidatorsProblemsWithLines() throws {
        let bytes = Array(StyleExplainTests.text.utf8)
        XCTAssertThrowsError(try Style(bytes: bytes)) { error in
            guard case StyleError.invalid(let problems)? = error as? StyleError else { return XCTFail("\(error)") }
            // The loader said "Could not parse color from value 'not-a-color'", without a line.
            XCTAssertEqual(problems, validateStyle(bytes))
            XCTAssertEqual(problems, [
                StyleProblem(path: "layers[0].paint.background-color", message: "color expected, \"not-a-color\" found", line: 3),
                StyleProblem(path: "layers[1].paint.background-opacity", message: "data expressions not supported", line: 5),
            ])
        }
        XCTAssertThrowsError(try Style(json: try JSON.parse(bytes))) { error in
            guard case StyleError.invalid(let problems)? = error as? StyleError else { return XCTFail("\(error)") }
            XCTAssertEqual(problems.map(\.message), ["color expected, \"not-a-color\" found", "data expressions not supported"])
        }
    }

    func testLenientLoadingKeepsWhatItDropsAndTheValidatorSaysWhy() throws {
        let json = try JSON.parse(Array(StyleExplainTests.text.utf8))
        var dropped: [StyleProblem] = []
        let style = try Style(json: json, dropping: &dropped)
        XCTAssertEqual(style.layers.count, 2)
        XCTAssertEqual(Set(dropped.map(\.path)), ["layers[0].paint.background-color", "layers[1].paint.background-opacity"])
        XCTAssertEqual(Style.explain(dropped, json: json).map(\.message), ["color expected, \"not-a-color\" found", "data expressions not supported"])
        XCTAssertEqual(Style.explain([], json: json), [])
    }

    func testALoaderProblemTheValidatorDoesNotReportIsKept() throws {
        let loaderOnly = StyleProblem(path: "layers[9].paint.x", message: "the loader's own")
        XCTAssertEqual(Style.explain([loaderOnly], json: .object([:])).first?.message, "the loader's own")
    }

    func testRelatedPaths() {
        XCTAssertTrue(Style.related("layers[2].filter", "layers[2].filter[1]"))
        XCTAssertTrue(Style.related("version", "version"))
        XCTAssertFalse(Style.related("layers[2]", "layers[2].paint.fill-color"), "a whole layer's other problems are not the one left out")
        XCTAssertFalse(Style.related("layers[2].paint.fill-color", "layers[2].paint.fill-opacity"))
    }
}
