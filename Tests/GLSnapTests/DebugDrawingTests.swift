import Foundation
import GLSnap
import GLSnapConformance
import GLSnapImage
import GLSnapStyle
import XCTest

/// `MapSnapshotOptions.debug`: collision boxes and tile borders drawn as GL JS draws them, the
/// render suite's metadata flags, and `glsnap render --debug`.
final class DebugDrawingTests: XCTestCase {
    private func solid(_ side: Int, _ rgba: [UInt8]) -> RGBAImage {
        RGBAImage(width: side, height: side, pixels: Array([[UInt8]](repeating: rgba, count: side * side).joined()))
    }

    private func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * image.width + x) * 4
        return Array(image.pixels[i..<i + 3])
    }

    /// Two icons at the center of a 64-px view: the small one (placed first, above) fits; the
    /// big one collides with it. Icon boxes carry icon-padding 2.
    private let iconStyle = #"""
    {"version": 8, "center": [0, 0], "zoom": 0,
     "sources": {"a": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
     "layers": [
       {"id": "bg", "type": "background", "paint": {"background-color": "white"}},
       {"id": "big", "type": "symbol", "source": "a", "layout": {"icon-image": "big"}},
       {"id": "small", "type": "symbol", "source": "a", "layout": {"icon-image": "small"}}]}
    """#

    private func iconSnapshotter() throws -> Snapshotter {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 64, height: 64)))
        try s.addImage("big", StyleImage(image: solid(20, [0, 255, 0, 255])))
        try s.addImage("small", StyleImage(image: solid(4, [0, 0, 0, 255])))
        try s.setStyle(json: iconStyle)
        return s
    }

    func testCollisionBoxesArePlacedBlueAndCollidedRed() throws {
        let s = try iconSnapshotter()
        var image = try s.snapshot().image
        XCTAssertEqual(pixel(image, 20, 32), [255, 255, 255], "no boxes without the option")
        XCTAssertEqual(pixel(image, 28, 32), [255, 255, 255])

        s.options.debug = .collision
        image = try s.snapshot().image
        // The small icon's box, 28...36 (4 px and 2 of padding each side): placed, GL JS's
        // (0, 0, 0.5, 0.25) premultiplied over white.
        XCTAssertEqual(pixel(image, 28, 32), [191, 191, 255], "placed box edge")
        XCTAssertEqual(pixel(image, 32, 28), [191, 191, 255])
        // The big icon's box, 20...44: not placed, (0.5, 0, 0, 0.5) over white.
        XCTAssertEqual(pixel(image, 20, 32), [255, 128, 128], "collided box edge")
        XCTAssertEqual(pixel(image, 32, 20), [255, 128, 128])
        // Inside the boxes nothing changes: the small icon itself, the white between.
        XCTAssertEqual(pixel(image, 32, 32), [0, 0, 0])
        XCTAssertEqual(pixel(image, 24, 32), [255, 255, 255])
    }

    /// GL JS's collision_box shader writes (0, 0, 1, 0.5) * 0.5 for a placed box and blends it as
    /// premultiplied (ONE, ONE_MINUS_SRC_ALPHA): blue 0.5 with alpha 0.25, so over grey #ccc the
    /// blue saturates (0.5 + 0.8 * 0.75) and over black it is half (128), not a quarter.
    func testPlacedBoxBlueIsTheShadersHalfNotAQuarter() throws {
        for (background, expected) in [("#cccccc", [UInt8](arrayLiteral: 153, 153, 255)), ("black", [0, 0, 128])] {
            let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 64, height: 64)))
            try s.addImage("big", StyleImage(image: solid(20, [0, 255, 0, 255])))
            try s.addImage("small", StyleImage(image: solid(4, [0, 0, 0, 255])))
            try s.setStyle(json: iconStyle.replacingOccurrences(of: #""background-color": "white""#, with: #""background-color": "\#(background)""#))
            s.options.debug = .collision
            let image = try s.snapshot().image
            XCTAssertEqual(pixel(image, 28, 32), expected, "placed box edge over \(background)")
            // The collided box: (0.5, 0, 0, 0.5) over the background.
            let red = background == "black" ? [UInt8](arrayLiteral: 128, 0, 0) : [230, 102, 102]
            XCTAssertEqual(pixel(image, 20, 32), red, "collided box edge over \(background)")
        }
    }

    func testTileBordersAreRedLinesBetweenTiles() throws {
        // At zoom 1 the four tiles meet at the center of a 64-px view.
        let style = #"""
        {"version": 8, "center": [0, 0], "zoom": 1,
         "sources": {"a": {"type": "geojson", "data": {"type": "Point", "coordinates": [50, 50]}}},
         "layers": [
           {"id": "bg", "type": "background", "paint": {"background-color": "white"}},
           {"id": "c", "type": "circle", "source": "a"}]}
        """#
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 64, height: 64)))
        try s.setStyle(json: style)
        var image = try s.snapshot().image
        XCTAssertEqual(pixel(image, 32, 10), [255, 255, 255])
        s.options.debug = .tileBorders
        image = try s.snapshot().image
        XCTAssertEqual(pixel(image, 32, 10), [255, 0, 0], "the border between x tiles")
        XCTAssertEqual(pixel(image, 10, 32), [255, 0, 0], "the border between y tiles")
        XCTAssertEqual(pixel(image, 10, 10), [255, 255, 255])
    }

    func testDebugOptionNamesParseAndBadOnesAreNamed() throws {
        XCTAssertEqual(try MapDebugOptions.parse("collision,tiles").get(), [.collision, .tileBorders])
        XCTAssertEqual(try MapDebugOptions.parse("tiles").get(), .tileBorders)
        switch MapDebugOptions.parse("collision,overdraws") {
        case .success: XCTFail("an unknown name is refused")
        case .failure(let e): XCTAssertTrue(e.description.contains("'overdraws'"), e.description)
        }
    }

    func testRenderCaseFlagsBecomeDebugOptions() throws {
        let style = try JSON.parse(#"{"metadata": {"test": {"collisionDebug": true, "debug": true}}}"#)
        let spec = RenderCaseSpec(style: style)
        XCTAssertEqual(spec.debug, [.collision, .tileBorders])
        XCTAssertTrue(spec.unsupported.isEmpty, "\(spec.unsupported)")
        let overdraw = RenderCaseSpec(style: try JSON.parse(#"{"metadata": {"test": {"showOverdrawInspector": true}}}"#))
        XCTAssertEqual(overdraw.debug, [.overdraw])
        XCTAssertTrue(overdraw.unsupported.isEmpty, "the overdraw inspector is drawn, not refused: \(overdraw.unsupported)")
    }

    func testRenderCommandDrawsDebugAndRefusesUnknownNames() throws {
        let glsnap = try TestPaths.executable("glsnap")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("glsnap-debug-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let style = dir.appendingPathComponent("style.json").path
        try #"""
        {"version": 8, "center": [0, 0], "zoom": 1, "sources": {"a": {"type": "geojson", "data": {"type": "Point", "coordinates": [50, 50]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}}, {"id": "c", "type": "circle", "source": "a"}]}
        """#.write(toFile: style, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("map.png").path
        let r = try runProcess(glsnap, ["render", "--style", style, "--size", "64x64", "--debug", "tiles", "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        let image = try PNGDecoder().decode(Array(try Data(contentsOf: URL(fileURLWithPath: out))))
        XCTAssertEqual(pixel(image, 32, 10), [255, 0, 0])
        let bad = try runProcess(glsnap, ["render", "--style", style, "--debug", "tile", "-o", out])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("unknown debug option 'tile'"), bad.stderr)
    }
}

/// icon-padding with four values, seen through the collision box debug drawing.
final class IconPaddingDebugTests: XCTestCase {
    func testFourValueIconPaddingGrowsEachSideByItsOwn() throws {
        let style = #"""
        {"version": 8, "center": [0, 0], "zoom": 0,
         "sources": {"a": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
         "layers": [
           {"id": "bg", "type": "background", "paint": {"background-color": "white"}},
           {"id": "i", "type": "symbol", "source": "a", "layout": {"icon-image": "dot", "icon-padding": [2, 2, 2, 10]}}]}
        """#
        var options = MapSnapshotOptions(size: Size(width: 64, height: 64))
        options.debug = .collision
        let s = Snapshotter(options: options)
        try s.addImage("dot", StyleImage(image: RGBAImage(width: 4, height: 4, pixels: [UInt8](repeating: 0, count: 64).enumerated().map { $0.offset % 4 == 3 ? 255 : 0 })))
        try s.setStyle(json: style)
        let image = try s.snapshot().image
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { let i = (y * image.width + x) * 4; return Array(image.pixels[i..<i + 3]) }
        // The 4-px icon spans 30...34: its box 20 (10 to the left) to 36 (2 to the right).
        XCTAssertEqual(pixel(20, 32), [191, 191, 255], "left edge, 10 px out")
        XCTAssertEqual(pixel(28, 32), [255, 255, 255], "not 2 px out on the left")
        XCTAssertEqual(pixel(36, 32), [191, 191, 255], "right edge, 2 px out")
    }
}
