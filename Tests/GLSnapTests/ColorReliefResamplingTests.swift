import Foundation
import XCTest
import GLSnap
import GLSnapImage

/// color-relief's `resampling` on an overscaled DEM: linear interpolates the elevations (as GL JS's
/// filtered DEM texture does), nearest keeps each DEM pixel's.
final class ColorReliefResamplingTests: XCTestCase {
    /// A terrarium tile (10/512/512) rising 30 m a pixel eastwards: its second channel wraps every
    /// few pixels, where filtering the encoded bytes would step by a whole unit of the first.
    private func writeTile(_ dir: URL) throws {
        var pixels = [UInt8](repeating: 255, count: 256 * 256 * 4)
        for y in 0..<256 {
            for x in 0..<256 {
                let v = 4000 + 30 * x + 32768
                let i = (y * 256 + x) * 4
                pixels[i] = UInt8(v / 256)
                pixels[i + 1] = UInt8(v % 256)
                pixels[i + 2] = 0
            }
        }
        try Data(try PNGEncoder().encode(RGBAImage(width: 256, height: 256, pixels: pixels)))
            .write(to: dir.appendingPathComponent("10-512-512.png"))
    }

    /// The blue channel along the middle row of a 256x16 view at zoom 13 (16 pixels a DEM pixel,
    /// 16 of them about the middle one at 7840 m), colored from red at 7300 m to blue at 8400 m.
    private func row(resampling: String?) throws -> [Int] {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try writeTile(dir)
        let paint = resampling.map { #""resampling": "\#($0)", "# } ?? ""
        let style = """
        {"version": 8, "center": [0.1758, -0.1758], "zoom": 13,
         "sources": {"dem": {"type": "raster-dem", "encoding": "terrarium", "tiles": ["{z}-{x}-{y}.png"],
                             "minzoom": 10, "maxzoom": 10, "tileSize": 256}},
         "layers": [{"id": "c", "type": "color-relief", "source": "dem",
                     "paint": {\(paint)"color-relief-color": ["interpolate", ["linear"], ["elevation"], 7300, "red", 8400, "blue"]}}]}
        """
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 256, height: 16)))
        try s.setStyle(json: style, baseURL: dir.path + "/")
        let image = try s.snapshot().image
        return (0..<image.width).map { Int(image.pixels[(8 * image.width + $0) * 4 + 2]) }
    }

    func testLinearInterpolatesElevationsSmoothly() throws {
        // 30 m a DEM pixel is 7 color steps; spread over its 16 screen pixels, the blue channel
        // climbs by at most 2 from one pixel to the next, and never falls.
        for resampling in [nil, "linear"] {
            let blue = try row(resampling: resampling)
            let steps = zip(blue.dropFirst(), blue).map { $0 - $1 }
            XCTAssertGreaterThan(blue.last! - blue.first!, 80, "\(blue)")
            XCTAssertLessThanOrEqual(steps.max()!, 2, "\(resampling ?? "default"): \(blue)")
            XCTAssertGreaterThanOrEqual(steps.min()!, 0, "\(resampling ?? "default"): \(blue)")
        }
    }

    func testNearestKeepsEachDEMPixel() throws {
        // Runs of 16 screen pixels share one DEM pixel's color, then it steps by about 7.
        let blue = try row(resampling: "nearest")
        var runs: [Int] = [], length = 1
        for (a, b) in zip(blue, blue.dropFirst()) {
            if a == b { length += 1 } else { runs.append(length); length = 1 }
        }
        let steps = zip(blue.dropFirst(), blue).map { $0 - $1 }.filter { $0 != 0 }
        XCTAssertGreaterThanOrEqual(runs.dropFirst().min() ?? 0, 15, "\(blue)")
        XCTAssertGreaterThanOrEqual(steps.min() ?? 0, 5, "\(blue)")
    }
}
