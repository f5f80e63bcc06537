import Foundation
import GLSnap
import GLSnapConformance
import GLSnapImage
import GLSnapStyle
import XCTest

/// What the render-suite runner takes from GL JS's harness for terrain cases: the skirts
/// (`terrainSkirtLength`) and a style zoom below the snapshot's, which GL JS's map clamps.
final class TerrainCaseOptionsTests: XCTestCase {
    func testSkirtLengthOption() throws {
        XCTAssertTrue(RenderCaseSpec(style: try JSON.parse(#"{"metadata": {"test": {}}}"#)).terrainSkirts)
        XCTAssertTrue(RenderCaseSpec(style: try JSON.parse(#"{"metadata": {"test": {"terrainSkirtLength": "auto"}}}"#)).terrainSkirts)
        XCTAssertFalse(RenderCaseSpec(style: try JSON.parse(#"{"metadata": {"test": {"terrainSkirtLength": "none"}}}"#)).terrainSkirts)
    }

    /// Under a translucent map the skirts show as walls at the tiles' edges; without them they do not.
    func testSkirtsCanBeLeftOut() throws {
        let references = TestPaths.root.appendingPathComponent("Tests/GLSnapTests/References").path
        let style = """
        {"version": 8, "center": [2.8125, 2.81137], "zoom": 7.5, "pitch": 60, "bearing": 30,
         "sources": {"dem": {"type": "raster-dem", "tiles": ["tiles/mapbox/{z}-{x}-{y}.png"], "tileSize": 256,
                             "minzoom": 6, "maxzoom": 6, "encoding": "mapbox"}},
         "terrain": {"source": "dem", "exaggeration": 1.5},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "rgba(0, 0, 255, 0.5)"}}]}
        """
        func render(skirts: Bool) throws -> RGBAImage {
            var options = MapSnapshotOptions(size: Size(width: 128, height: 128))
            options.terrainSkirts = skirts
            let s = Snapshotter(options: options)
            try s.setStyle(json: style, baseURL: references)
            return try s.snapshot().image
        }
        let with = try render(skirts: true), without = try render(skirts: false)
        XCTAssertGreaterThan(pixelmatch(with, without, threshold: 0.05, includeAA: true), 0)
    }

    func testZoomOutsideTheSnapshotsIsClampedAsGLJSClampsIt() throws {
        XCTAssertEqual(RenderCaseSpec.clampedZoom(-2.5), -2)
        XCTAssertEqual(RenderCaseSpec.clampedZoom(30), 24)
        XCTAssertNil(RenderCaseSpec.clampedZoom(3))
        XCTAssertNil(RenderCaseSpec.clampedZoom(.nan), "not finite: the snapshot refuses it")
        let text = #"{"version": 8, "zoom": -2.5, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "red"}}]}"#
        let spec = RenderCaseSpec(style: try JSON.parse(text))
        let (snapshotter, warnings) = try RenderSuite.prepare(styleText: text, spec: spec, suiteDir: try TestPaths.temporaryDirectory().path,
                                                               backend: .osmesa)
        XCTAssertEqual(snapshotter.camera.zoom, -2)
        XCTAssertTrue(warnings.contains { $0.contains("-2.5") && $0.contains("clamps") }, "\(warnings)")
        XCTAssertEqual(try snapshotter.snapshot().image.pixels[0], 255)
        // The library itself still refuses such a camera.
        let library = Snapshotter(options: MapSnapshotOptions(size: Size(width: 64, height: 64)))
        try library.setStyle(json: text, baseURL: try TestPaths.temporaryDirectory().path)
        XCTAssertThrowsError(try library.snapshot())
    }
}
