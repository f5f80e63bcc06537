import Foundation
import GLSnap
import XCTest

/// A sprite folder holding an SVG icon over the limits: the map still renders, the other icons
/// are drawn, the bad one is left out with a warning naming it (issue 17, item 2).
final class SVGIconLimitTests: XCTestCase {
    /// A folder with flag.svg, `extra` icons and a style drawing the flag west of 0,0 and each extra east of it.
    private func spriteFolder(_ extra: [String: String]) throws -> String {
        let shared = try TestPaths.requireShared()
        let dir = try TestPaths.temporaryDirectory()
        try FileManager.default.copyItem(at: shared.appendingPathComponent("fixtures/icons/flag.svg"), to: dir.appendingPathComponent("flag.svg"))
        var features = [#"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [-20, 0]}, "properties": {"icon": "flag"}}"#]
        for (name, svg) in extra {
            try Data(svg.utf8).write(to: dir.appendingPathComponent(name + ".svg"))
            features.append(#"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [20, 0]}, "properties": {"icon": "\#(name)"}}"#)
        }
        let style = """
        {"version": 8, "center": [0, 0], "zoom": 0, "sprite": "./",
         "sources": {"points": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\(features.joined(separator: ","))]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
           {"id": "icons", "type": "symbol", "source": "points", "layout": {"icon-image": ["get", "icon"], "icon-allow-overlap": true}}]}
        """
        let path = dir.appendingPathComponent("style.json").path
        try Data(style.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Pixels of the left half that are not the white background (the flag is drawn there).
    private func drawnLeft(_ s: Snapshot) -> Int {
        let image = s.image
        var n = 0
        for y in 0..<image.height {
            for x in 0..<(image.width / 2) where image.pixels[(y * image.width + x) * 4] < 200 { n += 1 }
        }
        return n
    }

    /// 10 000 characters of text took 18 s per rasterization before the limits.
    func testTextBombIsLeftOutAndTheMapRenders() throws {
        let words = String(repeating: "lorem ipsu", count: 1000)
        let bomb = #"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><text y="12" font-size="2">\#(words)</text></svg>"#
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 200, height: 100)))
        try s.setStyle(path: try spriteFolder(["text-bomb": bomb]))
        let start = Date()
        let snapshot = try s.snapshot()
        XCTAssertLessThan(Date().timeIntervalSince(start), 20)
        XCTAssertEqual(snapshot.warnings.filter { $0.contains("text-bomb") },
                       ["SVG icon 'text-bomb' is left out: it has over 1000 characters of text"])
        XCTAssertGreaterThan(drawnLeft(snapshot), 20, "the flag is drawn")
        // At another pixel ratio (another scale) the refused icon is not tried again.
        s.options.pixelRatio = 2
        let again = try s.snapshot()
        XCTAssertLessThan(Date().timeIntervalSince(start), 20)
        XCTAssertGreaterThan(drawnLeft(again), 80)
    }

    /// `Limits.svg` reaches the rasterizer: with at most 3 elements the flag (7) is left out.
    func testLimitsReachTheRasterizer() throws {
        var options = MapSnapshotOptions(size: Size(width: 200, height: 100))
        options.limits.svg.maxElements = 3
        let s = Snapshotter(options: options)
        try s.setStyle(path: try spriteFolder([:]))
        let snapshot = try s.snapshot()
        XCTAssertEqual(snapshot.warnings, ["SVG icon 'flag' is left out: it has over 3 elements"])
        XCTAssertEqual(drawnLeft(snapshot), 0)
    }
}
