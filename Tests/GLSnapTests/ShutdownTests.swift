import Foundation
import XCTest
@testable import GLSnap

/// The snapshotter ends its workers in order, so a process may exit right after its last snapshot.
final class ShutdownTests: XCTestCase {
    /// Names of this process's threads that are render workers (`glsnap-…`).
    private func renderThreads() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { $0.hasPrefix("glsnap-") }
    }

    private func snapshotter() throws -> Snapshotter {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 64, height: 64)), configuration: .init(workers: 2))
        try s.setStyle(path: TestPaths.example)
        s.setCamera(CameraOptions(center: Coordinate(latitude: 41.87, longitude: -87.65), zoom: 14))
        return s
    }

    // Other tests' snapshotters may still hold render threads, so these count the change.
    func testCloseJoinsTheRenderThreads() throws {
        let before = renderThreads().count
        let s = try snapshotter()
        // Snapshots two at a time until both workers have started their threads (a worker starts
        // its thread on its first job; two calls that do not overlap may use one worker).
        for _ in 0..<50 where renderThreads().count < before + 2 {
            DispatchQueue.concurrentPerform(iterations: 2) { _ in _ = try? s.snapshot() }
        }
        XCTAssertEqual(renderThreads().count, before + 2)
        s.close()
        // Checked at once: close returns only after every render thread has exited.
        XCTAssertEqual(renderThreads().count, before)
        XCTAssertThrowsError(try s.snapshot()) { error in
            XCTAssertTrue("\(error)".contains("closed"), "\(error)")
        }
        s.close()  // again: no effect
    }

    func testDeinitJoinsTheRenderThreads() throws {
        let before = renderThreads().count
        do {
            let s = try snapshotter()
            _ = try s.snapshot()
            XCTAssertEqual(renderThreads().count, before + 1)
        }
        XCTAssertEqual(renderThreads().count, before)
    }
}
