import Foundation
import GLSnap
import GLSnapImage
import XCTest

/// Several threads snapshot through one `Snapshotter` at once: its workers render in parallel and
/// fill the shared caches (tiles, tessellated layers, symbols, glyphs) together. Run under
/// ThreadSanitizer (tools/sanitize.sh thread) this is the check that the renderer's threads do
/// not race; here it checks that they draw what one thread draws.
final class ConcurrentSnapshotTests: XCTestCase {
    private let cameras = [(14.0, 0.0), (15.0, 30.0), (13.5, 0.0), (16.0, -45.0)].map { zoom, bearing in
        CameraOptions(center: Coordinate(latitude: 41.87, longitude: -87.65), zoom: zoom, bearing: bearing)
    }

    private func snapshotter() throws -> Snapshotter {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 256, height: 192), workers: 2))
        try s.setStyle(path: TestPaths.example)
        return s
    }

    func testConcurrentSnapshotsDrawWhatOneThreadDraws() throws {
        let serial = try snapshotter()
        let expected = try cameras.map { try serial.snapshot(camera: $0).image }

        let shared = try snapshotter()
        let lock = NSLock()
        var images = [RGBAImage?](repeating: nil, count: cameras.count * 2)
        var errors: [String] = []
        DispatchQueue.concurrentPerform(iterations: images.count) { i in
            do {
                let image = try shared.snapshot(camera: cameras[i % cameras.count]).image
                lock.lock(); images[i] = image; lock.unlock()
            } catch {
                lock.lock(); errors.append("snapshot \(i): \(error)"); lock.unlock()
            }
        }
        XCTAssertEqual(errors, [])
        for (i, image) in images.enumerated() {
            XCTAssertTrue(image == expected[i % cameras.count], "snapshot \(i) differs from the one drawn alone")
        }
    }
}
