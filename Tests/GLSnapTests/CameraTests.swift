import Foundation
import GLSnap
import GLSnapImage
import XCTest

/// The camera's roll, padding and field of view through `Snapshotter` and the conformance
/// runner's camera operations (`setRoll`, `setPadding`, `easeTo`, `setVerticalFieldOfView`) and
/// its `showPadding` debug lines.
final class CameraTests: XCTestCase {
    /// At zoom 0 a 512-px world, so 45 degrees of longitude at the equator are 64 px.
    private func snapshot(style: String, camera: CameraOptions) throws -> Snapshot {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 256, height: 256), pixelRatio: 1))
        try s.setStyle(json: style)
        s.setCamera(camera)
        return try s.snapshot()
    }

    private let plain = #"{"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}}]}"#

    func testStyleRollAndCameraPaddingMoveTheSnapshotsPoints() throws {
        let origin = CameraOptions(center: Coordinate(latitude: 0, longitude: 0), zoom: 0)
        let east = Coordinate(latitude: 0, longitude: 45)
        // The style's roll turns the view: east is up, as at bearing 90.
        let rolled = try snapshot(style: plain.replacingOccurrences(of: #""version": 8,"#, with: #""version": 8, "roll": 90,"#), camera: origin)
        let p = rolled.point(for: east)
        XCTAssertEqual(p.x, 128, accuracy: 1e-6); XCTAssertEqual(p.y, 64, accuracy: 1e-6)
        let back = rolled.coordinate(for: p)
        XCTAssertEqual(back.longitude, 45, accuracy: 1e-9)
        // The camera's roll wins over the style's.
        var unrolled = origin; unrolled.roll = 0
        let q = try snapshot(style: plain.replacingOccurrences(of: #""version": 8,"#, with: #""version": 8, "roll": 90,"#), camera: unrolled).point(for: east)
        XCTAssertEqual(q.x, 192, accuracy: 1e-6); XCTAssertEqual(q.y, 128, accuracy: 1e-6)
        // Padding without bounds is the map's: the center moves into the middle of what is left.
        var padded = origin; padded.padding = EdgeInsets(top: 100)
        let c = try snapshot(style: plain, camera: padded).point(for: Coordinate(latitude: 0, longitude: 0))
        XCTAssertEqual(c.x, 128, accuracy: 1e-6); XCTAssertEqual(c.y, 178, accuracy: 1e-6)
    }

    func testFieldOfViewChangesThePitchedView() throws {
        // Pitched 30 degrees, a point 64 px north of the center shows D·64·cos 30° / (D + 64·sin 30°)
        // above it, D = 128 / tan(fov / 2): 128 px at 90 degrees (latitude 40.9799 is 64 px north at zoom 0).
        var camera = CameraOptions(center: Coordinate(latitude: 0, longitude: 0), zoom: 0, pitch: 30)
        camera.fieldOfView = 90
        let north = try snapshot(style: plain, camera: camera).point(for: Coordinate(latitude: 40.979898069620134, longitude: 0))
        let expected = 128 - 128 * 64 * cos(Double.pi / 6) / (128 + 64 * 0.5)
        XCTAssertEqual(north.y, expected, accuracy: 0.01)
    }

    func testBadCameraValuesAreRefusedByName() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 32, height: 32)))
        try s.setStyle(json: plain)
        var c = CameraOptions(); c.fieldOfView = 180
        XCTAssertThrowsError(try s.snapshot(camera: c)) { XCTAssertTrue("\($0)".contains("field of view"), "\($0)") }
        c = CameraOptions(); c.roll = .nan
        XCTAssertThrowsError(try s.snapshot(camera: c)) { XCTAssertTrue("\($0)".contains("roll"), "\($0)") }
        c = CameraOptions(); c.padding = EdgeInsets(left: -5)
        XCTAssertThrowsError(try s.snapshot(camera: c)) { XCTAssertTrue("\($0)".contains("padding"), "\($0)") }
    }

    func testCommandLineRollAndFieldOfView() throws {
        let glsnap = try TestPaths.executable("glsnap")
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("r.png").path
        for (args, name) in [(["--fov", "0"], "--fov"), (["--fov", "200"], "--fov"), (["--roll", "x"], "--roll")] {
            let r = try runProcess(glsnap, ["render", "--size", "32x32", "-o", out] + args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(name), "\(args): \(r.stderr)")
        }
        // A style that is white west of the meridian and black east of it, rolled 90 degrees:
        // east is up, so the top row is black and the bottom row white.
        let style = dir.appendingPathComponent("s.json")
        try ##"{"version": 8, "center": [0, 0], "zoom": 0, "sources": {"e": {"type": "geojson", "data": {"type": "Polygon", "coordinates": [[[0, -80], [170, -80], [170, 80], [0, 80], [0, -80]]]}}}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}}, {"id": "e", "type": "fill", "source": "e", "paint": {"fill-color": "black"}}]}"##
            .write(to: style, atomically: true, encoding: .utf8)
        let r = try runProcess(glsnap, ["render", "--style", style.path, "--size", "16x16", "--roll", "90", "--fov", "60", "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        let image = try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
        XCTAssertEqual(image.pixels[(1 * 16 + 8) * 4], 0)
        XCTAssertEqual(image.pixels[(14 * 16 + 8) * 4], 255)
    }

    func testRunnerCameraOperations() throws {
        let binary = try TestPaths.executable("glsnap-conformance")
        let suite = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-camera-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: suite) }
        func write(_ text: String, _ relative: String) throws {
            let path = suite + "/" + relative
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        /// A 16x16 image, green where `green(x, y)`, else red.
        func expect(_ relative: String, green: (Int, Int) -> Bool) throws {
            var pixels: [UInt8] = []
            for y in 0..<16 { for x in 0..<16 { pixels += green(x, y) ? [0, 255, 0, 255] : [255, 0, 0, 255] } }
            let path = suite + "/" + relative
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(try PNGEncoder().encode(RGBAImage(width: 16, height: 16, pixels: pixels))).write(to: URL(fileURLWithPath: path))
        }
        // Red, with the eastern hemisphere green; the view is 16 px around 0, 0 at zoom 0.
        let style = ##"{"version": 8, "center": [0, 0], "zoom": 0, "metadata": {"test": {"width": 16, "height": 16, "operations": [OPS]}}, "sources": {"east": {"type": "geojson", "data": {"type": "Polygon", "coordinates": [[[0, -80], [170, -80], [170, 80], [0, 80], [0, -80]]]}}}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "red"}}, {"id": "e", "type": "fill", "source": "east", "paint": {"fill-color": "#00ff00", "fill-antialias": false}}]}"##
        // Rolled 90 degrees, east is up.
        try write(style.replacingOccurrences(of: "OPS", with: ##"["setRoll", 90], ["wait"]"##), "render/tests/camera/roll/style.json")
        try expect("render/tests/camera/roll/expected.png") { _, y in y < 8 }
        // easeTo's end state: a left padding of 8 puts the center (and the meridian) at x = 12;
        // a later setPadding keeps the sides it does not name.
        try write(style.replacingOccurrences(of: "OPS", with: ##"["easeTo", {"padding": {"left": 8, "top": 2}, "duration": 300}], ["wait", 300], ["setPadding", {"top": 0}], ["wait"]"##),
                  "render/tests/camera/ease-padding/style.json")
        try expect("render/tests/camera/ease-padding/expected.png") { x, _ in x >= 12 }
        // The field of view changes nothing in an unpitched view of flat ground.
        try write(style.replacingOccurrences(of: "OPS", with: ##"["setVerticalFieldOfView", 90], ["wait"]"##), "render/tests/camera/fov/style.json")
        try expect("render/tests/camera/fov/expected.png") { x, _ in x >= 8 }
        // showPadding: GL JS's debug lines at 8 px of padding in a 32-px view, worked out from its
        // scissor boxes (3 px, from the bottom-left, truncated): top red rows 4-6, bottom green rows
        // 20-22, left blue columns 6-8, right magenta columns 22-24, then the cyan crosshair at the
        // center (columns 15-16 over rows 6-25, rows 15-16 over columns 6-25).
        try write(##"{"version": 8, "metadata": {"test": {"width": 32, "height": 32, "showPadding": true, "operations": [["setPadding", {"top": 8, "left": 8, "bottom": 8, "right": 8}]]}}, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}}]}"##,
                  "render/tests/camera/show-padding/style.json")
        var pixels: [UInt8] = []
        for y in 0..<32 {
            for x in 0..<32 {
                var c: [UInt8] = [255, 255, 255, 255]
                if (4...6).contains(y) { c = [255, 0, 0, 255] }
                if (20...22).contains(y) { c = [0, 255, 0, 255] }
                if (6...8).contains(x) { c = [0, 0, 255, 255] }
                if (22...24).contains(x) { c = [255, 0, 255, 255] }
                if ((15...16).contains(x) && (6...25).contains(y)) || ((15...16).contains(y) && (6...25).contains(x)) { c = [0, 255, 255, 255] }
                pixels += c
            }
        }
        try Data(try PNGEncoder().encode(RGBAImage(width: 32, height: 32, pixels: pixels)))
            .write(to: URL(fileURLWithPath: suite + "/render/tests/camera/show-padding/expected.png"))
        let result = try runProcess(binary, ["render", "--suite", suite, "--output", suite + "/out"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("camera: 4/4 passed"), result.stdout)
    }
}
