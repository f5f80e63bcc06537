import Foundation
import XCTest
@testable import GLSnap
import GLSnapImage

/// A line-gradient that is a `step` over line-progress keeps each step's exact extent, however
/// small a share of the line it is (GL JS sizes a step gradient's ramp to the line piece and
/// samples it nearest); a 256-texel ramp over the whole line would lose a step under 1/255.
final class LineGradientStepTests: XCTestCase {
    /// A line 100 degrees long, blue but for red from 0.1% to 0.2% of its length (0.1 to 0.2
    /// degrees east, about 9 px at zoom 6), with the view centered on the red step.
    static let style = """
    {"version": 8, "center": [0.15, 0], "zoom": 6,
     "sources": {"s": {"type": "geojson", "lineMetrics": true, "data": {"type": "Feature", "properties": {},
       "geometry": {"type": "LineString", "coordinates": [[0, 0], [100, 0]]}}}},
     "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                {"id": "l", "type": "line", "source": "s", "paint": {"line-width": 10,
                 "line-gradient": ["step", ["line-progress"], "blue", 0.001, "red", 0.002, "blue"]}}]}
    """

    func testShortStepIsDrawnAtItsExactExtent() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 128, height: 128)))
        try s.setStyle(json: LineGradientStepTests.style)
        let image = try s.snapshot().image
        func pixel(_ x: Int, _ y: Int) -> [Int] {
            let i = (y * image.width + x) * 4
            return image.pixels[i..<(i + 4)].map(Int.init)
        }
        // 0.15 degrees is 0.15 · 32768 / 360 = 13.7 px: the step spans x 59.4...68.5.
        XCTAssertEqual(pixel(64, 64), [255, 0, 0, 255], "inside the step")
        XCTAssertEqual(pixel(62, 64), [255, 0, 0, 255], "inside the step")
        XCTAssertEqual(pixel(74, 64), [0, 0, 255, 255], "after it")
        XCTAssertEqual(pixel(56, 64), [0, 0, 255, 255], "before it")
        XCTAssertEqual(pixel(64, 40), [255, 255, 255, 255], "off the line")
    }
}
