import GLSnap
import GLSnapImage
import GLSnapStyle
import XCTest

/// `addImage`/`removeImage` (icons and patterns named like sprite images) and
/// `MapSnapshotOptions.crossSourceCollisions`.
final class StyleImageTests: XCTestCase {
    private func solid(_ side: Int, _ rgba: [UInt8]) -> RGBAImage {
        RGBAImage(width: side, height: side, pixels: Array([[UInt8]](repeating: rgba, count: side * side).joined()))
    }

    private func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * image.width + x) * 4
        return Array(image.pixels[i..<i + 3])
    }

    /// Two point sources at the same place: a large green icon in the lower layer, a small blue
    /// one in the upper layer (placed first).
    private let iconStyle = #"""
    {"version": 8, "center": [0, 0], "zoom": 0,
     "sources": {
       "a": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}},
       "b": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
     "layers": [
       {"id": "bg", "type": "background", "paint": {"background-color": "red"}},
       {"id": "big", "type": "symbol", "source": "a", "layout": {"icon-image": "big"}},
       {"id": "small", "type": "symbol", "source": "b", "layout": {"icon-image": "small"}}]}
    """#

    func testAddedImagesDrawAsIconsAndCollideBySource() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 64, height: 64)))
        // Added before the style: kept by the snapshotter across setStyle.
        try s.addImage("big", StyleImage(image: solid(20, [0, 255, 0, 255])))
        try s.setStyle(json: iconStyle)
        try s.addImage("small", StyleImage(image: solid(4, [0, 0, 255, 255])))
        XCTAssertEqual(Set(s.styleImages.keys), ["big", "small"])
        var image = try s.snapshot().image
        XCTAssertEqual(pixel(image, 32, 32), [0, 0, 255], "the small icon is drawn")
        XCTAssertEqual(pixel(image, 25, 32), [255, 0, 0], "the big icon collides with the small one")

        s.options.crossSourceCollisions = false
        image = try s.snapshot().image
        XCTAssertEqual(pixel(image, 32, 32), [0, 0, 255])
        XCTAssertEqual(pixel(image, 25, 32), [0, 255, 0], "sources do not collide with each other")
        XCTAssertEqual(pixel(image, 10, 32), [255, 0, 0])

        // A 2x image is drawn at half its pixel size: 10 CSS pixels wide.
        try s.addImage("big", StyleImage(image: solid(20, [0, 255, 0, 255]), pixelRatio: 2))
        image = try s.snapshot().image
        XCTAssertEqual(pixel(image, 28, 32), [0, 255, 0])
        XCTAssertEqual(pixel(image, 25, 32), [255, 0, 0])

        try s.removeImage("small")
        try s.removeImage("not there")
        image = try s.snapshot().image
        XCTAssertEqual(pixel(image, 32, 32), [0, 255, 0], "the removed icon is gone")
    }

    func testSDFImageIsTintedByIconColor() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 32, height: 32)))
        try s.setStyle(json: #"""
        {"version": 8, "center": [0, 0], "zoom": 0,
         "sources": {"a": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                    {"id": "i", "type": "symbol", "source": "a", "layout": {"icon-image": "dot"}, "paint": {"icon-color": "blue"}}]}
        """#)
        // Black pixels, the distance in the alpha channel: opaque means inside.
        try s.addImage("dot", StyleImage(image: solid(16, [0, 0, 0, 255]), sdf: true))
        XCTAssertEqual(pixel(try s.snapshot().image, 16, 16), [0, 0, 255])
    }

    func testAddedImageFillsPatterns() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 16, height: 16)))
        try s.setStyle(json: #"""
        {"version": 8, "center": [0, 0], "zoom": 0, "sources": {},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-pattern": "tile"}}]}
        """#)
        try s.addImage("tile", StyleImage(image: solid(4, [0, 255, 0, 255])))
        XCTAssertEqual(pixel(try s.snapshot().image, 8, 8), [0, 255, 0])
    }

    /// Symbol layers with the same source, filter and layout share their placement (one bucket in
    /// MapLibre): the lower one is not hidden by the upper one's labels.
    func testLayersWithTheSameLayoutSharePlacement() throws {
        func style(_ lowerLayout: String) -> String {
            #"{"version": 8, "center": [0, 0], "zoom": 0, "sources": {"a": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}}, {"id": "lower", "type": "symbol", "source": "a", "layout": "#
                + lowerLayout + #"}, {"id": "upper", "type": "symbol", "source": "a", "layout": {"icon-image": "dot"}, "paint": {"icon-opacity": 0}}]}"#
        }
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 32, height: 32)))
        try s.addImage("dot", StyleImage(image: solid(8, [0, 0, 255, 255])))
        try s.setStyle(json: style(#"{"icon-image": "dot"}"#))
        XCTAssertEqual(pixel(try s.snapshot().image, 16, 16), [0, 0, 255], "same layout: both layers show the icon")
        try s.setStyle(json: style(#"{"icon-image": "dot", "icon-padding": 3}"#))
        XCTAssertEqual(pixel(try s.snapshot().image, 16, 16), [255, 255, 255], "another layout: the upper (invisible) icon hides it")
    }

    func testBadImagesAreRefused() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 16, height: 16)))
        var broken = solid(2, [0, 0, 0, 255])
        broken.pixels = [0, 0, 0]
        XCTAssertThrowsError(try s.addImage("x", StyleImage(image: broken))) { error in
            XCTAssertTrue("\(error)".contains("image 'x' is 2x2 with 3 bytes"), "\(error)")
        }
        XCTAssertThrowsError(try s.addImage("x", StyleImage(image: solid(2, [0, 0, 0, 255]), pixelRatio: 0)))
        XCTAssertTrue(s.styleImages.isEmpty)
    }
}
