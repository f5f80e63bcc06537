import Foundation
import XCTest
@testable import GLSnap
import GLSnapImage

/// The spec's `resampling` (26.x) on raster layers wins over `raster-resampling`.
final class ResamplingTests: XCTestCase {
    /// A 2x2 raster tile (red west, blue east) as the only tile, drawn over 256x256 at zoom 0
    /// (each texel covers 128 pixels).
    private func pixel(paint: String, x: Int) throws -> [Int] {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let red: [UInt8] = [255, 0, 0, 255], blue: [UInt8] = [0, 0, 255, 255]
        try Data(try PNGEncoder().encode(RGBAImage(width: 2, height: 2, pixels: red + blue + red + blue)))
            .write(to: dir.appendingPathComponent("0-0-0.png"))
        let style = """
        {"version": 8, "center": [0, 0], "zoom": 0,
         "sources": {"r": {"type": "raster", "tiles": ["{z}-{x}-{y}.png"], "maxzoom": 0, "tileSize": 256}},
         "layers": [{"id": "r", "type": "raster", "source": "r", "paint": {\(paint)}}]}
        """
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 256, height: 256)))
        try s.setStyle(json: style, baseURL: dir.path + "/")
        let image = try s.snapshot().image
        let i = (128 * image.width + x) * 4
        return image.pixels[i..<(i + 4)].map(Int.init)
    }

    func testResamplingNearestWinsOverRasterResampling() throws {
        // 8 px west of the texels' edge: linear blends in some blue, nearest keeps it red.
        XCTAssertGreaterThan(try pixel(paint: #""raster-resampling": "linear""#, x: 120)[2], 20)
        XCTAssertEqual(try pixel(paint: #""raster-resampling": "linear", "resampling": "nearest""#, x: 120), [255, 0, 0, 255])
        XCTAssertGreaterThan(try pixel(paint: #""raster-resampling": "nearest", "resampling": "linear""#, x: 120)[2], 20)
    }
}
