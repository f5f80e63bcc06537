import XCTest
import GLSnap

/// A snapshot past its time limit stops near it, between layers, tiles or pieces, with an error
/// naming the limit; the snapshotter draws the next snapshot as usual.
final class DeadlineTests: XCTestCase {
    /// `count` translucent background layers: each is a full-image blend, so drawing is slow on purpose.
    static func slowStyle(layers count: Int) -> String {
        let layers = (0..<count).map { i in
            #"{"id": "b\#(i)", "type": "background", "paint": {"background-color": "rgba(\#(i % 255), 80, 160, 0.02)"}}"#
        }
        return #"{"version": 8, "sources": {}, "layers": [{"id": "base", "type": "background", "paint": {"background-color": "white"}}, "#
            + layers.joined(separator: ", ") + "]}"
    }

    private func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = Date()
        try body()
        return Date().timeIntervalSince(start)
    }

    func testSlowSnapshotStopsAtItsTimeLimit() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 1024, height: 1024)))
        try s.setStyle(json: DeadlineTests.slowStyle(layers: 3000))
        let camera = CameraOptions(center: Coordinate(latitude: 0, longitude: 0), zoom: 0)
        var timings = SnapshotTimings()
        let full = try seconds { timings = try s.snapshot(camera: camera).timings }
        print("timings \(timings)")
        var error: Error?
        let limited = seconds {
            do { _ = try s.snapshot(camera: camera, timeLimit: 0.3) } catch let e { error = e }
        }
        print("slow snapshot: \(full) s unlimited, \(limited) s with a 0.3 s limit")
        XCTAssertGreaterThan(full, 1.0, "the render must be slow enough to show the limit")
        guard case .timedOut(let limit)? = error as? GLSnapError else { return XCTFail("expected timedOut, got \(String(describing: error))") }
        XCTAssertEqual(limit, 0.3)
        XCTAssertEqual("\(error!)", "snapshot stopped: it took longer than its time limit of 0.3 s")
        XCTAssertLessThan(limited, 0.3 + max(0.5, full / 4), "stops near the limit, not at the end of the render")
        // The same snapshotter renders the next snapshot, whole.
        try s.setStyle(json: #"{"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "red"}}]}"#)
        let next = try s.snapshot(camera: camera, timeLimit: 5)
        XCTAssertEqual(Array(next.image.pixels[0..<4]), [255, 0, 0, 255])
    }

    /// On a cold snapshotter (the GL context made within the limit) and with a longer limit:
    /// checks that only flushed the queued drawing let all of it run on at the read-back (27 s
    /// for a 2 s limit); the checks wait for the drawing, spaced by what the layers take.
    func testFirstSnapshotStopsAtALongerLimit() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 1024, height: 1024)))
        try s.setStyle(json: DeadlineTests.slowStyle(layers: 3000))
        var error: Error?
        let t = seconds {
            do { _ = try s.snapshot(camera: CameraOptions(center: Coordinate(latitude: 0, longitude: 0), zoom: 0), timeLimit: 1.5) } catch let e { error = e }
        }
        print("cold snapshot with a 1.5 s limit: stopped after \(t) s")
        guard case .timedOut(1.5)? = error as? GLSnapError else { return XCTFail("expected timedOut, got \(String(describing: error))") }
        XCTAssertLessThan(t, 2.5)
    }

    /// The limit in `Limits` applies to every snapshot; a big image drawn in pieces stops between pieces.
    func testTimeLimitInLimitsAndBetweenPieces() throws {
        var options = MapSnapshotOptions(size: Size(width: 2048, height: 2048))
        options.limits.pieceSize = 256
        options.limits.snapshotTimeLimit = 0.2
        let s = Snapshotter(options: options)
        try s.setStyle(json: DeadlineTests.slowStyle(layers: 200))
        var error: Error?
        let t = seconds {
            do { _ = try s.snapshot() } catch let e { error = e }
        }
        print("pieces: stopped after \(t) s")
        guard case .timedOut(0.2)? = error as? GLSnapError else { return XCTFail("expected timedOut, got \(String(describing: error))") }
        XCTAssertLessThan(t, 1.5)
        s.options.limits.snapshotTimeLimit = nil
        s.options.size = Size(width: 64, height: 64)
        XCTAssertNoThrow(try s.snapshot())
    }
}
