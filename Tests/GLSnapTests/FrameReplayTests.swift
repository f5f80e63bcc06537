import GLSnap
import GLSnapImage
import XCTest

/// `Snapshotter.replayFrame` (behind `glsnap bench --replay`, the README's limit table) draws the
/// frame a snapshot draws, and times each stage of it apart.
final class FrameReplayTests: XCTestCase {
    func testReplayDrawsTheSnapshotsPixelsAndTimesEachStage() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 256, height: 192)), configuration: .init(workers: 1))
        defer { s.close() }
        try s.setStyle(path: TestPaths.example)
        let camera = CameraOptions(center: Coordinate(latitude: 41.87, longitude: -87.65), zoom: 14, bearing: 20)
        let snapshot = try s.snapshot(camera: camera)
        let replay = try s.replayFrame(camera: camera, repetitions: 3)
        XCTAssertEqual(replay.repetitions, 3)
        XCTAssertEqual(replay.image.width, snapshot.image.width)
        XCTAssertEqual(replay.image.height, snapshot.image.height)
        // Drawn with rasterizer discard in between: the last draw still has every pixel.
        XCTAssert(replay.image == snapshot.image, "the replayed frame differs from the snapshot")
        for (name, t) in [("build", replay.build), ("issue", replay.issue), ("rasterize", replay.rasterize), ("readback", replay.readback)] {
            XCTAssertGreaterThan(t, 0, name)
        }
    }

    func testReplayRefusesAnImageOfSeveralPieces() throws {
        var options = MapSnapshotOptions(size: Size(width: 300, height: 100))
        options.limits.pieceSize = 256
        let s = Snapshotter(options: options, configuration: .init(workers: 1))
        defer { s.close() }
        try s.setStyle(path: TestPaths.example)
        XCTAssertThrowsError(try s.replayFrame(camera: CameraOptions(zoom: 14), repetitions: 1)) { error in
            XCTAssert("\(error)".contains("one piece"), "\(error)")
        }
    }
}
