import Foundation
import XCTest
@testable import GLSnap
import GLSnapData
import GLSnapImage
import GLSnapRender
import GLSnapStyle

/// The snapshotter's hub: the piece grid and stitcher, the init-only configuration, the async
/// snapshot, the one fit of bounds, and whose counters are whose.
final class SnapshotterHubTests: XCTestCase {
    private let chicago = Coordinate(latitude: 41.87, longitude: -87.65)

    // MARK: Piece grid and stitcher

    func testPieceGridSizesAndEdges() {
        // 10000 x 5000 in 4096 pieces: 3 columns, 2 bands; the last piece is what is left.
        let g = PieceGrid(width: 10000, height: 5000, pieceSide: 4096, maxBandBytes: 256 << 20)
        XCTAssertEqual(g.bandHeight, 4096)
        XCTAssertEqual(g.columns, 3)
        XCTAssertEqual(g.bands, 2)
        XCTAssertEqual(g.count, 6)
        XCTAssertEqual(g.piece(band: 0, column: 0), PixelRect(x: 0, y: 0, width: 4096, height: 4096))
        XCTAssertEqual(g.piece(band: 1, column: 2), PixelRect(x: 8192, y: 4096, width: 1808, height: 904))
        XCTAssertEqual(g.rows(ofBand: 1), 4096..<5000)
        // The band bytes bound the rows (at least one), and an image smaller than a piece is one piece.
        XCTAssertEqual(PieceGrid(width: 1000, height: 500, pieceSide: 4096, maxBandBytes: 40_000).bandHeight, 10)
        XCTAssertEqual(PieceGrid(width: 1000, height: 500, pieceSide: 4096, maxBandBytes: 1).bandHeight, 1)
        let one = PieceGrid(width: 300, height: 200, pieceSide: 4096, maxBandBytes: 256 << 20)
        XCTAssertEqual(one.count, 1)
        XCTAssertEqual(one.piece(band: 0, column: 0), PixelRect(x: 0, y: 0, width: 300, height: 200))
        // Exact multiples leave no sliver; an area with an origin starts its pieces there.
        let exact = PieceGrid(width: 256, height: 128, pieceSide: 64, maxBandBytes: 1 << 30)
        XCTAssertEqual(exact.columns, 4)
        XCTAssertEqual(exact.bands, 2)
        let area = PieceGrid(area: PixelRect(x: 100, y: 50, width: 300, height: 200), pieceSide: 128, bandHeight: 128)
        XCTAssertEqual(area.columns, 3)
        XCTAssertEqual(area.bands, 2)
        XCTAssertEqual(area.piece(band: 1, column: 2), PixelRect(x: 356, y: 178, width: 44, height: 72))
        // The pieces cover the area once.
        var covered = [Int](repeating: 0, count: 300 * 200)
        for b in 0..<area.bands {
            for c in 0..<area.columns {
                let p = area.piece(band: b, column: c)
                for y in p.y..<(p.y + p.height) { for x in p.x..<(p.x + p.width) { covered[(y - 50) * 300 + x - 100] += 1 } }
            }
        }
        XCTAssertEqual(Set(covered), [1])
    }

    /// Pieces stitched into an image, and into bands handed on, give the image they were cut from.
    func testStitcherPutsPiecesWhereTheyBelong() {
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { [UInt8(x & 255), UInt8(y & 255), UInt8((x >> 8) + (y >> 8) * 16), 255] }
        for (w, h, side, bandBytes) in [(150, 130, 64, 1 << 30), (150, 130, 200, 1 << 30), (150, 130, 64, 150 * 4 * 10), (64, 64, 64, 1 << 30)] {
            let grid = PieceGrid(width: w, height: h, pieceSide: side, maxBandBytes: bandBytes)
            let expected = (0..<h).flatMap { y in (0..<w).flatMap { x in pixel(x, y) } }
            func fill(_ p: PixelRect, _ into: UnsafeMutableRawBufferPointer) {
                XCTAssertGreaterThanOrEqual(into.count, p.width * p.height * 4)
                var i = 0
                for y in p.y..<(p.y + p.height) { for x in p.x..<(p.x + p.width) { for v in pixel(x, y) { into[i] = v; i += 1 } } }
            }
            var image = [UInt8](repeating: 7, count: w * h * 4)
            image.withUnsafeMutableBytes { out in
                let s = Stitcher(grid: grid, image: out)
                for b in 0..<grid.bands {
                    for c in 0..<grid.columns {
                        let p = grid.piece(band: b, column: c)
                        fill(p, s.destination(for: p))
                        s.place(p)
                    }
                }
            }
            XCTAssertTrue(image == expected, "stitched into the image: \(w)x\(h) in \(side)")
            var bands = [UInt8]()
            let s = Stitcher(grid: grid, image: nil)
            for b in 0..<grid.bands {
                for c in 0..<grid.columns {
                    let p = grid.piece(band: b, column: c)
                    fill(p, s.destination(for: p))
                    s.place(p)
                }
                bands += s.band(b)
            }
            XCTAssertTrue(bands == expected, "stitched into bands: \(w)x\(h) in \(side), \(bandBytes) bytes a band")
        }
    }

