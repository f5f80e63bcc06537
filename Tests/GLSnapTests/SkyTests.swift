import Foundation
import GLSnap
import GLSnapConformance
import GLSnapImage
import GLSnapStyle
import XCTest

/// The style's sky above the horizon of a steep view, the ground under it, and the raised camera
/// (`CameraOptions.centerAltitude`, pitch past 90) through `Snapshotter`, the CLI and the
/// conformance runner's `setCenterElevation`.
final class SkyTests: XCTestCase {
    private static let ground = ##"{"id": "bg", "type": "background", "paint": {"background-color": "#ccaa83"}}"##
    private func style(sky: String?, pitch: Double = 85, roll: Double = 0) -> String {
        ##"{"version": 8, "center": [35.38, 31.55], "zoom": 15, "pitch": \##(pitch), "roll": \##(roll), "sources": {}, "layers": [\##(SkyTests.ground)]"##
            + (sky.map { ##", "sky": \##($0)}"## } ?? "}")
    }

    private func render(_ style: String, camera: CameraOptions = CameraOptions(), size: Size = Size(width: 256, height: 128)) throws -> RGBAImage {
        let s = Snapshotter(options: MapSnapshotOptions(size: size, pixelRatio: 1))
        try s.setStyle(json: style)
        return try s.snapshot(camera: camera).image
    }

    private func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * image.width + x) * 4
        return Array(image.pixels[i..<i + 4])
    }

    func testTheSkyFillsWhatLiesAboveTheHorizon() throws {
        let image = try render(style(sky: ##"{"sky-color": "#ff0000", "horizon-color": "#0000ff", "sky-horizon-blend": 0.5}"##))
        // The horizon lies tan 4.25° · 192 = 14.3 px above the middle: row 49.7 from the top.
        XCTAssertEqual(pixel(image, 128, 0), [255, 0, 0, 255])
        XCTAssertEqual(pixel(image, 128, 120), [204, 170, 131, 255])
        // Just above the ground the sky is (nearly) the horizon color.
        let low = pixel(image, 128, 46)
        XCTAssertGreaterThan(low[2], 200, "\(low)")
        XCTAssertLessThan(low[0], 60, "\(low)")
        // Without a sky the background covers the view, as before.
        let plain = try render(style(sky: nil))
        XCTAssertEqual(pixel(plain, 128, 0), [204, 170, 131, 255])
    }

    func testTheSkyInPiecesEqualsOneFramebuffer() throws {
        let style = style(sky: ##"{"sky-color": "#ff0000", "horizon-color": "#0000ff"}"##, roll: 30)
        var limits = Limits()
        limits.pieceSize = 48
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 256, height: 128), pixelRatio: 1.5, limits: limits))
        try s.setStyle(json: style)
        let pieces = try s.snapshot().image
        let whole = try Snapshotter(options: MapSnapshotOptions(size: Size(width: 256, height: 128), pixelRatio: 1.5)).withStyle(style).snapshot().image
        // As PieceRenderingTests allows: the far plane cuts each piece's ground square apart,
        // which can move its edge by a pixel here and there (1 of 73 728 here).
        let mismatch = pixelmatch(whole, pieces, threshold: 0.1, includeAA: true)
        XCTAssertLessThan(Double(mismatch) / Double(whole.width * whole.height), 0.0005, "mismatched pixels: \(mismatch)")
    }

