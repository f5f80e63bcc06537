import Foundation
import GLSnap
import GLSnapImage
import XCTest

/// `MapDebugOptions.overdraw`: each fragment a layer draws adds 1/8 (32 of 255) to a pixel's grey
/// over black, as GL JS's `showOverdrawInspector` and MapLibre Native's `MapDebugOptions::Overdraw`.
final class OverdrawInspectorTests: XCTestCase {
    private func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * image.width + x) * 4
        return Array(image.pixels[i..<i + 4])
    }

    /// Two overlapping opaque squares in one fill layer (no outline), at zoom 0 on a 64-px view:
    /// the first spans longitudes and latitudes -10...5, the second -5...10.
    private func style(background: String? = nil) -> String {
        let square = { (a: Int, b: Int) in "[[[\(a), \(a)], [\(b), \(a)], [\(b), \(b)], [\(a), \(b)], [\(a), \(a)]]]" }
        let bg = background.map { #"{"id": "bg", "type": "background", "paint": {"background-color": "\#($0)"}},"# } ?? ""
        return #"""
        {"version": 8, "center": [0, 0], "zoom": 0,
         "sources": {"a": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
           {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": \#(square(-10, 5))}},
           {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": \#(square(-5, 10))}}]}}},
         "layers": [\#(bg)
           {"id": "squares", "type": "fill", "source": "a", "paint": {"fill-color": "red", "fill-antialias": false}}]}
        """#
    }

    private func snapshot(_ json: String, debug: MapDebugOptions) throws -> RGBAImage {
        var options = MapSnapshotOptions(size: Size(width: 64, height: 64))
        options.debug = debug
        let s = Snapshotter(options: options)
        try s.setStyle(json: json)
        return try s.snapshot().image
    }

    func testOverlappingFillsCountTwoFragmentsWhereTheyOverlap() throws {
        let image = try snapshot(style(), debug: .overdraw)
        // Longitude -8 is x 20.6, +8 is x 43.4, 0 is x 32; latitude 0 is y 32.
        XCTAssertEqual(pixel(image, 32, 32), [64, 64, 64, 255], "both squares: 2 x 32")
        XCTAssertEqual(pixel(image, 20, 32), [32, 32, 32, 255], "the first square alone")
        XCTAssertEqual(pixel(image, 44, 32), [32, 32, 32, 255], "the second square alone")
        XCTAssertEqual(pixel(image, 2, 2), [0, 0, 0, 255], "nothing drawn: the opaque black clear")
    }

    func testBackgroundIsCountedAsALayerNotTheClearColor() throws {
        let image = try snapshot(style(background: "white"), debug: .overdraw)
        XCTAssertEqual(pixel(image, 2, 2), [32, 32, 32, 255], "the background's one fragment")
        XCTAssertEqual(pixel(image, 20, 32), [64, 64, 64, 255])
        XCTAssertEqual(pixel(image, 32, 32), [96, 96, 96, 255])
    }

    func testWithoutTheOptionTheColorsAreDrawn() throws {
        let image = try snapshot(style(background: "white"), debug: [])
        XCTAssertEqual(pixel(image, 2, 2), [255, 255, 255, 255])
        XCTAssertEqual(pixel(image, 32, 32), [255, 0, 0, 255])
    }

    /// `--debug overdraw` (the suites' `showOverdrawInspector`: DebugDrawingTests).
    func testDebugListNamesTheInspector() throws {
        XCTAssertEqual(try MapDebugOptions.parse("tiles,overdraw").get(), [.tileBorders, .overdraw])
    }
}
