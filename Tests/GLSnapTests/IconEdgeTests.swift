import Foundation
import GLSnap
import GLSnapImage
import XCTest

/// Icons off the pixel grid, drawn as GL JS draws them: an icon's quad reaches one texel past its
/// image (the atlas's empty border), so the pixel its edge partly covers is lit, not clipped.
final class IconEdgeTests: XCTestCase {
    private func solid(_ side: Int, _ rgba: [UInt8]) -> RGBAImage {
        RGBAImage(width: side, height: side, pixels: Array([[UInt8]](repeating: rgba, count: side * side).joined()))
    }

    private func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * image.width + x) * 4
        return Array(image.pixels[i..<i + 3])
    }

    /// One icon at x = 32.6 of a 64-px view (zoom 0: 512 px a world, so 0.6 px is 0.421875°).
    private func snapshot(_ image: StyleImage) throws -> RGBAImage {
        let style = #"""
        {"version": 8, "center": [0, 0], "zoom": 0,
         "sources": {"a": {"type": "geojson", "data": {"type": "Point", "coordinates": [0.421875, 0]}}},
         "layers": [
           {"id": "bg", "type": "background", "paint": {"background-color": "white"}},
           {"id": "i", "type": "symbol", "source": "a", "layout": {"icon-image": "i", "icon-padding": 2}}]}
        """#
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 64, height: 64)))
        try s.addImage("i", image)
        try s.setStyle(json: style)
        return try s.snapshot().image
    }

    /// A 2x image drawn at ratio 1 (linear filtering) spans 30.6...34.6: pixel 30's center lies
    /// just outside, but GL JS's padded quad reaches it and the filter mixes in the edge texel.
    func testResampledIconLightsThePixelItsEdgePartlyCovers() throws {
        let image = try snapshot(StyleImage(image: solid(8, [0, 0, 0, 255]), pixelRatio: 2))
        let edge = pixel(image, 30, 32)
        XCTAssertLessThan(edge[0], 230, "the edge pixel is lit faintly, not clipped")
        XCTAssertGreaterThan(edge[0], 100, "only faintly: the quad's border texel is empty")
        XCTAssertEqual(pixel(image, 32, 32), [0, 0, 0])
        XCTAssertEqual(pixel(image, 29, 32), [255, 255, 255], "nothing past the border texel")
        XCTAssertEqual(pixel(image, 35, 32), [255, 255, 255])
    }
}
