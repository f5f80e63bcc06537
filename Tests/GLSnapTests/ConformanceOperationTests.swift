import Foundation
import GLSnapImage
import GLSnapStyle
import XCTest

/// The render runner's `addImage`/`removeImage` operations, paint transitions, `setStyle` keeping the camera,
/// and `mapbox://` URLs, end to end through the built `glsnap-conformance`.
/// Expected images are solid colors written here.
final class ConformanceOperationTests: XCTestCase {
    private var suite = ""

    override func setUpWithError() throws {
        suite = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-ops-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: suite, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: suite)
    }

    private func write(_ text: String, _ relative: String) throws {
        let path = suite + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    private func writePNG(_ relative: String, side: Int, rgba: [UInt8]) throws {
        let pixels = Array([[UInt8]](repeating: rgba, count: side * side).joined())
        let png = try PNGEncoder().encode(RGBAImage(width: side, height: side, pixels: pixels))
        let path = suite + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(png).write(to: URL(fileURLWithPath: path))
    }

    private static let red: [UInt8] = [255, 0, 0, 255]
    private static let green: [UInt8] = [0, 255, 0, 255]
    private static let blue: [UInt8] = [0, 0, 255, 255]

    func testOperationsAndMapboxURLs() throws {
        let binary = try TestPaths.executable("glsnap-conformance")
        try writePNG("image/green.png", side: 4, rgba: Self.green)
        let pattern = ##"{"version": 8, "metadata": {"test": {"width": 16, "height": 16, "operations": [OPS]}}, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "red"}}]}"##
        let addLayer = ##"["addLayer", {"id": "p", "type": "background", "paint": {"background-pattern": "g"}}]"##
        // addImage reads the file relative to the suite; the pattern shows it.
        try write(pattern.replacingOccurrences(of: "OPS", with: ##"["addImage", "g", "./image/green.png", {"pixelRatio": 1}], "## + addLayer),
                  "render/tests/ops/add-image/style.json")
        try writePNG("render/tests/ops/add-image/expected.png", side: 16, rgba: Self.green)
        // After removeImage the pattern has no image and is not drawn.
        try write(pattern.replacingOccurrences(of: "OPS", with: ##"["addImage", "g", "./image/green.png"], "## + addLayer + ##", ["wait"], ["removeImage", "g"]"##),
                  "render/tests/ops/remove-image/style.json")
        try writePNG("render/tests/ops/remove-image/expected.png", side: 16, rgba: Self.red)
        // A style set at run time without a zoom keeps the zoom (3) of the style before it.
        try write(##"{"version": 8, "zoom": 3, "metadata": {"test": {"width": 8, "height": 8, "operations": [["setStyle", {"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": {"stops": [[0, "#ff0000"], [3, "#0000ff"]]}}}]}]]}}, "sources": {}, "layers": []}"##,
                  "render/tests/ops/set-style-camera/style.json")
        try writePNG("render/tests/ops/set-style-camera/expected.png", side: 8, rgba: Self.blue)
        // mapbox://sprites/… reads sprites/…; mapbox://<tileset> reads the TileJSON tilesets/<tileset>.
        try write(##"{"g": {"x": 0, "y": 0, "width": 4, "height": 4, "pixelRatio": 1}}"##, "sprites/mapbox/s.json")
        try writePNG("sprites/mapbox/s.png", side: 4, rgba: Self.green)
        try write(##"{"version": 8, "sprite": "mapbox://sprites/mapbox/s", "metadata": {"test": {"width": 16, "height": 16}}, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-pattern": "g"}}]}"##,
                  "render/tests/mapbox/sprite/style.json")
        try writePNG("render/tests/mapbox/sprite/expected.png", side: 16, rgba: Self.green)
        try writePNG("tiles/blue.png", side: 256, rgba: Self.blue)
        try write(##"{"tiles": ["local://tiles/blue.png"]}"##, "tilesets/mapbox.blue")
        try write(##"{"version": 8, "center": [0, 0], "zoom": 0, "metadata": {"test": {"width": 16, "height": 16}}, "sources": {"r": {"type": "raster", "url": "mapbox://mapbox.blue", "tileSize": 256}}, "layers": [{"id": "r", "type": "raster", "source": "r", "paint": {"raster-fade-duration": 0}}]}"##,
                  "render/tests/mapbox/tileset/style.json")
        try writePNG("render/tests/mapbox/tileset/expected.png", side: 16, rgba: Self.blue)

        // Paint transitions on the harness's fake clock: halfway through at 500 of 1000 ms; a plain
        // wait ends them.
        let transition = ##"{"version": 8, "metadata": {"test": {"width": 8, "height": 8, "operations": [["setPaintProperty", "bg", "background-color", "white"], ["wait", 0], WAIT]}}, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color-transition": {"duration": 1000}, "background-color": "red"}}]}"##
        try write(transition.replacingOccurrences(of: "WAIT", with: ##"["wait", 500]"##), "render/tests/transition/half/style.json")
        try writePNG("render/tests/transition/half/expected.png", side: 8, rgba: [255, 128, 128, 255])
        try write(transition.replacingOccurrences(of: "WAIT", with: ##"["wait", 500], ["wait"]"##), "render/tests/transition/ended/style.json")
        try writePNG("render/tests/transition/ended/expected.png", side: 8, rgba: [255, 255, 255, 255])

        let report = suite + "/report.json"
        let result = try runProcess(binary, ["render", "--suite", suite, "--report", report, "--output", suite + "/out"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("ops: 3/3 passed"), result.stdout)
        XCTAssertTrue(lines.contains("mapbox: 2/2 passed"), result.stdout)
        XCTAssertTrue(lines.contains("transition: 2/2 passed"), result.stdout)
        XCTAssertEqual(lines.last, "7 passed, 0 failed")
    }
}
