import Foundation
import GLSnapImage
import GLSnapStyle
import XCTest

/// Runs the built `glsnap-conformance` on small suites made here, so the runner's case discovery,
/// metadata, operations, `local://` rewriting, filters, report and exit codes are checked end to end.
/// Expected images are solid colors written by the test, not renders of glsnap's own.
final class ConformanceRunnerTests: XCTestCase {
    private var suite = ""
    private var output = ""

    private func binary() throws -> String { try TestPaths.executable("glsnap-conformance") }

    override func setUpWithError() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString)").path
        suite = base + "/suite"
        output = base + "/out"
        try FileManager.default.createDirectory(atPath: suite, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: (suite as NSString).deletingLastPathComponent)
    }

    // MARK: fixtures

    private func write(_ text: String, _ relative: String) throws {
        let path = suite + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    private func writeSolidPNG(_ relative: String, width: Int, height: Int, rgba: [UInt8]) throws {
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 4)
        for _ in 0..<(width * height) { pixels += rgba }
        let png = try PNGEncoder().encode(RGBAImage(width: width, height: height, pixels: pixels))
        let path = suite + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(png).write(to: URL(fileURLWithPath: path))
    }

    private func backgroundStyle(_ color: String, test: String = ##"{"width": 16, "height": 16}"##) -> String {
        ##"{"version": 8, "metadata": {"test": \##(test)}, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "\##(color)"}}]}"##
    }

    private func run(_ args: [String]) throws -> (code: Int32, stdout: String, stderr: String) {
        let r = try runProcess(try binary(), args)
        return (r.status, r.stdout, r.stderr)
    }

    private func lastLine(_ text: String) -> String {
        text.split(separator: "\n").last.map(String.init) ?? ""
    }

    private static let red: [UInt8] = [255, 0, 0, 255]
    private static let green: [UInt8] = [0, 255, 0, 255]
    private static let blue: [UInt8] = [0, 0, 255, 255]

    // MARK: render suite

    func testRenderSuiteStatusesReportAndImages() throws {
        _ = try binary()
        try write(backgroundStyle("#ff0000"), "render/tests/bg/pass/style.json")
        try writeSolidPNG("render/tests/bg/pass/expected.png", width: 16, height: 16, rgba: Self.red)
        // The best of several expected images counts.
        try write(backgroundStyle("#ff0000"), "render/tests/bg/second-expected/style.json")
        try writeSolidPNG("render/tests/bg/second-expected/expected.png", width: 16, height: 16, rgba: Self.blue)
        try writeSolidPNG("render/tests/bg/second-expected/expected-1.png", width: 16, height: 16, rgba: Self.red)
        try write(backgroundStyle("#ff0000"), "render/tests/bg/fail/style.json")
        try writeSolidPNG("render/tests/bg/fail/expected.png", width: 16, height: 16, rgba: Self.blue)
        try write(backgroundStyle("#ff0000", test: ##"{"width": 16, "height": 16, "operations": [["setPaintProperty", "bg", "background-color", "blue"], ["wait"]]}"##),
                  "render/tests/bg/ops/style.json")
        try writeSolidPNG("render/tests/bg/ops/expected.png", width: 16, height: 16, rgba: Self.blue)
        // An operation the runner cannot carry out fails the case, naming it.
        try write(backgroundStyle("#ff0000", test: ##"{"width": 16, "height": 16, "operations": [["addCustomLayer", "tent-3d-globe"]]}"##),
                  "render/tests/bg/unsupported/style.json")
        try writeSolidPNG("render/tests/bg/unsupported/expected.png", width: 16, height: 16, rgba: Self.red)
        // pixelRatio 2 makes a 32×32 image: a 16×16 expectation is a size failure.
        try write(backgroundStyle("#ff0000", test: ##"{"width": 16, "height": 16, "pixelRatio": 2}"##), "render/tests/bg/size/style.json")
        try writeSolidPNG("render/tests/bg/size/expected.png", width: 16, height: 16, rgba: Self.red)
        try write(backgroundStyle("#ff0000"), "render/tests/bg/nested/deep/style.json")
        try writeSolidPNG("render/tests/bg/nested/deep/expected.png", width: 16, height: 16, rgba: Self.red)
        try write(backgroundStyle("#ff0000"), "render/tests/bg/no-expected/style.json")
        // setZoom moves the camera from the style's zoom 0 to 3, where the color is blue.
        try write(##"{"version": 8, "zoom": 0, "metadata": {"test": {"width": 8, "height": 8, "operations": [["wait"], ["setZoom", 3], ["wait"]]}}, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": {"stops": [[0, "#ff0000"], [3, "#0000ff"]]}}}]}"##,
                  "render/tests/ops/set-zoom/style.json")
        try writeSolidPNG("render/tests/ops/set-zoom/expected.png", width: 8, height: 8, rgba: Self.blue)
        // local:// URLs name files of the suite; the query string is dropped.
        try write(##"{"type": "Polygon", "coordinates": [[[-10, -10], [10, -10], [10, 10], [-10, 10], [-10, -10]]]}"##, "data/square.geojson")
        try write(##"{"version": 8, "zoom": 0, "center": [0, 0], "metadata": {"test": {"width": 16, "height": 16}}, "sources": {"square": {"type": "geojson", "data": "local://data/square.geojson?v=1"}}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ff0000"}}, {"id": "fill", "type": "fill", "source": "square", "paint": {"fill-color": "#00ff00", "fill-antialias": false}}]}"##,
                  "render/tests/local/geojson/style.json")
        try writeSolidPNG("render/tests/local/geojson/expected.png", width: 16, height: 16, rgba: Self.green)
        // A broken source is drawn around, as in the GL harness, and noted as a warning.
        try write("[1, 2]", "data/invalid.geojson")
        try write(##"{"version": 8, "metadata": {"test": {"width": 16, "height": 16}}, "sources": {"bad": {"type": "geojson", "data": "local://data/invalid.geojson"}}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ff0000"}}, {"id": "fill", "type": "fill", "source": "bad", "paint": {"fill-color": "#00ff00"}}]}"##,
                  "render/tests/local/broken-source/style.json")
        try writeSolidPNG("render/tests/local/broken-source/expected.png", width: 16, height: 16, rgba: Self.red)

        let report = output + "/report.json"
        let result = try run(["render", "--suite", suite, "--report", report, "--output", output + "/images"])
        XCTAssertEqual(result.code, 1, result.stdout + result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("bg: 4/7 passed"), result.stdout)
        XCTAssertTrue(lines.contains("ops: 1/1 passed"), result.stdout)
        XCTAssertTrue(lines.contains("local: 2/2 passed"), result.stdout)
        XCTAssertEqual(lastLine(result.stdout), "7 passed, 3 failed, 1 skipped")

        let json = try JSON.parse(Array(try Data(contentsOf: URL(fileURLWithPath: report))))
        var byID: [String: JSON] = [:]
        for c in json["cases"]?.arrayValue ?? [] { if let id = c["id"]?.stringValue { byID[id] = c } }
        XCTAssertEqual(byID.count, 11)
        XCTAssertEqual(byID["bg/pass"]?["status"], .string("passed"))
        XCTAssertEqual(byID["bg/pass"]?["difference"], .number(0))
        XCTAssertEqual(byID["bg/pass"]?["allowed"], .number(0.00015))
        XCTAssertEqual(byID["bg/second-expected"]?["status"], .string("passed"))
        XCTAssertEqual(byID["bg/nested/deep"]?["status"], .string("passed"))
        XCTAssertEqual(byID["bg/fail"]?["status"], .string("failed"))
        XCTAssertEqual(byID["bg/fail"]?["difference"], .number(1))
        XCTAssertEqual(byID["bg/fail"]?["reason"], .string("mismatch 1.000000 > allowed 0.000150"))
        XCTAssertEqual(byID["bg/ops"]?["status"], .string("passed"), "setPaintProperty turns the background blue")
        XCTAssertEqual(byID["bg/unsupported"]?["status"], .string("failed"))
        XCTAssertEqual(byID["bg/unsupported"]?["reason"], .string("operations not supported: addCustomLayer tent-3d-globe"))
        XCTAssertEqual(byID["bg/size"]?["status"], .string("failed"))
        XCTAssertEqual(byID["bg/size"]?["reason"], .string("size 32x32 differs from expected.png 16x16"))
        XCTAssertEqual(byID["bg/no-expected"]?["status"], .string("skipped"))
        XCTAssertEqual(byID["bg/no-expected"]?["reason"], .string("no expected image"))
        XCTAssertEqual(byID["ops/set-zoom"]?["status"], .string("passed"))
        XCTAssertEqual(byID["local/geojson"]?["status"], .string("passed"), "\(String(describing: byID["local/geojson"]))")
        XCTAssertEqual(byID["local/geojson"]?["warnings"], .array([]))
        XCTAssertEqual(byID["local/broken-source"]?["status"], .string("passed"))
        XCTAssertEqual(byID["local/broken-source"]?["warnings"]?.arrayValue?.count, 1)

        let fm = FileManager.default
        XCTAssertTrue(fm.fileExists(atPath: output + "/images/bg/fail/actual.png"))
        XCTAssertTrue(fm.fileExists(atPath: output + "/images/bg/fail/diff.png"))
        XCTAssertTrue(fm.fileExists(atPath: output + "/images/bg/size/actual.png"))
        XCTAssertFalse(fm.fileExists(atPath: output + "/images/bg/pass"))
    }

    func testRenderFilterAndAllowed() throws {
        _ = try binary()
        try write(backgroundStyle("#ff0000"), "render/tests/bg/pass/style.json")
        try writeSolidPNG("render/tests/bg/pass/expected.png", width: 16, height: 16, rgba: Self.red)
        try write(backgroundStyle("#ff0000"), "render/tests/bg/fail/style.json")
        try writeSolidPNG("render/tests/bg/fail/expected.png", width: 16, height: 16, rgba: Self.blue)
        // A numeric `diff` overrides `allowed`: every pixel may differ.
        try write(backgroundStyle("#ff0000", test: ##"{"width": 16, "height": 16, "allowed": 0, "diff": 1}"##), "render/tests/other/lenient/style.json")
        try writeSolidPNG("render/tests/other/lenient/expected.png", width: 16, height: 16, rgba: Self.blue)

        let onlyPass = try run(["render", "--suite", suite, "--filter", "bg/pass", "--output", output])
        XCTAssertEqual(onlyPass.code, 0, onlyPass.stderr)
        XCTAssertEqual(onlyPass.stdout, "bg: 1/1 passed\n1 passed, 0 failed\n")

        let excluded = try run(["render", "--suite", suite, "--filter", "*,!bg/fail", "--output", output])
        XCTAssertEqual(excluded.code, 0, excluded.stderr)
        XCTAssertEqual(excluded.stdout, "bg: 1/1 passed\nother: 1/1 passed\n2 passed, 0 failed\n")

        let categories = try run(["render", "--suite", suite, "--filter", "b*", "--output", output])
        XCTAssertEqual(categories.code, 1)
        XCTAssertEqual(categories.stdout, "bg: 1/2 passed\n1 passed, 1 failed\n")
    }

    // MARK: maps suite

    func testMapsSuiteWithoutSymbols() throws {
        _ = try binary()
        // The symbol layer names a source that does not exist: only without symbols does the style load.
        try write(##"{"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#00ff00"}}, {"id": "labels", "type": "symbol", "source": "missing", "layout": {"text-field": "x"}}]}"##,
                  "styles/green.json")
        try write(##"{"style": "styles/green.json", "center": [0, 0], "zoom": 1, "bearing": 0, "pitch": 0, "width": 20, "height": 10, "pixelRatio": 1}"##,
                  "maps/green/case.json")
        try writeSolidPNG("maps/green/expected-nosymbols.png", width: 20, height: 10, rgba: Self.green)
        try write(##"{"style": "styles/green.json", "center": [0, 0], "zoom": 1, "width": 20, "height": 10, "pixelRatio": 2}"##,
                  "maps/wrong/case.json")
        try writeSolidPNG("maps/wrong/expected-nosymbols.png", width: 40, height: 20, rgba: Self.red)

        let result = try run(["maps", "--suite", suite + "/maps", "--root", suite, "--without-symbols", "--output", output])
        XCTAssertEqual(result.code, 1, result.stderr)
        XCTAssertEqual(result.stdout, "green: mismatch 0.000000 (pass)\nwrong: mismatch 1.000000 (fail)\n1 passed, 1 failed\n")
        XCTAssertTrue(FileManager.default.fileExists(atPath: output + "/maps-nosymbols/wrong/diff.png"))

        let only = try run(["maps", "--suite", suite + "/maps", "--root", suite, "--without-symbols", "--filter", "gr*", "--output", output])
        XCTAssertEqual(only.code, 0, only.stderr)
        XCTAssertEqual(lastLine(only.stdout), "1 passed, 0 failed")
    }

    // MARK: usage

    func testUsageErrorsAndHelp() throws {
        _ = try binary()
        XCTAssertEqual(try run(["--help"]).code, 0)
        XCTAssertEqual(try run(["render", "--help"]).code, 0)
        XCTAssertEqual(try run([]).code, 2)
        XCTAssertEqual(try run(["render"]).code, 2)
        XCTAssertEqual(try run(["render", "--suite", suite + "/nope"]).code, 2)
        XCTAssertEqual(try run(["render", "--suite", suite, "--bogus"]).code, 2)
        XCTAssertEqual(try run(["render", "--suite", suite, "--backend", "vulkan"]).code, 2)
        XCTAssertEqual(try run(["maps", "--suite", suite]).code, 2)
        XCTAssertEqual(try run(["paint"]).code, 2)
    }
}
