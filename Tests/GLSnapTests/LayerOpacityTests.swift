import Foundation
import XCTest
@testable import GLSnap
import GLSnapImage

/// fill-layer-opacity and line-layer-opacity: the layer is drawn whole, then blended at that
/// opacity, so its features do not show through each other where they overlap.
final class LayerOpacityTests: XCTestCase {
    /// Two overlapping red squares (west -20...5, east -5...20) over white, as `type`.
    static func style(_ type: String, paint: String) -> String {
        """
        {"version": 8, "center": [0, 0], "zoom": 1,
         "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
           {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[-20, -10], [5, -10], [5, 10], [-20, 10], [-20, -10]]]}},
           {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[-5, -10], [20, -10], [20, 10], [-5, 10], [-5, -10]]]}}]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                    {"id": "l", "type": "\(type)", "source": "s", "paint": {\(paint)}}]}
        """
    }

    private func pixels(_ style: String, at points: [(Int, Int)]) throws -> [[Int]] {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 128, height: 128)))
        try s.setStyle(json: style)
        let image = try s.snapshot().image
        return points.map { p in
            let i = (p.1 * image.width + p.0) * 4
            return image.pixels[i..<(i + 4)].map(Int.init)
        }
    }

    func testFillLayerOpacityBlendsTheLayerOnce() throws {
        // x 64 is in both squares, x 54 in the western one only (a degree is 1024 / 360 = 2.8 px).
        let p = try pixels(LayerOpacityTests.style("fill", paint: #""fill-color": "red", "fill-antialias": false, "fill-layer-opacity": 0.5"#),
                           at: [(64, 64), (54, 64), (64, 20)])
        XCTAssertEqual(p[0][1], 128, accuracy: 2, "overlap: \(p[0])")
        XCTAssertEqual(p[1][1], 128, accuracy: 2, "one square: \(p[1])")
        XCTAssertEqual(p[0][0], 255)
        XCTAssertEqual(p[2], [255, 255, 255, 255], "outside")
    }

    func testLineLayerOpacityAndZero() throws {
        // The squares' outlines, 6 px wide: where they cross, still one blend.
        let line = LayerOpacityTests.style("line", paint: #""line-color": "blue", "line-width": 6, "line-layer-opacity": 0.25"#)
        // The west square's east edge (5°E, x 78) crosses the east square's south edge (10°S, y 92).
        let p = try pixels(line, at: [(78, 92)])
        XCTAssertEqual(p[0][0], 191, accuracy: 3, "\(p[0])")
        XCTAssertEqual(p[0][2], 255)
        let none = try pixels(LayerOpacityTests.style("fill", paint: #""fill-color": "red", "fill-layer-opacity": 0"#), at: [(64, 64)])
        XCTAssertEqual(none[0], [255, 255, 255, 255])
    }
}
