import Foundation
import XCTest
@testable import GLSnap

/// A fill's antialiasing outline (2-pixel GL lines) draws the pixel whose center an outline vertex
/// lies on exactly, as the diamond exit rule has it. Mesa's llvmpipe drew it with neither line
/// meeting there, so a hole's sharp tip on a pixel center left a 1-pixel notch in the fill
/// (`fill-visibility/visible`, `runtime-styling/source-add-vector-*`).
final class FillOutlineTieTests: XCTestCase {
    /// Pixel (x, y) of a 64x64 image at zoom 0 centered on 0,0 as a coordinate: its center.
    static func coordinate(_ x: Double, _ y: Double) -> String {
        let wx = 224 + x, wy = 224 + y
        let lon = wx / 512 * 360 - 180
        let lat = atan(sinh(Double.pi * (1 - 2 * wy / 512))) * 180 / Double.pi
        return "[\(lon), \(lat)]"
    }

    /// Black land with a hole whose west tip lies on the center of pixel (20, 30), as the water
    /// around Africa's west tip lies in the suite's tile.
    static var style: String {
        let outer = [(2.0, 62.0), (62, 62), (62, 2), (2, 2), (2, 62)]
        let hole = [(22.0, 24.75), (20.5, 30.5), (21.25, 34.25), (30.5, 30.5), (22, 24.75)]
        let ring = { (points: [(Double, Double)]) in "[" + points.map { coordinate($0.0, $0.1) }.joined(separator: ", ") + "]" }
        return """
            {"version": 8, "center": [0, 0], "zoom": 0,
             "sources": {"s": {"type": "geojson", "data": {"type": "Feature", "properties": {},
               "geometry": {"type": "Polygon", "coordinates": [\(ring(outer)), \(ring(hole))]}}}},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                        {"id": "f", "type": "fill", "source": "s", "paint": {"fill-color": "black"}}]}
            """
    }

    func testTheOutlineDrawsThePixelUnderAVertex() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 64, height: 64)))
        try s.setStyle(json: FillOutlineTieTests.style)
        let image = try s.snapshot().image
        func gray(_ x: Int, _ y: Int) -> UInt8 { image.pixels[(y * image.width + x) * 4] }
        // The tip's pixel is on the outline itself (distance 0): fully black, not the hole's white.
        XCTAssertEqual(gray(20, 30), 0, "the hole's tip")
        XCTAssertEqual(gray(19, 30), 0, "west of the tip")
        XCTAssertEqual(gray(26, 30), 255, "inside the hole")
    }
}
