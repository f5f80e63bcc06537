import Foundation
import XCTest
@testable import GLSnap
import GLSnapImage

/// Canvas sources: a picture the caller gives (`setCanvas`) pinned to four coordinates, read at
/// each snapshot while the source plays, kept while it is paused (GL JS's CanvasSource).
final class CanvasSourceTests: XCTestCase {
    private static func style(animate: Bool? = nil, canvas: String = "c") -> String {
        let a = animate.map { #", "animate": \#($0)"# } ?? ""
        return """
            {"version": 8, "center": [0, 0], "zoom": 2,
             "sources": {"cv": {"type": "canvas", "canvas": "\(canvas)"\(a),
                                "coordinates": [[-20, 20], [20, 20], [20, -20], [-20, -20]]}},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                        {"id": "r", "type": "raster", "source": "cv", "paint": {"raster-fade-duration": 0}}]}
            """
    }

    private static func solid(_ rgba: [UInt8]) -> RGBAImage {
        RGBAImage(width: 4, height: 4, pixels: Array([[UInt8]](repeating: rgba, count: 16).joined()))
    }
    private static let red: [UInt8] = [255, 0, 0, 255], blue: [UInt8] = [0, 0, 255, 255], green: [UInt8] = [0, 255, 0, 255]

    private func center(_ s: Snapshotter) throws -> [UInt8] {
        let image = try s.snapshot().image
        let i = (32 * image.width + 32) * 4
        return Array(image.pixels[i..<(i + 4)])
    }

    private func snapshotter(_ style: String) throws -> Snapshotter {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 64, height: 64)))
        try s.setStyle(json: style)
        return s
    }

    func testAPlayingSourceShowsTheCanvasAsItIsAndAPausedOneKeepsWhatItShowed() throws {
        let s = try snapshotter(CanvasSourceTests.style())
        s.setCanvas("c", image: CanvasSourceTests.solid(CanvasSourceTests.red))
        XCTAssertEqual(try center(s), CanvasSourceTests.red)
        s.setCanvas("c", image: CanvasSourceTests.solid(CanvasSourceTests.blue))
        XCTAssertEqual(try center(s), CanvasSourceTests.blue, "animate (the default): read at each snapshot")
        try s.pauseCanvasSource("cv")
        s.setCanvas("c", image: CanvasSourceTests.solid(CanvasSourceTests.green))
        XCTAssertEqual(try center(s), CanvasSourceTests.blue, "paused: what it showed")
        try s.playCanvasSource("cv")
        XCTAssertEqual(try center(s), CanvasSourceTests.green)
    }

    /// GL JS's harness (updateFakeCanvas): play, draw into the canvas, pause, draw again: the
    /// first drawing shows, though no snapshot came between.
    func testPauseKeepsWhatThePlayingSourceShowsNow() throws {
        let s = try snapshotter(CanvasSourceTests.style(animate: false))
        s.setCanvas("c", image: CanvasSourceTests.solid(CanvasSourceTests.red))
        XCTAssertEqual(try center(s), CanvasSourceTests.red)
        s.setCanvas("c", image: CanvasSourceTests.solid(CanvasSourceTests.blue))
        XCTAssertEqual(try center(s), CanvasSourceTests.red, "animate false: read once")
        try s.playCanvasSource("cv")
        s.setCanvas("c", image: CanvasSourceTests.solid(CanvasSourceTests.green))
        try s.pauseCanvasSource("cv")
        s.setCanvas("c", image: CanvasSourceTests.solid(CanvasSourceTests.blue))
        XCTAssertEqual(try center(s), CanvasSourceTests.green)
    }

    func testAMissingCanvasIsAWarningAndNotASourceIsAnError() throws {
        let s = try snapshotter(CanvasSourceTests.style(canvas: "nope"))
        let snapshot = try s.snapshot()
        XCTAssertTrue(snapshot.warnings.contains { $0.contains(#"source "cv": no canvas "nope" was set"#) }, "\(snapshot.warnings)")
        let i = (32 * snapshot.image.width + 32) * 4
        XCTAssertEqual(Array(snapshot.image.pixels[i..<(i + 4)]), [255, 255, 255, 255])
        XCTAssertThrowsError(try s.pauseCanvasSource("bg")) { XCTAssertTrue("\($0)".contains(#"no canvas source "bg""#), "\($0)") }
    }
}
