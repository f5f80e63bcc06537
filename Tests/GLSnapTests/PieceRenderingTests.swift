import XCTest
import GLSnap
import GLSnapImage

/// Images drawn in pieces equal the same view drawn in one framebuffer.
final class PieceRenderingTests: XCTestCase {
    private func render(pieceSize: Int, camera: CameraOptions, ratio: Double = 1) throws -> RGBAImage {
        var limits = Limits()
        limits.pieceSize = pieceSize
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 384, height: 320), pixelRatio: ratio, limits: limits))
        try s.setStyle(path: TestPaths.example)
        return try s.snapshot(camera: camera).image
    }

    private func assertPiecesMatch(_ camera: CameraOptions, ratio: Double = 1, file: StaticString = #filePath, line: UInt = #line) throws {
        let whole = try render(pieceSize: 4096, camera: camera, ratio: ratio)
        let pieces = try render(pieceSize: 100, camera: camera, ratio: ratio)
        XCTAssertEqual(whole.width, pieces.width, file: file, line: line)
        let mismatch = pixelmatch(whole, pieces, threshold: 0.1, includeAA: true)
        XCTAssertLessThan(Double(mismatch) / Double(whole.width * whole.height), 0.0005, "mismatched pixels: \(mismatch)", file: file, line: line)
    }

    func testFlatViewInPieces() throws {
        try assertPiecesMatch(CameraOptions(center: Coordinate(latitude: 41.87, longitude: -87.65), zoom: 14))
    }

    func testBearingAndPitchInPieces() throws {
        try assertPiecesMatch(CameraOptions(center: Coordinate(latitude: 41.87, longitude: -87.65), zoom: 14, bearing: 30, pitch: 40), ratio: 1.5)
    }

    func testStreamedBandsCoverTheImageInOrder() throws {
        var limits = Limits()
        limits.pieceSize = 64
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 150, height: 130), limits: limits))
        try s.setStyle(path: TestPaths.example)
        var rows: [Int] = []
        var bytes = 0
        _ = try s.render(camera: CameraOptions(center: Coordinate(latitude: 41.87, longitude: -87.65), zoom: 13)) { band, first, count in
            rows.append(first)
            XCTAssertEqual(band.count, count * 150 * 4)
            bytes += band.count
        }
        XCTAssertEqual(rows, [0, 64, 128])
        XCTAssertEqual(bytes, 150 * 130 * 4)
    }

    func testOversizedAndBadSizesAreRefusedBeforeWork() throws {
        for size in [Size(width: 70_000, height: 10), Size(width: 0, height: 10), Size(width: .nan, height: 10)] {
            let s = Snapshotter(options: MapSnapshotOptions(size: size))
            try s.setStyle(path: TestPaths.example)
            XCTAssertThrowsError(try s.render(camera: CameraOptions()) { _, _, _ in XCTFail("no band expected") })
        }
        // In memory, the whole-image limit applies; streamed, only the per-side limit.
        let big = MapSnapshotOptions(size: Size(width: 20_000, height: 20_000))
        XCTAssertThrowsError(try big.pixelSize())
        XCTAssertNoThrow(try big.pixelSize(streamed: true))
    }
}
