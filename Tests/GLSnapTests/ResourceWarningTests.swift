import Foundation
import XCTest

/// A sprite that cannot be loaded and glyph ranges that cannot be read are warnings, and errors
/// with `--strict`, as broken tiles are.
final class ResourceWarningTests: XCTestCase {
    /// A style with one labelled icon over inline GeoJSON; `sprite` and `glyphs` as given.
    private func style(in dir: URL, sprite: String?, glyphs: String?) throws -> String {
        var keys: [String] = []
        if let sprite { keys.append(#""sprite": "\#(sprite)""#) }
        if let glyphs { keys.append(#""glyphs": "\#(glyphs)""#) }
        let url = dir.appendingPathComponent("style.json")
        try Data(#"""
        {"version": 8, "center": [0, 0], "zoom": 2\#(keys.map { ", " + $0 }.joined()),
         "sources": {"p": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                    {"id": "s", "type": "symbol", "source": "p",
                     "layout": {"icon-image": "marker", "text-field": "Label", "text-font": ["Open Sans Regular"]}}]}
        """#.utf8).write(to: url)
        return url.path
    }

    func testAMissingSpriteWarnsAndFailsWithStrict() throws {
        let glsnap = try TestPaths.executable("glsnap")
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let s = try style(in: dir, sprite: "nosuch/sprite", glyphs: nil)
        let out = dir.appendingPathComponent("map.png").path
        var r = try runProcess(glsnap, ["render", "--style", s, "--size", "64x64", "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("glsnap: warning: sprite 'nosuch/sprite' could not be loaded"), r.stderr)
        XCTAssertTrue(r.stderr.contains("nosuch/sprite.png"), r.stderr)
        r = try runProcess(glsnap, ["render", "--strict", "--style", s, "--size", "64x64", "-o", out + ".strict.png"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("sprite 'nosuch/sprite' could not be loaded"), r.stderr)
    }

    func testUnreadableGlyphsWarnAndFailWithStrict() throws {
        let glsnap = try TestPaths.executable("glsnap")
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fonts = dir.appendingPathComponent("fonts/Open Sans Regular")
        try FileManager.default.createDirectory(at: fonts, withIntermediateDirectories: true)
        try Data([0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]).write(to: fonts.appendingPathComponent("0-255.pbf"))
        let s = try style(in: dir, sprite: nil, glyphs: "fonts/{fontstack}/{range}.pbf")
        let out = dir.appendingPathComponent("map.png").path
        var r = try runProcess(glsnap, ["render", "--style", s, "--size", "64x64", "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("glsnap: warning: glyphs: ") && r.stderr.contains("0-255.pbf"), r.stderr)
        r = try runProcess(glsnap, ["render", "--strict", "--style", s, "--size", "64x64", "-o", out + ".strict.png"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("0-255.pbf"), r.stderr)
    }
}
