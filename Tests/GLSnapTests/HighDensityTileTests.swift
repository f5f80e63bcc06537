import Foundation
import GLSnap
import GLSnapImage
import XCTest

/// `{ratio}` in a raster tile URL: `@2x` tiles at pixel ratio 2 and more, drawn at the tile's scale.
final class HighDensityTileTests: XCTestCase {
    /// A `dim`-pixel square image whose quadrants are red, blue (top) and green, white (bottom).
    private func quadrants(_ dim: Int) -> RGBAImage {
        var px = [UInt8](repeating: 255, count: dim * dim * 4)
        let colors: [[UInt8]] = [[255, 0, 0], [0, 0, 255], [0, 255, 0], [255, 255, 255]]
        for y in 0..<dim {
            for x in 0..<dim {
                let c = colors[(y >= dim / 2 ? 2 : 0) + (x >= dim / 2 ? 1 : 0)]
                px.replaceSubrange((y * dim + x) * 4..<(y * dim + x) * 4 + 3, with: c)
            }
        }
        return RGBAImage(width: dim, height: dim, pixels: px)
    }

    private func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
        Array(image.pixels[(y * image.width + x) * 4..<(y * image.width + x) * 4 + 4])
    }

    func testRatioTwoFetchesAt2xTilesDrawnAtTheTileScale() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The 1x tile is one gray; the @2x tile (512 pixels for a 256-pixel tile) has four quadrants.
        let gray = RGBAImage(width: 256, height: 256, pixels: [UInt8](repeating: 128, count: 256 * 256 * 4).enumerated().map { $0.offset % 4 == 3 ? 255 : $0.element })
        try Data(PNGEncoder().encode(gray)).write(to: dir.appendingPathComponent("0-0-0.png"))
        try Data(PNGEncoder().encode(quadrants(512))).write(to: dir.appendingPathComponent("0-0-0@2x.png"))
        let style = #"""
        {"version": 8, "sources": {"r": {"type": "raster", "tiles": ["{z}-{x}-{y}{ratio}.png"], "maxzoom": 0, "tileSize": 256}},
         "layers": [{"id": "r", "type": "raster", "source": "r", "paint": {"raster-fade-duration": 0}}]}
        """#
        // 512 points at zoom 0 show the whole world: tile 0/0/0 fills the image.
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 512, height: 512)))
        try s.setStyle(json: style, baseURL: dir.path + "/")
        let camera = CameraOptions(center: Coordinate(latitude: 0, longitude: 0), zoom: 0)
        for ratio in [1.0, 1.5] {
            let one = try s.snapshot(camera: camera, pixelRatio: ratio).image
            XCTAssertEqual(pixel(one, one.width / 4, one.height / 4), [128, 128, 128, 255], "ratio \(ratio) draws the 1x tile")
        }
        // Same snapshotter, same caches: ratio 2 draws the @2x tile, its quadrants in the image's quadrants.
        let two = try s.snapshot(camera: camera, pixelRatio: 2).image
        XCTAssertEqual(two.width, 1024)
        XCTAssertEqual(pixel(two, 256, 256), [255, 0, 0, 255])
        XCTAssertEqual(pixel(two, 768, 256), [0, 0, 255, 255])
        XCTAssertEqual(pixel(two, 256, 768), [0, 255, 0, 255])
        XCTAssertEqual(pixel(two, 768, 768), [255, 255, 255, 255])
        // The quadrant edges fall on the image's middle (the 512-pixel tile is not drawn at twice the size).
        XCTAssertEqual(pixel(two, 508, 256), [255, 0, 0, 255])
        XCTAssertEqual(pixel(two, 516, 256), [0, 0, 255, 255])
        let again = try s.snapshot(camera: camera, pixelRatio: 1).image
        XCTAssertEqual(pixel(again, 128, 128), [128, 128, 128, 255], "the caches keep the two sets apart")
    }

    func testBroken2xTileNamesItsFile() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("not an image".utf8).write(to: dir.appendingPathComponent("0-0-0@2x.png"))
        let style = #"""
        {"version": 8, "sources": {"r": {"type": "raster", "tiles": ["{z}-{x}-{y}{ratio}.png"], "maxzoom": 0, "tileSize": 256}},
         "layers": [{"id": "r", "type": "raster", "source": "r"}]}
        """#
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 64, height: 64), pixelRatio: 2))
        try s.setStyle(json: style, baseURL: dir.path + "/")
        XCTAssertThrowsError(try s.snapshot(camera: CameraOptions(center: Coordinate(latitude: 0, longitude: 0), zoom: 0))) { error in
            XCTAssertTrue("\(error)".hasPrefix("source \"r\": tile 0/0/0 (\(dir.path)/0-0-0@2x.png): "), "\(error)")
        }
    }
}
