import Foundation
import XCTest
import GLSnap
import GLSnapImage

/// fill-antialias draws the outline as GL JS does: lines at WebGL's default width of 1 pixel.
final class FillOutlineWidthTests: XCTestCase {
    func testOutlineIsOnePixelWide() throws {
        // A white square on white with a red outline: only the outline shows. Its top and bottom
        // edges fall between pixel centers, where a wider line would tint a second row.
        let style = """
        {"version": 8, "center": [0, 0], "zoom": 1,
         "sources": {"s": {"type": "geojson", "data": {"type": "Polygon",
           "coordinates": [[[-5, -4.33], [5, -4.33], [5, 4.33], [-5, 4.33], [-5, -4.33]]]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                    {"id": "f", "type": "fill", "source": "s", "paint": {"fill-color": "white", "fill-outline-color": "red"}}]}
        """
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 64, height: 128)))
        try s.setStyle(json: style, baseURL: try TestPaths.temporaryDirectory().path)
        let image = try s.snapshot().image
        let tinted = (0..<image.height).filter { image.pixels[($0 * image.width + 32) * 4 + 1] < 250 }
        XCTAssertEqual(tinted.count, 2, "one row for each horizontal edge: \(tinted)")
    }
}
