import Foundation
import XCTest
@testable import GLSnap
import GLSnapImage

/// Zooms below 0 (down to GL JS's -2) and pixel ratios past 8 are drawn, as GL JS draws them.
final class LowZoomHighRatioTests: XCTestCase {
    /// A blue square (80...100°E, 10°S...10°N) over a red background.
    static func style(zoom: Double) -> String {
        """
        {"version": 8, "center": [0, 0], "zoom": \(zoom),
         "sources": {"w": {"type": "geojson", "data": {"type": "Polygon",
           "coordinates": [[[80, -10], [100, -10], [100, 10], [80, 10], [80, -10]]]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "red"}},
                    {"id": "w", "type": "fill", "source": "w", "paint": {"fill-color": "blue", "fill-antialias": false}}]}
        """
    }

    private func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * image.width + x) * 4
        return Array(image.pixels[i..<(i + 4)])
    }

    func testNegativeZoomDrawsASmallerWorld() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 256, height: 256)))
        // At zoom -1 the world is 256 points wide: 90°E is a quarter of the view right of the
        // center (x 192); at zoom 0 it is at the right edge.
        try s.setStyle(json: LowZoomHighRatioTests.style(zoom: -1))
        XCTAssertEqual(pixel(try s.snapshot().image, 192, 128), [0, 0, 255, 255])
        try s.setStyle(json: LowZoomHighRatioTests.style(zoom: 0))
        XCTAssertEqual(pixel(try s.snapshot().image, 192, 128), [255, 0, 0, 255])
        XCTAssertThrowsError(try s.snapshot(camera: CameraOptions(zoom: -3))) { error in
            XCTAssertTrue("\(error)".contains("zoom -3.0 must be within -2...24"), "\(error)")
        }
    }

    func testPixelRatioTen() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 24, height: 24), pixelRatio: 10))
        try s.setStyle(json: LowZoomHighRatioTests.style(zoom: 0))
        let image = try s.snapshot().image
        XCTAssertEqual(image.width, 240)
        XCTAssertEqual(pixel(image, 120, 120), [255, 0, 0, 255])
    }
}
