import Foundation
import XCTest
@testable import GLSnap

/// Numbers from outside end in a usage error naming the option, never a trap (SIGILL).
final class NumericArgumentTests: XCTestCase {
    func testHugeAndNegativeNumbersExitTwo() throws {
        let glsnap = try TestPaths.executable("glsnap")
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("n.png").path
        let flags = TestPaths.shared.appendingPathComponent("fixtures/styles/seed-flags.json").path
        var cases: [([String], String)] = [
            (["render", "--size", "99999999999999999999x1", "-o", out], "--size width"),
            (["render", "--size", "1x1e400", "-o", out], "--size"),
            (["render", "--bounds", "0,0,1,1", "--padding", "1e300", "-o", out], "--padding"),
            (["render", "--piece", "1e300", "-o", out], "--piece"),
            (["render", "--max-size", "-3", "-o", out], "--max-size"),
            (["render", "--zoom", "1e300", "-o", out], "zoom"),
            (["bench", "--size", "1e20x1"], "--size width"),
            (["bench", "--count", "-1"], "--count"),
            (["bench", "--count", "1e30"], "--count"),
            (["bench", "--workers", "1e30"], "--workers"),
            (["bench", "--seed", "-1"], "--seed"),
            (["bench", "--warmup", "2.5"], "--warmup"),
        ]
        if FileManager.default.fileExists(atPath: flags) {
            cases.append((["render", "--style", flags, "--fit-data", "points", "--size", "auto", "--resolution", "1e-300", "-o", out], "--resolution"))
            cases.append((["render", "--style", flags, "--fit-data", "points", "--size", "auto", "--zoom", "17", "--padding", "1e300", "-o", out], "--padding"))
        }
        for (args, expected) in cases {
            let r = try runProcess(glsnap, args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(expected), "\(args): \(r.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    func testCheckedConversions() throws {
        XCTAssertEqual(try CheckedNumber.int(12, "n", in: 0...20), 12)
        for bad in [1e20, -1, 2.5, .nan, .infinity] {
            XCTAssertThrowsError(try CheckedNumber.int(bad, "n", in: 0...20)) { XCTAssertTrue("\($0)".contains("n must be")) }
        }
        XCTAssertThrowsError(try CheckedNumber.double(.nan, "x", in: 0...1))
        XCTAssertEqual(CheckedNumber.describe(1e20), "1e+20")
        XCTAssertEqual(CheckedNumber.describe(70000), "70000")
    }

    func testAFarLongitudeWrapsInsteadOfHanging() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 32, height: 32)))
        try s.setStyle(path: TestPaths.example)
        let far = try s.snapshot(camera: CameraOptions(center: Coordinate(latitude: 41.87, longitude: 1e300), zoom: 3))
        XCTAssertEqual(far.image.width, 32)
        let a = try s.snapshot(camera: CameraOptions(center: Coordinate(latitude: 41.87, longitude: -87.65 + 720), zoom: 14))
        let b = try s.snapshot(camera: CameraOptions(center: Coordinate(latitude: 41.87, longitude: -87.65), zoom: 14))
        XCTAssertEqual(a.image.pixels, b.image.pixels)
    }
}
