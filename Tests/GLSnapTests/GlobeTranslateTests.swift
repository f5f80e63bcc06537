import XCTest
import GLSnap
import GLSnapImage

/// `*-translate` on the globe moves the geometry as GL JS does: by the style's pixels at the
/// camera's zoom, a `viewport` anchor turned by the camera's bearing (not the flat texture's).
final class GlobeTranslateTests: XCTestCase {
    /// A small red square at (0, `lat`) translated by `translate` pixels.
    private func style(lat: Double, translate: (Double, Double), anchor: String) -> String {
        let d = 0.3
        return """
        {"version": 8, "projection": {"type": "globe"}, "sky": {"atmosphere-blend": 0},
         "sources": {"box": {"type": "geojson", "data": {"type": "Polygon", "coordinates":
             [[[\(-d), \(lat - d)], [\(d), \(lat - d)], [\(d), \(lat + d)], [\(-d), \(lat + d)], [\(-d), \(lat - d)]]]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "box", "type": "fill", "source": "box",
                     "paint": {"fill-color": "#ff0000", "fill-antialias": false,
                               "fill-translate": [\(translate.0), \(translate.1)], "fill-translate-anchor": "\(anchor)"}}]}
        """
    }

    private func render(_ style: String, lat: Double, zoom: Double, bearing: Double) throws -> RGBAImage {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 256, height: 256)))
        try s.setStyle(json: style)
        return try s.snapshot(camera: CameraOptions(center: Coordinate(latitude: lat, longitude: 0), zoom: zoom, bearing: bearing)).image
    }

    private func isRed(_ image: RGBAImage, _ x: Int, _ y: Int) -> Bool {
        let o = (y * image.width + x) * 4
        return image.pixels[o] > 200 && image.pixels[o + 1] < 60 && image.pixels[o + 3] == 255
    }

    /// Anchored to the viewport, 40 pixels down the screen is 40 pixels down the screen whatever
    /// the bearing (the texture the globe samples is drawn north up).
    func testViewportTranslateFollowsTheCameraBearing() throws {
        let image = try render(style(lat: 0, translate: (0, 40), anchor: "viewport"), lat: 0, zoom: 3, bearing: 90)
        XCTAssertTrue(isRed(image, 128, 168), "the square is 40 px below the center")
        XCTAssertFalse(isRed(image, 128, 128))
        XCTAssertFalse(isRed(image, 88, 128), "not moved south on the map (left on screen at bearing 90)")
    }

    /// Anchored to the map, the translation is in pixels at the camera's zoom even where the
    /// texture is drawn at a higher zoom (away from the equator): 40 px east at the center.
    func testMapTranslateIsSizedAtTheCameraZoom() throws {
        let image = try render(style(lat: 60, translate: (40, 0), anchor: "map"), lat: 60, zoom: 3, bearing: 0)
        XCTAssertTrue(isRed(image, 168, 128), "the square is 40 px east of the center")
        XCTAssertFalse(isRed(image, 128, 128))
    }
}
