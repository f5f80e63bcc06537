import XCTest
import GLSnapTestSupport
@testable import GLSnapGL

final class ContextTests: XCTestCase {
    func testOSMesaClearAndReadBack() throws {
        let ctx = try GLContext(backend: .osmesa)
        XCTAssertGreaterThanOrEqual(ctx.maxFramebufferSize, 4096)
        let fb = try Framebuffer(context: ctx, width: 3, height: 2)
        fb.bind()
        // Premultiplied half-transparent red: reads back as straight (255, 0, 0, 128).
        fb.clear(r: 128.0 / 255, g: 0, b: 0, a: 128.0 / 255)
        var out = [UInt8](repeating: 0, count: 3 * 2 * 4)
        try out.withUnsafeMutableBytes { try fb.read(intoStraightRGBA: $0) }
        XCTAssertEqual(Array(out[0..<4]), [255, 0, 0, 128])
    }

    func testRowsComeBackTopFirst() throws {
        let ctx = try GLContext(backend: .osmesa)
        let fb = try Framebuffer(context: ctx, width: 4, height: 4)
        fb.bind()
        fb.clear(r: 0, g: 0, b: 1, a: 1)
        // Paint the top half (GL's upper rows) green with a scissored clear.
        ctx.clearColor(x: 0, y: 2, width: 4, height: 2, r: 0, g: 1, b: 0, a: 1)
        var out = [UInt8](repeating: 0, count: 4 * 4 * 4)
        try out.withUnsafeMutableBytes { try fb.read(intoStraightRGBA: $0) }
        XCTAssertEqual(Array(out[0..<4]), [0, 255, 0, 255], "first row is the top of the image")
        XCTAssertEqual(Array(out[(3 * 16)..<(3 * 16 + 4)]), [0, 0, 255, 255])
    }

    /// Where EGL exists (EGLProbe: libEGL loads and a device or the surfaceless platform is
    /// there), the EGL backend must make a context and draw: any error fails the test. Only where
    /// it does not exist does the test skip, after checking that the error names EGL or the
    /// package to install.
    func testEGLDrawsWhereEGLExists() throws {
        if let absence = EGLProbe.absence {
            XCTAssertThrowsError(try GLContext(backend: .egl)) { e in
                XCTAssertTrue("\(e)".contains("egl") || "\(e)".contains("EGL") || "\(e)".contains("install"), "\(e)")
            }
            throw XCTSkip("EGL does not exist here: \(absence)")
        }
        let ctx = try GLContext(backend: .egl)
        let fb = try Framebuffer(context: ctx, width: 2, height: 2)
        fb.bind()
        fb.clear(r: 0, g: 1, b: 0, a: 1)
        var out = [UInt8](repeating: 0, count: 16)
        try out.withUnsafeMutableBytes { try fb.read(intoStraightRGBA: $0) }
        XCTAssertEqual(Array(out[0..<4]), [0, 255, 0, 255])
    }

    func testOversizedFramebufferIsRefused() throws {
        let ctx = try GLContext(backend: .osmesa)
        XCTAssertThrowsError(try Framebuffer(context: ctx, width: 100_000, height: 10)) { e in
            XCTAssertTrue("\(e)".contains("100000x10"), "\(e)")
        }
    }

    /// Straight alpha from premultiplied: opaque pixels (skipped in pairs) stay, the others are
    /// divided by their alpha, rounding to nearest; odd counts and a translucent pixel next to an
    /// opaque one included.
    func testUnpremultiplyMatchesTheFormula() {
        var seed: UInt32 = 99
        for count in [1, 2, 3, 7, 64, 101] {
            var pixels = [UInt8](repeating: 0, count: count * 4)
            for i in 0..<count {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let a = [255, 255, 255, 0, 128, 1, 200][Int(seed >> 24) % 7]
                pixels[i * 4 + 3] = UInt8(a)
                for c in 0..<3 { pixels[i * 4 + c] = UInt8(Int(seed >> UInt32(c * 8) & 0xFF) * a / 255) }
            }
            var expected = pixels
            for i in 0..<count where expected[i * 4 + 3] != 255 && expected[i * 4 + 3] != 0 {
                let a = Int(expected[i * 4 + 3])
                for c in 0..<3 { expected[i * 4 + c] = UInt8(min(255, (Int(expected[i * 4 + c]) * 255 + a / 2) / a)) }
            }
            pixels.withUnsafeMutableBufferPointer { unpremultiply($0.baseAddress!, count: count) }
            XCTAssertEqual(pixels, expected, "\(count) pixels")
        }
    }

