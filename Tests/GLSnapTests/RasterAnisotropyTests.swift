import Foundation
import XCTest
import GLSnap
import GLSnapImage

/// Raster tiles seen at a slant: past 20 degrees of pitch GL JS filters them anisotropically, so
/// detail across the view survives where plain mipmapping (chosen by the squeezed direction) blurs it.
final class RasterAnisotropyTests: XCTestCase {
    /// The contrast (max - min of the red channel) along the row at height `row` of a 256x256 view
    /// of tile 2/1/1: stripes 1 texel wide running north-south, at `pitch`.
    private func contrast(pitch: Double, row: Int) throws -> Int {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var pixels = [UInt8](repeating: 255, count: 256 * 256 * 4)
        for y in 0..<256 {
            for x in 0..<256 where x % 2 == 0 {
                let i = (y * 256 + x) * 4
                pixels[i] = 0; pixels[i + 1] = 0; pixels[i + 2] = 0
            }
        }
        try Data(try PNGEncoder().encode(RGBAImage(width: 256, height: 256, pixels: pixels)))
            .write(to: dir.appendingPathComponent("2-1-1.png"))
        let style = """
        {"version": 8, "center": [-45, 40.98], "zoom": 2, "pitch": \(pitch),
         "sources": {"r": {"type": "raster", "tiles": ["{z}-{x}-{y}.png"], "minzoom": 2, "maxzoom": 2, "tileSize": 256}},
         "layers": [{"id": "r", "type": "raster", "source": "r", "paint": {"raster-fade-duration": 0}}]}
        """
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 256, height: 256)))
        try s.setStyle(json: style, baseURL: dir.path + "/")
        let image = try s.snapshot().image
        let reds = (96..<160).map { Int(image.pixels[(row * image.width + $0) * 4]) }
        return reds.max()! - reds.min()!
    }

    func testPitchedRasterKeepsDetailAcrossTheView() throws {
        // Far up the view the tile is squeezed north-south several times more than east-west:
        // plain mipmaps (chosen by the squeezed direction) average the stripes to flat gray there,
        // anisotropic filtering keeps them visible (llvmpipe: about half the contrast).
        XCTAssertGreaterThan(try contrast(pitch: 60, row: 64), 50)
    }
}
