import XCTest
@testable import GLSnapStyle

/// The generated typed layers (`LineLayer`, …): what tools/gen-spec.py makes of the spec, and what
/// their properties give for a style.
final class TypedLayerTests: XCTestCase {
    /// The typed layer files of Generated/ must be what tools/gen-spec.py makes of the spec now,
    /// and no other `*Layer.swift` may be left there from an older spec.
    func testGeneratedTypedLayersAreCurrent() throws {
        guard let shared = sharedDir() else { throw XCTSkip("../shared not present") }
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let generated = repo.appendingPathComponent("Sources/GLSnapStyle/Generated")
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("glsnap-typed-layers-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", repo.appendingPathComponent("tools/gen-spec.py").path,
                       shared.appendingPathComponent("style-spec/v8.json").path, tmp.appendingPathComponent("SpecTables.swift").path]
        do { try p.run() } catch { throw XCTSkip("python3 is not available: \(error)") }
        p.waitUntilExit()
        if p.terminationStatus == 127 { throw XCTSkip("python3 is not installed") }
        XCTAssertEqual(p.terminationStatus, 0, "tools/gen-spec.py failed")
        func typedFiles(_ dir: URL) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix("Layer.swift") }.sorted()
        }
        let fresh = try typedFiles(tmp)
        XCTAssertTrue(fresh.contains("TypedLayer.swift") && fresh.contains("LineLayer.swift"), "\(fresh)")
        XCTAssertEqual(try typedFiles(generated), fresh,
                       "Sources/GLSnapStyle/Generated holds other typed layers than the spec's: run tools/gen-spec.py ../shared/style-spec/v8.json")
        for name in fresh {
            let made = try Data(contentsOf: tmp.appendingPathComponent(name))
            let committed = try? Data(contentsOf: generated.appendingPathComponent(name))
            XCTAssertTrue(made == committed, "Sources/GLSnapStyle/Generated/\(name) is stale: run tools/gen-spec.py ../shared/style-spec/v8.json")
        }
    }

    private func layers(_ layers: String) throws -> [StyleLayer] {
        let text = #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}}, "layers": "#
            + layers + "}"
        return try Style(bytes: Array(text.utf8)).layers
    }

    func testTypedLayerGivesTheStyleValueOrTheSpecDefault() throws {
        let all = try layers(#"""
            [{"id": "road", "type": "line", "source": "s", "layout": {"line-join": "round"},
              "paint": {"line-width": ["interpolate", ["linear"], ["zoom"], 10, 2, 20, 12], "line-color": "#ff0000"}},
             {"id": "dots", "type": "circle", "source": "s"}]
            """#)
        let ctx = EvaluationContext(zoom: 15)
        guard let line = all[0].line else { return XCTFail("a line layer has typed line properties") }
        XCTAssertNil(all[0].circle)
        XCTAssertEqual(line.width.evaluate(ctx), 7)
        XCTAssertTrue(line.width.isSet)
        XCTAssertFalse(line.width.isZoomConstant)
        XCTAssertEqual(line.width.name, "line-width")
        XCTAssertEqual(line.color.evaluate(ctx), Color(r: 1, g: 0, b: 0, a: 1))
        XCTAssertEqual(line.join.evaluate(ctx), .round)
        // Not set: the spec defaults (line-cap butt, line-miter-limit 2, line-opacity 1, line-gap-width 0).
        XCTAssertFalse(line.cap.isSet)
        XCTAssertEqual(line.cap.evaluate(ctx), .butt)
        XCTAssertEqual(line.miterLimit.evaluate(ctx), 2)
        XCTAssertEqual(line.opacity.evaluate(ctx), 1)
        XCTAssertEqual(line.gapWidth.evaluate(ctx), 0)
        XCTAssertEqual(line.translate.evaluate(ctx), [0, 0])
        XCTAssertEqual(line.translateAnchor.evaluate(ctx), .map)
        // The typed lookups agree with the string ones they replace.
        XCTAssertEqual(line.width.evaluate(ctx), all[0].paint("line-width").evaluateNumber(ctx))
        XCTAssertEqual(line.cap.evaluate(ctx).rawValue, all[0].layout("line-cap").evaluateString(ctx))

        guard case .circle(let circle) = all[1].typed else { return XCTFail("a circle layer is .circle") }
        XCTAssertEqual(circle.radius.evaluate(ctx), 5)
        XCTAssertEqual(circle.pitchAlignment.evaluate(ctx), .viewport)
        XCTAssertEqual(circle.pitchScale.evaluate(ctx), .map)
    }

    func testPropertiesSharedByLayerTypes() throws {
        let all = try layers(#"""
            [{"id": "f", "type": "fill", "source": "s", "layout": {"fill-sort-key": ["get", "rank"]}, "paint": {"fill-pattern": "dots"}},
             {"id": "x", "type": "fill-extrusion", "source": "s"},
             {"id": "c", "type": "circle", "source": "s"},
             {"id": "b", "type": "background"}]
            """#)
        XCTAssertEqual(all[0].typed.sortKey?.isSet, true)
        XCTAssertEqual(all[0].typed.sortKey?.evaluate(EvaluationContext(zoom: 1, feature: TestFeature(properties: ["rank": .number(3)]))), 3)
        XCTAssertEqual(all[0].typed.pattern?.isSet, true)
        XCTAssertEqual(all[1].typed.pattern?.name, "fill-extrusion-pattern")
        XCTAssertEqual(all[1].typed.pattern?.isSet, false)
        XCTAssertNil(all[2].typed.pattern)
        XCTAssertNil(all[3].typed.sortKey)
        XCTAssertEqual(all[0].typed.layerOpacity?.name, "fill-layer-opacity")
        XCTAssertNil(all[2].typed.layerOpacity)
    }

    /// An enum value outside the spec evaluates to the spec default, written as a constant (which
    /// the loader keeps, as it did: the validator names it) or given by an expression at runtime.
    /// The draw code used to compare such a constant with one value (`== "map"`), so for
    /// `circle-pitch-scale` it drew the other one rather than the default.
    func testEnumValueOutsideTheSpec() throws {
        let constant = try layers(#"""
            [{"id": "road", "type": "line", "source": "s", "layout": {"line-cap": "bogus"}},
             {"id": "dots", "type": "circle", "source": "s", "paint": {"circle-pitch-scale": "bogus"}}]
            """#)
        let ctx = EvaluationContext(zoom: 1)
        XCTAssertEqual(constant[0].layout("line-cap").evaluateString(ctx), "bogus")
        XCTAssertEqual(constant[0].line?.cap.evaluate(ctx), .butt)
        XCTAssertEqual(constant[1].circle?.pitchScale.evaluate(ctx), .map)
        XCTAssertTrue(validateStyle(Array((#"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}}, "#
            + #""layers": [{"id": "road", "type": "line", "source": "s", "layout": {"line-cap": "bogus"}}]}"#).utf8)).contains { $0.path.contains("line-cap") })

        let all = try layers(#"[{"id": "road", "type": "line", "source": "s", "layout": {"line-cap": ["get", "cap"], "line-join": ["get", "join"]}}]"#)
        guard let line = all[0].line else { return XCTFail("a line layer") }
        func cap(_ value: String) -> LineLayer.Cap {
            line.cap.evaluate(EvaluationContext(zoom: 1, feature: TestFeature(properties: ["cap": .string(value)])))
        }
        XCTAssertEqual(cap("square"), .square)
        XCTAssertEqual(cap("bogus"), .butt)
        XCTAssertEqual(line.join.evaluate(EvaluationContext(zoom: 1, feature: TestFeature(properties: ["join": .string("bevel")]))), .bevel)
        XCTAssertEqual(line.join.evaluate(EvaluationContext(zoom: 1, feature: TestFeature(properties: ["join": .number(3)]))), .miter)
    }

    /// An enum property without a spec default is nil until the style sets it.
    func testEnumWithoutDefault() throws {
        let all = try layers(#"[{"id": "t", "type": "symbol", "source": "s", "layout": {"text-overlap": "always"}}]"#)
        guard let symbol = all[0].symbol else { return XCTFail("a symbol layer") }
        let ctx = EvaluationContext(zoom: 1)
        XCTAssertEqual(symbol.textOverlap.evaluate(ctx), .always)
        XCTAssertNil(symbol.iconOverlap.evaluate(ctx))
        XCTAssertEqual(symbol.placement.evaluate(ctx), .point)
        XCTAssertEqual(symbol.textAnchor.evaluate(ctx), .center)
        XCTAssertEqual(symbol.zOrder.evaluate(ctx), .auto)
        XCTAssertEqual(SymbolLayer.ZOrder.viewportY.rawValue, "viewport-y")
    }
    /// A constant expression that folds to NaN (`["sqrt", -1]`) evaluates to the spec default, as
    /// every NaN result does in MapLibre (text-size/nan draws at 16 px).
    func testConstantNaNGivesTheSpecDefault() throws {
        let all = try layers(#"""
            [{"id": "t", "type": "symbol", "source": "s", "layout": {"text-size": ["sqrt", -1], "text-field": "ABC"}},
             {"id": "l", "type": "line", "source": "s", "paint": {"line-width": ["/", 0, 0]}}]
            """#)
        let ctx = EvaluationContext(zoom: 3)
        guard let symbol = all[0].symbol, let line = all[1].line else { return XCTFail("a symbol and a line layer") }
        XCTAssertEqual(symbol.textSize.evaluate(ctx), 16)
        XCTAssertEqual(line.width.evaluate(ctx), 1)
    }
}