    /// Streamed bands and the in-memory image of one view drawn in pieces are the same bytes.
    func testStreamedBandsEqualTheSnapshotImage() throws {
        var limits = Limits()
        limits.pieceSize = 64
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 150, height: 130), limits: limits))
        defer { s.close() }
        try s.setStyle(path: TestPaths.example)
        let camera = CameraOptions(center: chicago, zoom: 13)
        var streamed = [UInt8]()
        _ = try s.render(camera: camera) { band, _, _ in streamed += band }
        let image = try s.snapshot(camera: camera).image
        XCTAssertTrue(streamed == image.pixels)
    }

    // MARK: Configuration and options

    func testConfigurationIsFixedAndOptionsApplyLater() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 128, height: 128)), configuration: .init(workers: 2))
        defer { s.close() }
        XCTAssertEqual(s.configuration.workers, 2)
        XCTAssertEqual(s.workers.count, 2)
        XCTAssertTrue(s.httpClient === HTTPClient.shared, "no client given: the process's")
        let client = HTTPClient()
        XCTAssertTrue(Snapshotter(options: s.options, configuration: .init(httpClient: client)).httpClient === client)
        // The cache budgets of options set after init apply to the next snapshots.
        try s.setStyle(json: #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "Polygon", "coordinates": [[[-40, -40], [40, -40], [40, 40], [-40, -40]]]}}},"#
            + #""layers": [{"id": "l", "type": "fill", "source": "s"}]}"#)
        let camera = CameraOptions(center: Coordinate(latitude: 0, longitude: 0), zoom: 0)
        _ = try s.snapshot(camera: camera)
        XCTAssertGreaterThan(s.cachedBytes.geometry, 0)
        s.options.limits.geometryCacheBytes = 1
        XCTAssertEqual(s.cachedBytes.geometry, 0, "nothing fits a budget of 1 byte")
        _ = try s.snapshot(camera: camera, size: Size(width: 100, height: 100))
        XCTAssertEqual(s.cachedBytes.geometry, 0, "nor after the next snapshot")
    }

    // MARK: Async

    func testAsyncSnapshotEqualsTheBlockingOne() async throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 128, height: 96)))
        defer { s.close() }
        try s.setStyle(path: TestPaths.example)
        s.setCamera(CameraOptions(center: chicago, zoom: 14))
        let blocking = try { try s.snapshot().image }()
        let awaited = try await s.snapshot().image
        XCTAssertTrue(awaited == blocking)
    }

    /// Async snapshots wait on threads of their own, not Swift's cooperative threads (one per
    /// core): more snapshots than cores, each holding its thread until all have started, finish.
    func testAsyncSnapshotsDoNotHoldTheCallersThreads() async throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 32, height: 32)))
        defer { s.close() }
        try s.setStyle(json: #"{"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background"}]}"#)
        let n = ProcessInfo.processInfo.activeProcessorCount + 2
        let arrived = DispatchSemaphore(value: 0), allThere = DispatchSemaphore(value: 0)
        let counter = Counter()
        let overlay: @Sendable (inout SnapshotOverlay) -> Void = { _ in
            if counter.next() == n {
                for _ in 0..<n { allThere.signal() }
            }
            arrived.signal()
            // Past the time limit, the test fails below rather than hanging.
            _ = allThere.wait(timeout: .now() + 20)
        }
        let started = Date()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<n { group.addTask { _ = try await s.snapshot(camera: CameraOptions(zoom: 1), overlay: overlay) } }
            try await group.waitForAll()
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 15, "the snapshots waited for threads the callers held")
        _ = arrived
    }

    // MARK: Fitting bounds

    func testCameraForBoundsIsTheKnownFit() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 512, height: 512)))
        defer { s.close() }
        // 90 degrees of longitude is 128 world pixels at zoom 0: 512 pixels fit them at zoom 2.
        let box = CoordinateBounds(west: 0, south: -10, east: 90, north: 10)
        let c = try s.camera(for: box)
        XCTAssertEqual(try XCTUnwrap(c.zoom), 2, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(c.center?.longitude), 45, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(c.center?.latitude), 0, accuracy: 1e-9)
        XCTAssertEqual(c.bearing, 0)
        XCTAssertEqual(c.padding, EdgeInsets(), "the padding places the bounds; the camera has none")
        // 128 points of left padding leave 384: zoom log2(3), the center 64 points west at that zoom.
        let padded = try s.camera(for: box, padding: EdgeInsets(top: 0, left: 128, bottom: 0, right: 0), pitch: 30)
        let zoom = log2(3.0)
        XCTAssertEqual(try XCTUnwrap(padded.zoom), zoom, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(padded.center?.longitude), 45 - 64 / pow(2, zoom) / 512 * 360, accuracy: 1e-9)
        XCTAssertEqual(padded.pitch, 30)
        XCTAssertThrowsError(try s.camera(for: box, padding: EdgeInsets(all: 300)))
    }

    func testBoundsDrawTheirFittedCameraAndRefuseACenter() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 160, height: 120)))
        defer { s.close() }
        try s.setStyle(path: TestPaths.example)
        let box = CoordinateBounds(west: -87.70, south: 41.85, east: -87.60, north: 41.90)
        let padding = EdgeInsets(top: 10, left: 20, bottom: 0, right: 5)
        let viaBounds = try s.snapshot(camera: CameraOptions(bearing: 20, bounds: box, padding: padding)).image
        let viaCamera = try s.snapshot(camera: s.camera(for: box, padding: padding, bearing: 20)).image
        XCTAssertTrue(viaBounds == viaCamera)
        for camera in [CameraOptions(center: chicago, bounds: box), CameraOptions(zoom: 12, bounds: box)] {
            XCTAssertThrowsError(try s.snapshot(camera: camera)) { error in
                XCTAssertTrue("\(error)".contains("bounds") && "\(error)".contains("center/zoom"), "\(error)")
            }
        }
    }

    /// ContentSize sizes the view to the box turned by the bearing (the box Transform.fitting fits).
    func testContentSizeTurnsTheBoxWithTheBearing() throws {
        let wide = CoordinateBounds(west: 0, south: -1, east: 90, north: 1)
        let north = ContentSize.fitting(wide, zoom: 2)
        XCTAssertEqual(north.size.width, 512)
        let turned = ContentSize.fitting(wide, zoom: 2, bearing: 90)
        XCTAssertTrue((512...513).contains(turned.size.height), "\(turned.size)")  // 513: rounding of the turn, rounded up
        XCTAssertLessThan(turned.size.width, 20)
        // The size fitted back gives the zoom it was made for.
        let fitted = try Snapshotter.camera(for: wide, size: turned.size, bearing: 90)
        XCTAssertEqual(try XCTUnwrap(fitted.zoom), 2, accuracy: 0.05)
    }

    // MARK: Counters

    /// Feature-state generations are the snapshotter's own: another's changes do not step them.
    func testStateGenerationsArePerSnapshotter() {
        let a = Snapshotter(options: MapSnapshotOptions(size: Size(width: 16, height: 16)))
        let b = Snapshotter(options: MapSnapshotOptions(size: Size(width: 16, height: 16)))
        defer { a.close(); b.close() }
        for i in 0..<3 { b.setFeatureState(source: "s", id: "\(i)", state: ["hover": .bool(true)]) }
        a.setFeatureState(source: "s", id: "1", state: ["hover": .bool(true)])
        XCTAssertEqual(a.currentFeatureStates().generation, 1)
        XCTAssertEqual(b.currentFeatureStates().generation, 3)
    }

    /// Style generations are unique in the process: a variant made by one snapshotter and drawn by
    /// another (whose caches hold a style of its own, with the same source and layer names) is
    /// drawn from its own data, not the other's cached tiles.
    func testAVariantDrawnByAnotherSnapshotterIsItsOwn() throws {
        func style(_ west: Double, _ color: String) -> String {
            #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "Polygon", "coordinates": [[[\#(west), -40], [\#(west + 60), -40], [\#(west + 60), 40], [\#(west), 40], [\#(west), -40]]]}}},"#
                + #""layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}}, {"id": "l", "type": "fill", "source": "s", "paint": {"fill-color": "\#(color)"}}]}"#
        }
        let options = MapSnapshotOptions(size: Size(width: 64, height: 64))
        let a = Snapshotter(options: options), b = Snapshotter(options: options)
        defer { a.close(); b.close() }
        try b.setStyle(json: style(-170, "blue"))
        try a.setStyle(json: style(20, "red"))
        let camera = CameraOptions(center: Coordinate(latitude: 0, longitude: 0), zoom: 0)
        _ = try b.snapshot(camera: camera)
        let variant = try a.variant { _ in }
        let byA = try a.snapshot(camera: camera, variant: variant).image
        let byB = try b.snapshot(camera: camera, variant: variant).image
        XCTAssertTrue(byA == byB, "b drew its own cached tiles for a's variant")
    }
}
