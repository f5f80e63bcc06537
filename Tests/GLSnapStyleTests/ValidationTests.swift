import XCTest
@testable import GLSnapStyle

final class ValidationTests: XCTestCase {
    /// A paint-property typo, a wrong enum value, `["get"]` without its argument and a layer whose
    /// source is missing: four problems, each with its path and line.
    func testFourTypicalMistakes() {
        let style = """
        {
          "version": 8,
          "sources": {"osm": {"type": "vector", "tiles": ["http://example.com/{z}/{x}/{y}.pbf"]}},
          "layers": [
            {"id": "water", "type": "fill", "source": "osm", "source-layer": "water",
             "paint": {"fill-colr": "#00f"}},
            {"id": "roads", "type": "line", "source": "osm", "source-layer": "roads",
             "layout": {"line-cap": "rounded"},
             "paint": {"line-width": ["get"]}},
            {"id": "labels", "type": "symbol", "source": "missing", "source-layer": "places"}
          ]
        }
        """
        let problems = validateStyle(Array(style.utf8))
        XCTAssertEqual(problems, [
            StyleProblem(path: "layers[0].paint.fill-colr", message: "unknown property \"fill-colr\"", line: 6),
            StyleProblem(path: "layers[1].layout.line-cap", message: "expected one of [butt, round, square], \"rounded\" found", line: 8),
            StyleProblem(path: "layers[1].paint.line-width",
                         message: "Expected arguments of type (string) | (string, object), but found () instead.", line: 9),
            StyleProblem(path: "layers[2]", message: "source \"missing\" not found", line: 10),
        ])
        XCTAssertEqual(problems[0].description, "layers[0].paint.fill-colr: unknown property \"fill-colr\"")
    }

    func testFixtureStylesHaveNoProblems() throws {
        guard let shared = sharedDir() else { throw XCTSkip("../shared not present") }
        let dir = shared.appendingPathComponent("fixtures/styles")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }
        XCTAssertGreaterThan(names.count, 5)
        for n in names {
            let problems = validateStyle(Array(try Data(contentsOf: dir.appendingPathComponent(n))))
            XCTAssertEqual(problems, [], n)
        }
    }

    func testRootProblems() {
        let problems = validateStyle(Array(#"{"version": 7, "sources": [], "layers": {}, "glyphs": "x/{range}.pbf", "center": [1, 2, 3]}"#.utf8))
        XCTAssertEqual(Set(problems.map(\.description)), [
            "version: expected one of [8], 7 found",
            "sources: object expected, array found",
            "layers: array expected, object found",
            "glyphs: \"glyphs\" url must include a \"{fontstack}\" token",
            "center: array length 2 expected, length 3 found",
        ])
        XCTAssertEqual(validateStyle(Array("{}".utf8)).map(\.message).sorted(), [
            "missing required property \"layers\"", "missing required property \"sources\"", "missing required property \"version\"",
        ])
    }

    func testRangesFunctionsAndFilters() {
        let style = """
        {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
         "layers": [
          {"id": "c", "type": "circle", "source": "s",
           "paint": {"circle-radius": -1, "circle-opacity": {"stops": [[5, 1], [3, 0]]}, "circle-color-transition": {"duration": 1}},
           "filter": ["==", "$type", "Pointy"]},
          {"id": "c", "type": "circle", "source": "s", "filter": ["==", ["get", "a"], ["feature-state", "b"]]}
         ]}
        """
        XCTAssertEqual(validateStyle(Array(style.utf8)).map(\.description), [
            "layers[0].paint.circle-opacity.stops[1][0]: stop domain values must appear in ascending order",
            "layers[0].paint.circle-radius: -1 is less than the minimum value 0",
            "layers[0].filter[2]: expected one of [Point, LineString, Polygon], \"Pointy\" found",
            "layers[1]: duplicate layer id \"c\", previously used at line 3",
            "layers[1].filter: \"feature-state\" data expressions are not supported with filters.",
        ])
    }

    func testSyntaxErrorIsOneProblemWithItsLine() {
        let problems = validateStyle(Array("{\n  \"version\": 8,\n  oops\n}".utf8))
        XCTAssertEqual(problems.count, 1)
        XCTAssertEqual(problems.first?.line, 3)
    }

    func testLineMapRecordsValuesByPath() throws {
        let (value, lines) = try JSON.parseWithLines(Array("{\"a\": [1,\n 2, {\"b\":\n  \"x\"}],\n \"n\": null}".utf8))
        XCTAssertEqual(value["a"]?.arrayValue?.count, 3)
        XCTAssertEqual(lines.line(""), 1)
        XCTAssertEqual(lines.line("a"), 1)
        XCTAssertEqual(lines.line("a[1]"), 2)
        XCTAssertEqual(lines.line("a[2].b"), 3)
        XCTAssertNil(lines.line("n"))
    }

    /// Every case of the style-spec validation suite whose expected problems the validator matches
    /// (by path and line). The floor guards against regressions; the suite runner reports details.
    func testValidationSuiteFloor() throws {
        guard let shared = sharedDir() else { throw XCTSkip("../shared not present") }
        let dir = shared.appendingPathComponent("style-spec/validation")
        let inputs = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".input.json") }
        var matched = 0
        for input in inputs {
            let got = validateStyle(Array(try Data(contentsOf: dir.appendingPathComponent(input))))
            let outName = String(input.dropLast(".input.json".count)) + ".output.json"
            let expected = try JSON.parse(Array(try Data(contentsOf: dir.appendingPathComponent(outName)))).arrayValue ?? []
            func key(_ path: String, _ line: Int?) -> String { "\(path)@\(line ?? -1)" }
            let want = expected.map { e -> String in
                let m = e["message"]?.stringValue ?? ""
                var path = ""
                if let r = m.range(of: ": "), !m[..<r.lowerBound].contains(" "), !m[..<r.lowerBound].contains("\"") {
                    path = String(m[..<r.lowerBound])
                }
                return key(path, e["line"]?.numberValue.map { Int($0) })
            }.sorted()
            if want == got.map({ key($0.path, $0.line) }).sorted() { matched += 1 }
        }
        XCTAssertGreaterThanOrEqual(Double(matched) / Double(inputs.count), 0.9, "\(matched) of \(inputs.count)")
    }
}
