import XCTest
import GLSnap
import GLSnapImage

/// The globe's flat texture is drawn at a higher zoom than the camera's away from the equator
/// (for detail where the sphere is larger than Mercator); the style is still evaluated at the
/// camera's zoom, as GL JS evaluates it.
final class GlobeStyleZoomTests: XCTestCase {
    func testPaintIsEvaluatedAtTheCameraZoom() throws {
        let style = """
        {"version": 8, "projection": {"type": "globe"}, "sky": {"atmosphere-blend": 0},
         "sources": {"world": {"type": "geojson", "data": {"type": "Polygon", "coordinates":
             [[[-180, -85], [180, -85], [180, 85], [-180, 85], [-180, -85]]]}}},
         "layers": [{"id": "world", "type": "fill", "source": "world",
                     "paint": {"fill-color": ["step", ["zoom"], "#ff0000", 2.05, "#00ff00"]}}]}
        """
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 512, height: 512)))
        try s.setStyle(json: style)
        let image = try s.snapshot(camera: CameraOptions(center: Coordinate(latitude: 60, longitude: 0), zoom: 2)).image
        let o = (256 * image.width + 256) * 4
        XCTAssertEqual(Array(image.pixels[o..<(o + 4)]), [255, 0, 0, 255], "zoom 2 is below the step")
    }
}