    /// A program that grows its environment after copies of Mesa are loaded (a Python service
    /// setting os.environ between maps) can still make contexts in every copy: each copy's C
    /// library is pointed at the current environment. Before, the copies read the array setenv
    /// had freed, and this crashed in getenv.
    func testContextsAfterTheEnvironmentGrows() throws {
        let rasterizer = SoftwareRasterizer(threads: 0, copies: OSMesaCopies.maxCopies)
        var contexts: [GLContext] = []
        for _ in 0..<3 { contexts.append(try GLContext(backend: .osmesa, rasterizer: rasterizer)) }
        let names = (0..<64).map { "GLSNAP_TEST_GROWN_\($0)" }
        for name in names { setenv(name, String(repeating: "x", count: 64), 1) }
        defer { for name in names { unsetenv(name) } }
        for _ in 0..<3 { contexts.append(try GLContext(backend: .osmesa, rasterizer: rasterizer)) }
        contexts.removeAll()
        for _ in 0..<4 { contexts.append(try GLContext(backend: .osmesa, rasterizer: rasterizer)) }
        XCTAssertEqual(contexts.count, 4)
    }

    /// Copies of Mesa in namespaces of their own start no threads: a thread started by a copy's C
    /// library can reuse a stack of the main one's from glibc's shared stack cache and free its
    /// thread-local blocks with the wrong allocator (see `OSMesaCopies.Copy.isolatedEnvironment`).
    /// Mesa's shader disk cache thread was such a thread, one per copy (3 in this test before).
    /// Threads are counted by the change: other tests (and EGL's screen) may have started theirs.
    func testCopiesOfMesaStartNoThreads() throws {
        func diskThreads() -> Int {
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).filter {
                ((try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8)) ?? "").contains("disk$")
            }.count
        }
        let before = diskThreads()
        let rasterizer = SoftwareRasterizer(threads: 0, copies: OSMesaCopies.maxCopies)
        var contexts: [GLContext] = []
        for _ in 0..<3 { contexts.append(try GLContext(backend: .osmesa, rasterizer: rasterizer)) }
        for c in contexts { try c.makeCurrent(); c.releaseCurrent() }
        XCTAssertLessThanOrEqual(diskThreads() - before, 1, "disk cache threads started (one at most, the main copy's)")
        // What the copies read for their environment, through their own C libraries.
        for copy in OSMesaCopies.shared.loaded where copy.isIsolated {
            XCTAssertEqual(copy.environmentValue("LP_NUM_THREADS"), "0")
            XCTAssertEqual(copy.environmentValue("MESA_SHADER_CACHE_DISABLE"), "true")
        }
        let entries = OSMesaCopies.Copy.isolatedEntries(from: ["HOME=/root", "LP_NUM_THREADS=4", "MESA_SHADER_CACHE_DISABLE=false"])
        XCTAssertEqual(entries, ["HOME=/root", "LP_NUM_THREADS=0", "MESA_SHADER_CACHE_DISABLE=true", "MESA_GLSL_CACHE_DISABLE=true"])
    }

    /// `GLSNAP_MESA_COPIES=1` (tools/sanitize.sh's setting) keeps every context on the first
    /// copy of Mesa, even while another holds it and the rasterizer allows four. The value is
    /// handed in, not set with setenv: changing the environment once copies of Mesa are loaded
    /// frees the array their C libraries read (see `SoftwareRasterizer.applyOnce`).
    func testEnvironmentCapsTheMesaCopies() throws {
        let cap = OSMesaCopies.cap("1")
        XCTAssertEqual(cap, 1)
        let first = try OSMesaCopies.shared.acquire(limit: OSMesaCopies.maxCopies, cap: cap)
        defer { OSMesaCopies.shared.release(first) }
        let second = try OSMesaCopies.shared.acquire(limit: OSMesaCopies.maxCopies, cap: cap)
        defer { OSMesaCopies.shared.release(second) }
        XCTAssertTrue(first === second, "a second copy of Mesa was used despite \(OSMesaCopies.environmentKey)=1")
        for invalid in ["0", "5", "two", ""] { XCTAssertNil(OSMesaCopies.cap(invalid), "\(invalid) is not a valid cap") }
        XCTAssertNil(OSMesaCopies.cap(nil))
    }
}
