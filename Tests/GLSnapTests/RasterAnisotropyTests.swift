import Foundation
import GLSnap
import GLSnapImage
import XCTest

/// Past 20 degrees of pitch GL JS samples raster tiles anisotropically: far off, where the ground
/// is squeezed much more along the view than across it, detail across the view stays sharp
/// instead of blurring into the mipmap level the squeeze asks.
final class RasterAnisotropyTests: XCTestCase {
    /// Black and white stripes running north-south, `period` pixels wide in all.
    private func stripes(_ dim: Int, period: Int) -> RGBAImage {
        var px = [UInt8](repeating: 255, count: dim * dim * 4)
        for y in 0..<dim {
            for x in 0..<dim where x % period < period / 2 {
                px.replaceSubrange((y * dim + x) * 4..<(y * dim + x) * 4 + 3, with: [0, 0, 0])
            }
        }
        return RGBAImage(width: dim, height: dim, pixels: px)
    }

    /// The largest difference of red between neighbors in a row's middle half.
    private func contrast(_ image: RGBAImage, row y: Int) -> Int {
        var best = 0
        for x in (image.width / 4)..<(image.width * 3 / 4) {
            let a = Int(image.pixels[(y * image.width + x) * 4]), b = Int(image.pixels[(y * image.width + x + 1) * 4])
            best = max(best, abs(a - b))
        }
        return best
    }

    private func snapshot(pitch: Double, dir: URL) throws -> RGBAImage {
        let style = #"""
        {"version": 8, "sources": {"r": {"type": "raster", "tiles": ["stripes.png"], "tileSize": 256}},
         "layers": [{"id": "r", "type": "raster", "source": "r", "paint": {"raster-fade-duration": 0}}]}
        """#
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 256, height: 256)))
        try s.setStyle(json: style, baseURL: dir.path + "/")
        return try s.snapshot(camera: CameraOptions(center: Coordinate(latitude: 0, longitude: 0), zoom: 4, pitch: pitch)).image
    }

    func testFarStripesStaySharpPastTwentyDegreesOfPitch() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(PNGEncoder().encode(stripes(256, period: 8))).write(to: dir.appendingPathComponent("stripes.png"))
        let pitched = try snapshot(pitch: 60, dir: dir)
        // Near the top the ground is squeezed several times more along the view than across it.
        let far = contrast(pitched, row: 12)
        XCTAssertGreaterThan(far, 60, "the stripes far off keep their contrast")
        // Unpitched, the tile is drawn at its size: sharp either way (no anisotropy is asked).
        XCTAssertGreaterThan(contrast(try snapshot(pitch: 0, dir: dir), row: 12), 200)
    }
}
