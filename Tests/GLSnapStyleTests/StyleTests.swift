import XCTest
@testable import GLSnapStyle

final class StyleTests: XCTestCase {
    func loadFixture(_ name: String) throws -> Style {
        guard let shared = sharedDir() else { throw XCTSkip("../shared not present") }
        let data = try Data(contentsOf: shared.appendingPathComponent("fixtures/styles/\(name)"))
        return try Style(bytes: Array(data))
    }

    func testAllFixtureStylesParse() throws {
        guard let shared = sharedDir() else { throw XCTSkip("../shared not present") }
        let dir = shared.appendingPathComponent("fixtures/styles")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }
        XCTAssertGreaterThan(names.count, 5)
        for n in names {
            let data = try Data(contentsOf: dir.appendingPathComponent(n))
            do {
                let style = try Style(bytes: Array(data))
                XCTAssertGreaterThan(style.layers.count, 0, n)
            } catch {
                XCTFail("\(n): \(error)")
            }
        }
    }

    func testBrightRiverWidthAtZoom14() throws {
        let style = try loadFixture("bright-v9-chicago.json")
        let layer = try XCTUnwrap(style.layers.first { $0.id == "waterway_river" })
        let width = layer.paint("line-width")
        XCTAssertFalse(width.isZoomConstant)
        XCTAssertTrue(width.isFeatureConstant)
        // base 1.2, stops [11, 0.5] .. [20, 6]: 0.5 + 5.5 * (1.2^3 - 1) / (1.2^9 - 1)
        XCTAssertEqual(width.evaluateNumber(EvaluationContext(zoom: 14)), 1.4625508226834376, accuracy: 1e-9)
        XCTAssertEqual(width.evaluateNumber(EvaluationContext(zoom: 5)), 0.5)
        XCTAssertEqual(width.evaluateNumber(EvaluationContext(zoom: 22)), 6)
        // Filter ["==", "class", "river"] (legacy)
        let filter = try XCTUnwrap(layer.filter)
        XCTAssertTrue(filter.evaluate(EvaluationContext(zoom: 14, feature: TestFeature(geometryType: .lineString, properties: ["class": .string("river")]))))
        XCTAssertFalse(filter.evaluate(EvaluationContext(zoom: 14, feature: TestFeature(geometryType: .lineString, properties: ["class": .string("canal")]))))
        XCTAssertEqual(layer.layout("line-cap").evaluateString(EvaluationContext(zoom: 14)), "round")
        XCTAssertEqual(layer.paint("line-opacity").evaluateNumber(EvaluationContext(zoom: 14)), 1)
    }

    func testLegacyFilters() throws {
        func check(_ text: String, _ props: [String: JSON], type: GeometryType = .point, id: JSON? = nil) throws -> Bool {
            let (f, errors) = Filter.compile(try json(text))
            XCTAssertEqual(errors, [])
            let feature = TestFeature(geometryType: type, featureID: id, properties: props)
            return try XCTUnwrap(f).evaluate(EvaluationContext(zoom: 10, feature: feature))
        }
        XCTAssertTrue(try check(#"["all", ["==", "$type", "LineString"], ["in", "class", "a", "b"]]"#, ["class": .string("b")], type: .lineString))
        XCTAssertFalse(try check(#"["all", ["==", "$type", "LineString"], ["in", "class", "a", "b"]]"#, ["class": .string("b")], type: .polygon))
        XCTAssertTrue(try check(#"["!in", "class", "a", "b"]"#, [:]))
        XCTAssertTrue(try check(#"["!=", "class", "a"]"#, [:]))
        XCTAssertFalse(try check(#"["==", "rank", "1"]"#, ["rank": .number(1)]))
        XCTAssertTrue(try check(#"["<=", "rank", 2]"#, ["rank": .number(1)]))
        XCTAssertFalse(try check(#"["<=", "rank", 2]"#, ["rank": .string("1")]))
        XCTAssertTrue(try check(#"["none", ["has", "name"], ["==", "$id", 3]]"#, [:], id: .number(4)))
        XCTAssertFalse(try check(#"["==", "$id", 3]"#, [:], id: .number(4)))
        XCTAssertTrue(try check(#"["!has", "name"]"#, [:]))
        // `$type` tests compiled to a geometry-type mask.
        XCTAssertTrue(try check(#"["in", "$type", "Point", "Polygon"]"#, [:], type: .polygon))
        XCTAssertFalse(try check(#"["in", "$type", "Point", "Polygon"]"#, [:], type: .lineString))
        XCTAssertTrue(try check(#"["!in", "$type", "Point", 3]"#, [:], type: .lineString))
        XCTAssertFalse(try check(#"["!=", "$type", "Point"]"#, [:], type: .point))
        XCTAssertTrue(try check(#"["!=", "$type", "Polygon"]"#, [:], type: .unknown))
        XCTAssertTrue(try check(#"["==", "$type", "Unknown"]"#, [:], type: .unknown))
        XCTAssertFalse(try check(#"["==", "$type", "point"]"#, [:], type: .point))
        // Expression filters
        XCTAssertTrue(try check(#"["==", ["get", "class"], "a"]"#, ["class": .string("a")]))
        XCTAssertTrue(try check(#"["in", ["get", "class"], ["literal", ["a", "b"]]]"#, ["class": .string("a")]))
        XCTAssertTrue(try check(#"["all", ["has", "x"], [">", ["get", "x"], 2]]"#, ["x": .number(3)]))
        XCTAssertFalse(try check(#"["==", ["geometry-type"], "Point"]"#, [:], type: .polygon))
        // A runtime error means the feature does not pass.
        XCTAssertFalse(try check(#"[">", ["get", "x"], 2]"#, ["x": .string("s")]))
    }

    func testTokensAndFunctions() throws {
        let style = try Style(json: try json("""
        {"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [
          {"id": "l", "type": "symbol", "source": "s", "source-layer": "x",
           "layout": {"text-field": "{name} ({ref})", "icon-image": "{maki}-11", "text-size": {"base": 1, "stops": [[10, 10], [20, 20]]},
                      "visibility": "visible", "text-font": ["Open Sans"]},
           "paint": {"text-color": {"property": "kind", "type": "categorical", "stops": [["a", "#f00"], ["b", "blue"]], "default": "white"},
                     "text-halo-width": {"property": "size", "stops": [[{"zoom": 10, "value": 0}, 0], [{"zoom": 10, "value": 10}, 10], [{"zoom": 20, "value": 0}, 5], [{"zoom": 20, "value": 10}, 20]]}},
           "minzoom": 5, "maxzoom": 15}
        ]}
        """))
        let l = style.layers[0]
        let f = TestFeature(properties: ["name": .string("Main"), "ref": .number(7), "maki": .string("bus"), "kind": .string("a"), "size": .number(5)])
        let ctx = EvaluationContext(zoom: 15, feature: f)
        XCTAssertEqual(l.layout("text-field").evaluateString(ctx), "Main (7)")
        XCTAssertEqual(l.layout("icon-image").evaluateString(ctx), "bus-11")
        XCTAssertEqual(l.layout("text-size").evaluateNumber(ctx), 15)
        XCTAssertEqual(l.layout("text-font").evaluate(ctx), .array([.string("Open Sans")]))
        XCTAssertEqual(l.paint("text-color").evaluateColor(ctx), Color(r: 1, g: 0, b: 0, a: 1))
        XCTAssertEqual(l.paint("text-color").evaluateColor(EvaluationContext(zoom: 15, feature: TestFeature())), .white)
        // zoom 15 is halfway between zoom stops: inner values at size 5 are 5 and 12.5.
        XCTAssertEqual(l.paint("text-halo-width").evaluateNumber(ctx), 8.75, accuracy: 1e-9)
        XCTAssertTrue(l.isVisible(atZoom: 5))
        XCTAssertFalse(l.isVisible(atZoom: 15))
        XCTAssertFalse(l.isVisible(atZoom: 4.9))
        XCTAssertEqual(l.paint("text-opacity").evaluateNumber(ctx), 1)
    }

    func testSyntaxErrorNamesLineAndColumn() {
        XCTAssertThrowsError(try Style(bytes: Array("{\n  \"version\": 8,\n  oops }".utf8))) { e in
            guard case StyleError.syntax(_, let line, let column) = e else { return XCTFail("\(e)") }
            XCTAssertEqual(line, 3)
            XCTAssertEqual(column, 3)
        }
    }

    func testInvalidExpressionIsReportedWithPath() throws {
        let j = try json(#"{"version": 8, "sources": {}, "layers": [{"id": "b", "type": "background", "paint": {"background-color": ["get", "x"]}}]}"#)
        XCTAssertThrowsError(try Style(json: j)) { e in
            guard case StyleError.invalid(let problems) = e else { return XCTFail("\(e)") }
            XCTAssertEqual(problems, [StyleProblem(path: "layers[0].paint.background-color", message: "data expressions not supported")])
        }
    }
}

final class StyleRefTests: XCTestCase {
    /// Legacy `ref` layers take type, source, filter and layout from the layer they name.
    func testRefLayersAreResolved() throws {
        let style = try Style(json: try json("""
        {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
         "layers": [{"id": "road", "type": "line", "source": "s", "filter": ["==", "class", "main"], "layout": {"line-cap": "round"}},
                    {"id": "road_casing", "ref": "road", "paint": {"line-width": 4}}]}
        """))
        XCTAssertEqual(style.layers.count, 2)
        let casing = style.layers[1]
        XCTAssertEqual(casing.type, .line)
        XCTAssertEqual(casing.source, "s")
        XCTAssertEqual(casing.layout("line-cap").evaluateString(EvaluationContext(zoom: 0)), "round")
        XCTAssertEqual(casing.paint("line-width").evaluateNumber(EvaluationContext(zoom: 0)), 4)
        XCTAssertNotNil(casing.filter)
    }
}