    func testTheRollTurnsTheHorizon() throws {
        let image = try render(style(sky: ##"{"sky-color": "#ff0000"}"##, roll: 90), size: Size(width: 128, height: 128))
        // Rolled 90 degrees clockwise the sky is on the left.
        XCTAssertEqual(pixel(image, 0, 64), [255, 0, 0, 255])
        XCTAssertEqual(pixel(image, 127, 64), [204, 170, 131, 255])
    }

    func testASkyOutOfViewDrawsAsNoSky() throws {
        // At pitch 40 the horizon is far above the view: the image is the one without a sky.
        let sky = try render(style(sky: ##"{"sky-color": "#ff0000"}"##, pitch: 40))
        let plain = try render(style(sky: nil, pitch: 40))
        XCTAssertEqual(sky, plain)
    }

    func testARaisedCameraLooksUpAtTheSky() throws {
        // GL JS's high-pitch/pitch95: the center 10 km up, pitch 95: the ground in the lower third.
        var camera = CameraOptions(zoom: 10, pitch: 95)
        camera.centerAltitude = 10000
        let image = try render(style(sky: ##"{"sky-color": "#ff0000"}"##, pitch: 0), camera: camera, size: Size(width: 128, height: 128))
        XCTAssertEqual(pixel(image, 64, 0), [255, 0, 0, 255])
        XCTAssertEqual(pixel(image, 64, 127), [204, 170, 131, 255])
    }

    func testBadPitchAndAltitudeAreRefusedByName() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 32, height: 32)))
        try s.setStyle(json: style(sky: nil))
        var c = CameraOptions(); c.pitch = 181
        XCTAssertThrowsError(try s.snapshot(camera: c)) { XCTAssertTrue("\($0)".contains("pitch 181"), "\($0)") }
        c = CameraOptions(); c.centerAltitude = .infinity
        XCTAssertThrowsError(try s.snapshot(camera: c)) { XCTAssertTrue("\($0)".contains("center altitude"), "\($0)") }
        // Looking along the ground (pitch near 90, the center on it) would load tiles without bound.
        c = CameraOptions(); c.pitch = 89.9
        XCTAssertThrowsError(try s.snapshot(camera: c)) { XCTAssertTrue("\($0)".contains("centerAltitude"), "\($0)") }
        c.centerAltitude = 100
        XCTAssertNoThrow(try s.snapshot(camera: c))
        // Past 90 degrees over a center on the ground the camera is below the map: refused.
        c = CameraOptions(); c.pitch = 100
        XCTAssertThrowsError(try s.snapshot(camera: c)) { XCTAssertTrue("\($0)".contains("pitch 100"), "\($0)") }
        c = CameraOptions(); c.centerAltitude = 2e7
        XCTAssertThrowsError(try s.snapshot(camera: c)) { XCTAssertTrue("\($0)".contains("center altitude"), "\($0)") }
    }

    func testTheRunnerSetsTheCenterElevation() throws {
        guard case .moveCamera(let step)? = CaseOperation(.array([.string("setCenterElevation"), .number(10000)])) else {
            return XCTFail("setCenterElevation is not a camera step")
        }
        XCTAssertEqual(step.applied(to: CameraOptions()).centerAltitude, 10000)
        guard case .moveCamera(let clamp)? = CaseOperation(.array([.string("setCenterClampedToGround"), .bool(false)])) else {
            return XCTFail("setCenterClampedToGround is not a camera step")
        }
        XCTAssertEqual(clamp.applied(to: CameraOptions()).centerClampedToGround, false)
        XCTAssertNil(CaseOperation(.array([.string("setCenterElevation"), .string("high")])))
    }

    func testCommandLineCenterAltitude() throws {
        let glsnap = try TestPaths.executable("glsnap")
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("r.png").path
        let r = try runProcess(glsnap, ["render", "--size", "32x32", "--center-altitude", "1e9", "-o", out])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("--center-altitude"), r.stderr)
        let path = dir.appendingPathComponent("s.json")
        try style(sky: ##"{"sky-color": "#ff0000"}"##, pitch: 0).write(to: path, atomically: true, encoding: .utf8)
        let ok = try runProcess(glsnap, ["render", "--style", path.path, "--size", "16x16", "--zoom", "10", "--pitch", "95",
                                         "--center-altitude", "10000", "-o", out])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        let image = try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
        XCTAssertEqual(Array(image.pixels[(1 * 16 + 8) * 4..<(1 * 16 + 8) * 4 + 3]), [255, 0, 0])
        XCTAssertEqual(Array(image.pixels[(15 * 16 + 8) * 4..<(15 * 16 + 8) * 4 + 3]), [204, 170, 131])
    }
}

private extension Snapshotter {
    func withStyle(_ json: String) throws -> Snapshotter {
        try setStyle(json: json)
        return self
    }
}
