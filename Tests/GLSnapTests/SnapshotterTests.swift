import XCTest
@testable import GLSnap
@testable import GLSnapGL
import GLSnapImage
import GLSnapTestSupport

final class SnapshotterTests: XCTestCase {
    private let chicago = Coordinate(latitude: 41.87, longitude: -87.65)

    private func snapshotter(ratio: Double = 1, size: Size = Size(width: 256, height: 192)) throws -> Snapshotter {
        let s = Snapshotter(options: MapSnapshotOptions(size: size, pixelRatio: ratio))
        try s.setStyle(path: TestPaths.example)
        s.setCamera(CameraOptions(center: chicago, zoom: 14))
        return s
    }

    /// Counts pixels close to an RGB color.
    private func count(_ image: RGBAImage, near rgb: (Int, Int, Int), tolerance: Int = 6) -> Int {
        var n = 0
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            if abs(Int(image.pixels[i]) - rgb.0) <= tolerance, abs(Int(image.pixels[i + 1]) - rgb.1) <= tolerance,
               abs(Int(image.pixels[i + 2]) - rgb.2) <= tolerance { n += 1 }
        }
        return n
    }

    func testImageSizeFollowsPixelRatio() throws {
        for (ratio, w, h) in [(1.0, 256, 192), (2.0, 512, 384), (3.0, 768, 576), (1.5, 384, 288)] {
            let snap = try snapshotter(ratio: ratio).snapshot()
            XCTAssertEqual(snap.image.width, w, "ratio \(ratio)")
            XCTAssertEqual(snap.image.height, h, "ratio \(ratio)")
        }
        // Fractional sizes round down.
        let odd = try snapshotter(ratio: 1.5, size: Size(width: 101, height: 33)).snapshot()
        XCTAssertEqual(odd.image.width, 151)
        XCTAssertEqual(odd.image.height, 49)
    }

    func testDrawsTheStylesLayers() throws {
        let image = try snapshotter().snapshot().image
        // Bright's background (#f8f4f0) covers most of the map; roads (#fed78d-ish) are drawn too.
        XCTAssertGreaterThan(count(image, near: (248, 244, 240)), image.width * image.height / 8)
        XCTAssertGreaterThan(count(image, near: (254, 215, 141), tolerance: 30), 200, "no road color found")
        XCTAssertTrue(image.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 }, "map is opaque")
    }

    func testPointAndCoordinateConversion() throws {
        let s = try snapshotter(ratio: 2)
        s.setCamera(CameraOptions(center: chicago, zoom: 14, bearing: 30, pitch: 40))
        let snap = try s.snapshot()
        let p = snap.point(for: chicago)
        XCTAssertEqual(p.x, 128, accuracy: 1e-6)
        XCTAssertEqual(p.y, 96, accuracy: 1e-6)
        let corner = snap.coordinate(for: Point(x: 10, y: 150))
        let back = snap.point(for: corner)
        XCTAssertEqual(back.x, 10, accuracy: 1e-6)
        XCTAssertEqual(back.y, 150, accuracy: 1e-6)
    }

    func testBoundsFitTheView() throws {
        let s = try snapshotter()
        let bounds = CoordinateBounds(west: -87.70, south: 41.85, east: -87.60, north: 41.90)
        s.setCamera(CameraOptions(bounds: bounds, padding: EdgeInsets(all: 10)))
        let snap = try s.snapshot()
        let sw = snap.point(for: bounds.southwest), ne = snap.point(for: bounds.northeast)
        // The box fills the view on its limiting axis, inside the padding.
        XCTAssertGreaterThanOrEqual(sw.x, 9.99); XCTAssertLessThanOrEqual(ne.x, 246.01)
        XCTAssertGreaterThanOrEqual(ne.y, 9.99); XCTAssertLessThanOrEqual(sw.y, 182.01)
        XCTAssertTrue(abs(sw.x - 10) < 0.01 || abs(ne.y - 10) < 0.01, "fit touches the padding on one axis")
    }

    func testOverlayDrawsWithTheConversion() throws {
        let s = try snapshotter(ratio: 2)
        let snap = try s.snapshot { overlay in
            overlay.fillCircle(center: overlay.point(for: self.chicago), radius: 5, r: 1, g: 0, b: 0)
        }
        // The center of the image (128, 96 points = 256, 192 pixels) is now red.
        let o = (192 * snap.image.width + 256) * 4
        XCTAssertEqual(Array(snap.image.pixels[o..<o + 4]), [255, 0, 0, 255])
    }

    func testSnapshotsReuseCachesAndStayIdentical() throws {
        let s = try snapshotter()
        let a = try s.snapshot().image
        let b = try s.snapshot().image
        XCTAssertEqual(a, b)
        try XCTAssertEqual(PNGDecoder().decode(s.snapshot().pngData()), a)
        // The same camera twice gives the same bytes, with both PNG writers.
        for options in [PNGEncoder.Options.fast, .standard] {
            try XCTAssertEqual(s.snapshot().pngData(options: options), s.snapshot().pngData(options: options))
        }
    }

    /// Skips only where EGL does not exist (EGLProbe); where it does, an EGL failure fails.
    func testEGLBackendMatchesOSMesa() throws {
        try EGLProbe.requireEGL()
        let osmesa = try snapshotter().snapshot().image
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 256, height: 192)), configuration: .init(backend: .egl))
        try s.setStyle(path: TestPaths.example)
        s.setCamera(CameraOptions(center: chicago, zoom: 14))
        let egl = try s.snapshot().image
        XCTAssertLessThan(pixelmatch(osmesa, egl, threshold: 0.1, includeAA: true), osmesa.width * osmesa.height / 1000)
    }

    /// Runs `body` on a thread of its own, with a stack of `stackSize` bytes, that ends after it.
    private func onNewThread<T>(stackSize: Int = 8 << 20, _ body: @escaping () throws -> T) throws -> T {
        var result: Result<T, Error>?
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            result = Result { try body() }
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        done.wait()
        return try result!.get()
    }

    /// Workers on copies of Mesa of their own draw what one shared copy draws, also from a thread
    /// other than the one that loaded the copy (each thread sets up the copy's C library for
    /// itself; without that, LLVM crashed in isalpha).
    func testWorkersOnSeparateMesaCopiesDrawLikeOneSharedCopy() throws {
        if let cap = OSMesaCopies.environmentLimit, cap < 2 {
            throw XCTSkip("\(OSMesaCopies.environmentKey)=\(cap) keeps this process on one copy of Mesa")
        }
        let cameras = [14.0, 15.0, 13.5, 16.0].map { CameraOptions(center: chicago, zoom: $0) }
        func snapshotter(_ rasterizer: SoftwareRasterizer, workers: Int) throws -> Snapshotter {
            let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 256, height: 192)),
                                configuration: .init(workers: workers, rasterizer: rasterizer, drawOnCallingThread: true))
            try s.setStyle(path: TestPaths.example)
            return s
        }
        let one = try snapshotter(SoftwareRasterizer(threads: 0, copies: 1), workers: 1)
        let shared = try cameras.map { try one.snapshot(camera: $0).image }

        let two = try snapshotter(SoftwareRasterizer(threads: 0), workers: 2)
        // Both contexts made on a thread that then ends: the second, made while the first is
        // alive, gets a copy of Mesa of its own.
        try onNewThread { for w in two.workers { try w.run { _ in } } }
        XCTAssertGreaterThanOrEqual(OSMesaCopies.shared.count, 2)
        // Another thread draws; it takes the last free worker, the one on the separate copy.
        let separate = try onNewThread { try cameras.map { try two.snapshot(camera: $0).image } }
        XCTAssertEqual(separate, shared)
    }

    /// With `drawOnCallingThread`, a caller with a small stack still hands the drawing to a thread
    /// with a stack large enough for LLVM, and gets the same image as the default render thread.
    func testSnapshotFromASmallStackThread() throws {
        let expected = try snapshotter().snapshot().image
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 256, height: 192)),
                            configuration: .init(drawOnCallingThread: true))
        try s.setStyle(path: TestPaths.example)
        s.setCamera(CameraOptions(center: chicago, zoom: 14))
        XCTAssertEqual(try onNewThread(stackSize: 512 << 10) { try s.snapshot().image }, expected)
    }

    /// Every shared cache, laid-out symbols included, stays within its byte budget; a snapshotter
    /// whose caches hold almost nothing draws what one with the default budgets draws.
    func testCachesStayWithinTheirBudgets() throws {
        let cameras = [14.0, 15.0, 16.0, 14.5].map { CameraOptions(center: chicago, zoom: $0) }
        let roomy = try snapshotter()
        var options = MapSnapshotOptions(size: Size(width: 256, height: 192))
        for path in [\Limits.tileCacheBytes, \Limits.geometryCacheBytes, \Limits.rasterCacheBytes, \Limits.symbolCacheBytes] {
            options.limits[keyPath: path] = 4096
        }
        let tight = Snapshotter(options: options)
        try tight.setStyle(path: TestPaths.example)
        for camera in cameras {
            XCTAssertEqual(try tight.snapshot(camera: camera).image, try roomy.snapshot(camera: camera).image)
            let c = tight.cachedBytes
            for (name, bytes) in [("tiles", c.tiles), ("geometry", c.geometry), ("rasters", c.rasters), ("symbols", c.symbols)] {
                XCTAssertLessThanOrEqual(bytes, 4096, name)
            }
        }
        XCTAssertGreaterThan(roomy.cachedBytes.symbols, 4096)
    }
}
