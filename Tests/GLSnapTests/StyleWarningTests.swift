import Foundation
import XCTest
@testable import GLSnap
import GLSnapImage

/// A style value glsnap cannot use is left out with a warning (as MapLibre does), and refused
/// with `styleErrors: .fail` / `--strict`.
final class StyleWarningTests: XCTestCase {
    /// A red background, then a fill whose color does not parse and a layer whose filter mixes
    /// legacy and expression syntax and compiles as neither (it would cover the map in blue).
    static let style = """
    {"version": 8, "center": [0, 0], "zoom": 1,
     "sources": {"box": {"type": "geojson", "data": {"type": "Polygon",
       "coordinates": [[[-170, -80], [170, -80], [170, 80], [-170, 80], [-170, -80]]]}}},
     "layers": [
      {"id": "bg", "type": "background", "paint": {"background-color": "red"}},
      {"id": "fill", "type": "fill", "source": "box",
       "paint": {"fill-color": "hsla(0, 0, 0, 0)", "fill-opacity": 0}},
      {"id": "mixed", "type": "fill", "source": "box", "paint": {"fill-color": "blue"},
       "filter": ["all", ["==", "$type", 1], ["==", ["geometry-type"], "Polygon"]]}
     ]}
    """

    private func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * image.width + x) * 4
        return Array(image.pixels[i..<(i + 4)])
    }

    func testLeftOutWithWarningsOnTheFirstSnapshot() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 32, height: 32)))
        try s.setStyle(json: StyleWarningTests.style)
        let first = try s.snapshot()
        XCTAssertEqual(pixel(first.image, 16, 16), [255, 0, 0, 255], "the map is drawn without the bad layer")
        let warnings = first.warnings
        XCTAssertTrue(warnings.contains("inline JSON:7: layers[1].paint.fill-color: color expected, \"hsla(0, 0, 0, 0)\" found"),
                      "\(warnings)")
        XCTAssertTrue(warnings.contains { $0.hasPrefix("inline JSON:") && $0.contains("layers[2].filter") }, "\(warnings)")
        XCTAssertEqual(s.styleWarnings, warnings)
        XCTAssertEqual(try s.snapshot().warnings, [], "reported once per style")
    }

    func testStrictRefusesTheStyle() throws {
        var options = MapSnapshotOptions(size: Size(width: 32, height: 32))
        options.styleErrors = .fail
        let s = Snapshotter(options: options)
        XCTAssertThrowsError(try s.setStyle(json: StyleWarningTests.style)) { error in
            XCTAssertTrue("\(error)".contains("layers[1].paint.fill-color"), "\(error)")
        }
    }

    func testCLIWarnsAndStrictFails() throws {
        let glsnap = try TestPaths.executable("glsnap")
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("style.json").path
        try Data(StyleWarningTests.style.utf8).write(to: URL(fileURLWithPath: path))
        let out = dir.appendingPathComponent("map.png").path
        var r = try runProcess(glsnap, ["render", "--style", path, "--size", "32x32", "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("glsnap: warning: \(path):7: layers[1].paint.fill-color: color expected"), r.stderr)
        r = try runProcess(glsnap, ["render", "--strict", "--style", path, "--size", "32x32", "-o", out])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("layers[1].paint.fill-color"), r.stderr)
    }

    func testWhatIsNotDrawnIsNamed() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 16, height: 16)))
        try s.setStyle(json: """
        {"version": 8, "roll": 30, "terrain": {"source": "box"}, "sources": {"box": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
         "layers": [{"id": "f", "type": "fill-extrusion", "source": "box", "layout": {"fill-extrusion-rounded-corner-distance": 2}}]}
        """)
        XCTAssertEqual(s.styleWarnings, [
            "terrain source \"box\" is not a raster-dem source; the map is drawn flat",
        ], "the style's roll and the extrusion's rounded corners are drawn, so they are not named")
        // Vertical text and variable anchor offsets are drawn too.
        try s.setStyle(json: """
        {"version": 8, "sources": {"p": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
         "layers": [{"id": "t", "type": "symbol", "source": "p", "layout": {"text-field": "a", "text-writing-mode": ["vertical"],
                     "text-variable-anchor-offset": ["top", [0, 1]]}}]}
        """)
        XCTAssertEqual(s.styleWarnings, [])
    }
}
