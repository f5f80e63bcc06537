import Foundation
import GLSnapStyle
import XCTest

/// `glsnap-conformance query` on a small query suite made here: expected.json written by hand,
/// compared as MapLibre's harness does (order, keys, numbers within 1e-10, `layer` dropped).
final class ConformanceQueryRunnerTests: XCTestCase {
    private var suite = ""

    override func setUpWithError() throws {
        suite = FileManager.default.temporaryDirectory.appendingPathComponent("query-suite-\(UUID().uuidString)").path
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: suite) }

    private func write(_ text: String, _ relative: String) throws {
        let path = suite + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Two points at 0,0 (ids 1, 2, kinds a, b) drawn as circles of radius 10 at zoom 0.
    private func style(_ test: String) -> String {
        ##"{"version": 8, "center": [0, 0], "zoom": 0, "metadata": {"test": \##(test)}, "sources": {"p": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [{"type": "Feature", "id": 1, "properties": {"kind": "a"}, "geometry": {"type": "Point", "coordinates": [0, 0]}}, {"type": "Feature", "id": 2, "properties": {"kind": "b"}, "geometry": {"type": "Point", "coordinates": [0, 0]}}]}}}, "layers": [{"id": "c", "type": "circle", "source": "p", "paint": {"circle-radius": ["case", ["boolean", ["feature-state", "big"], false], 40, 10]}}]}"##
    }

    private func feature(_ id: Int, _ kind: String, state: String = "{}") -> String {
        ##"{"type": "Feature", "id": \##(id), "geometry": {"type": "Point", "coordinates": [0, 0]}, "properties": {"kind": "\##(kind)"}, "source": "p", "state": \##(state)}"##
    }

    func testQuerySuiteJudgesLikeTheHarness() throws {
        let binary = try TestPaths.executable("glsnap-conformance")
        // The later feature comes first.
        try write(style(##"{"width": 64, "height": 64, "queryGeometry": [32, 32]}"##), "query/tests/points/both/style.json")
        try write("[\(feature(2, "b")), \(feature(1, "a"))]", "query/tests/points/both/expected.json")
        try write(style(##"{"width": 64, "height": 64, "queryGeometry": [32, 32], "queryOptions": {"filter": ["==", "kind", "a"]}}"##),
                  "query/tests/points/filter/style.json")
        try write("[\(feature(1, "a"))]", "query/tests/points/filter/expected.json")
        // Operations run as in render cases: the state widens feature 1 to 40 px.
        try write(style(##"{"width": 64, "height": 64, "queryGeometry": [[0, 0], [12, 12]], "operations": [["setFeatureState", {"source": "p", "id": 1}, {"big": true}], ["wait"]]}"##),
                  "query/tests/points/state/style.json")
        try write("[\(feature(1, "a", state: ##"{"big": true}"##))]", "query/tests/points/state/expected.json")
        // Wrong order fails, naming the first difference.
        try write(style(##"{"width": 64, "height": 64, "queryGeometry": [32, 32]}"##), "query/tests/points/order/style.json")
        try write("[\(feature(1, "a")), \(feature(2, "b"))]", "query/tests/points/order/expected.json")
        try write(style(##"{"width": 64, "height": 64, "queryGeometry": [32, 32]}"##), "query/tests/points/no-expected/style.json")

        let out = suite + "/out"
        let r = try runProcess(binary, ["query", "--suite", suite, "--output", out, "--report", out + "/report.json", "--verbose"])
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("points: 3/4 passed"), r.stdout)
        XCTAssertTrue(r.stdout.contains("points/order: failed features differ; feature 0: id differs"), r.stdout)
        XCTAssertEqual(r.stdout.split(separator: "\n").last.map(String.init), "3 passed, 1 failed, 1 skipped")
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/query/points/order/actual.json"))
        let floor = try runProcess(binary, ["query", "--suite", suite, "--output", out, "--min-pass-rate", "0.7"])
        XCTAssertEqual(floor.status, 0, floor.stdout)
    }
}
