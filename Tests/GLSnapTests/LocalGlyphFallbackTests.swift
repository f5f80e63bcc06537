import Foundation
import XCTest
import GLSnap
import GLSnapImage

/// A style whose glyph URL lacks the needed range still draws its labels, from local fonts.
final class LocalGlyphFallbackTests: XCTestCase {
    private func render(glyphs: String) throws -> RGBAImage {
        let style = #"""
        {"version": 8, "glyphs": "\#(glyphs)",
         "sources": {"p": {"type": "geojson", "data": {"type": "Feature", "properties": {},
                     "geometry": {"type": "Point", "coordinates": [0, 0]}}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                    {"id": "t", "type": "symbol", "source": "p",
                     "layout": {"text-field": "HHHH", "text-font": ["Missing Font Regular"], "text-size": 24}}]}
        """#
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 128, height: 64)))
        try s.setStyle(json: style, baseURL: try TestPaths.temporaryDirectory().path)
        s.setCamera(CameraOptions(center: Coordinate(latitude: 0, longitude: 0), zoom: 1))
        return try s.snapshot().image
    }

    private func darkPixels(_ image: RGBAImage) -> Int {
        stride(from: 0, to: image.pixels.count, by: 4).filter { image.pixels[$0] < 100 }.count
    }

    func testMissingRangeFallsBackToLocalFonts() throws {
        guard LocalGlyphRasterizer().glyph(font: "sans-serif", codepoint: 0x48) != nil else {
            throw XCTSkip("no local font installed (install fonts-dejavu-core)")
        }
        let image = try render(glyphs: "empty-folder/{fontstack}/{range}.pbf")
        // Four 24 px capitals: well over a hundred dark pixels, all near the middle row.
        let dark = darkPixels(image)
        if let out = ProcessInfo.processInfo.environment["GLSNAP_DUMP"] { try Data(PNGEncoder().encode(image)).write(to: URL(fileURLWithPath: out)) }
        XCTAssertGreaterThan(dark, 100)
        for y in [0, 1, 62, 63] {
            for x in 0..<128 { XCTAssertGreaterThan(image.pixels[(y * 128 + x) * 4], 200, "label pixel at the edge (\(x), \(y))") }
        }
    }
}
