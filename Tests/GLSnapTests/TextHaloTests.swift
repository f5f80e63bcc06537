import Foundation
import XCTest
import GLSnap
import GLSnapImage

/// A text halo is a ring around the glyphs, not a plate under them: transparent or translucent
/// text shows the background through its strokes, as in MapLibre GL JS (text-color/transparent).
final class TextHaloTests: XCTestCase {
    /// One "I" (Noto Sans Bold, 64 px) in the middle of a white 128 × 96 image, with a black halo.
    private func render(textColor: String) throws -> RGBAImage {
        let glyphs = TestPaths.root.appendingPathComponent("examples/chicago/glyphs").path + "/{fontstack}/{range}.pbf"
        let style = #"""
        {"version": 8, "glyphs": "\#(glyphs)",
         "sources": {"p": {"type": "geojson", "data": {"type": "Feature", "properties": {},
                     "geometry": {"type": "Point", "coordinates": [0, 0]}}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                    {"id": "t", "type": "symbol", "source": "p",
                     "layout": {"text-field": "I", "text-font": ["Noto Sans Bold"], "text-size": 64},
                     "paint": {"text-color": "\#(textColor)", "text-halo-color": "black", "text-halo-width": 2}}]}
        """#
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 128, height: 96)))
        try s.setStyle(json: style, baseURL: try TestPaths.temporaryDirectory().path)
        s.setCamera(CameraOptions(center: Coordinate(latitude: 0, longitude: 0), zoom: 1))
        return try s.snapshot().image
    }

    /// The red channel at (x, y).
    private func red(_ image: RGBAImage, _ x: Int, _ y: Int) -> UInt8 { image.pixels[(y * image.width + x) * 4] }

    func testTransparentTextShowsOnlyItsHaloRing() throws {
        // Opaque red text: the middle of the I's stem is the text's colour (the stem is there).
        let red = try render(textColor: "red")
        let stem = (x: 64, y: red.height / 2 - 6)
        XCTAssertGreaterThan(self.red(red, stem.x, stem.y), 200)
        XCTAssertLessThan(red.pixels[(stem.y * red.width + stem.x) * 4 + 1], 60, "the stem is red")
        // Transparent text: the stem shows the white background, not the black halo under it;
        // the ring around the stem is black.
        let clear = try render(textColor: "transparent")
        XCTAssertGreaterThan(self.red(clear, stem.x, stem.y), 200, "the halo must not fill the glyph")
        let row = (0..<clear.width).map { self.red(clear, $0, stem.y) }
        XCTAssertLessThan(row.min() ?? 255, 40, "the halo ring is drawn: \(row)")
    }
}
