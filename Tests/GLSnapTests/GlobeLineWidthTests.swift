import XCTest
import GLSnap
import GLSnapImage

/// Lines on the globe are as wide on the sphere as the style says everywhere, as GL JS draws
/// them: the flat texture the globe samples widens them toward the poles, by the fragment's own
/// latitude even along one long segment.
final class GlobeLineWidthTests: XCTestCase {
    private func style(terrain: Bool = false) -> String {
        """
        {"version": 8, "projection": {"type": "globe"}, "sky": {"atmosphere-blend": 0},
         "sources": {"meridian": {"type": "geojson", "data": {"type": "LineString", "coordinates": [[0, -75], [0, 75]]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "m", "type": "line", "source": "meridian", "paint": {"line-color": "#0000ff", "line-width": 12}}]}
        """
    }

    /// How many blue pixels row `y` of `image` has.
    private func blueRun(_ image: RGBAImage, row y: Int) -> Int {
        (0..<image.width).filter { x in
            let o = (y * image.width + x) * 4
            return image.pixels[o + 2] > 128 && image.pixels[o] < 128 && image.pixels[o + 3] == 255
        }.count
    }

    func testALineKeepsItsWidthTowardThePoles() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 512, height: 512)))
        try s.setStyle(json: style())
        let shot = try s.snapshot(camera: CameraOptions(center: Coordinate(latitude: 0, longitude: 0), zoom: 1.5))
        let equator = blueRun(shot.image, row: Int(shot.point(for: Coordinate(latitude: 0, longitude: 0)).y))
        let north = blueRun(shot.image, row: Int(shot.point(for: Coordinate(latitude: 60, longitude: 0)).y))
        XCTAssertEqual(Double(equator), 12, accuracy: 1.5)
        // The flat map's width would shrink by cos(60°) to 6 pixels here.
        XCTAssertEqual(Double(north), 12, accuracy: 2.5, "equator \(equator), 60°N \(north)")
    }
}
