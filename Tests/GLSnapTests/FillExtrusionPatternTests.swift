import GLSnap
import GLSnapImage
import XCTest

/// fill-extrusion-pattern with a translucent image: every pixel shows the image once, however
/// many tiles hold the building in their buffers (GL JS colors patterned extrusions in a
/// second, stencilled pass).
final class FillExtrusionPatternTests: XCTestCase {
    /// A 0.0004-degree square extruded 10 m at `center`, seen from above at zoom 18, patterned
    /// with a uniform half-transparent red over white; the color at the image's middle.
    private func roofColor(center: (Double, Double)) throws -> [UInt8] {
        let (x, y) = center, d = 0.0002
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 64, height: 64)))
        try s.setStyle(json: """
        {"version": 8, "center": [\(x), \(y)], "zoom": 18,
         "sources": {"box": {"type": "geojson", "data": {"type": "Polygon", "coordinates":
            [[[\(x - d), \(y - d)], [\(x - d), \(y + d)], [\(x + d), \(y + d)], [\(x + d), \(y - d)], [\(x - d), \(y - d)]]]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "x", "type": "fill-extrusion", "source": "box",
                     "paint": {"fill-extrusion-pattern": "half", "fill-extrusion-height": 10}}]}
        """)
        let half = RGBAImage(width: 4, height: 4, pixels: Array([[UInt8]](repeating: [255, 0, 0, 128], count: 16).joined()))
        try s.addImage("half", StyleImage(image: half))
        let image = try s.snapshot().image
        let i = (32 * image.width + 32) * 4
        return Array(image.pixels[i..<i + 3])
    }

    func testBuildingInFourTilesBuffersShowsItsImageOnce() throws {
        // Around (0, 0) the square is in all four tiles that meet there (each holds it whole in
        // its buffer); around the middle of tile 18/131072/131072 it is in that tile alone.
        let corner = try roofColor(center: (0, 0))
        let inside = try roofColor(center: (0.000687, -0.000687))
        XCTAssertLessThan(inside[1], 200, "the image is not drawn")
        for (a, b) in zip(corner, inside) {
            XCTAssertLessThanOrEqual(abs(Int(a) - Int(b)), 2, "corner \(corner), one tile \(inside)")
        }
    }
}
