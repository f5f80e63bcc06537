import Foundation
import GLSnapImage
import GLSnapTestSupport
import XCTest

/// The `glsnap` command as a user runs it: exit codes and messages.
final class CLITests: XCTestCase {
    func testRendersTheBundledExample() throws {
        let glsnap = try TestPaths.executable("glsnap")
        let out = try TestPaths.temporaryDirectory().appendingPathComponent("map.png").path
        let r = try runProcess(glsnap, ["render", "--size", "200x100", "--ratio", "2", "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("400x200"), r.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out))
    }

    func testNegativeCenterIsAValue() throws {
        let glsnap = try TestPaths.executable("glsnap")
        let out = try TestPaths.temporaryDirectory().appendingPathComponent("map.png").path
        let r = try runProcess(glsnap, ["render", "--center", "-87.65,41.87", "--zoom", "13", "--size", "64x64", "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    func testUsageErrorsExitTwo() throws {
        let glsnap = try TestPaths.executable("glsnap")
        for (args, expected) in [(["render", "--size", "0x10"], "--size"),
                                 (["render", "--size", "100000x100000"], "exceeds"),
                                 (["render", "--zoom"], "--zoom needs a value"),
                                 (["render", "--bogus"], "unknown option --bogus"),
                                 (["render", "--strict=yes"], "--strict takes no value"),
                                 (["render", "--backend", "vulkan"], "osmesa or egl"),
                                 (["frobnicate"], "unknown command")] {
            let r = try runProcess(glsnap, args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(expected), "\(args): \(r.stderr)")
        }
    }

    /// glsnap and glsnap-conformance read options with one reader: the same words for the same mistakes.
    func testBothExecutablesWordUsageMistakesAlike() throws {
        let glsnap = try TestPaths.executable("glsnap"), conformance = try TestPaths.executable("glsnap-conformance")
        let dir = try TestPaths.temporaryDirectory().path
        // An empty render suite, so the runner reaches its other options.
        try FileManager.default.createDirectory(atPath: dir + "/render/tests", withIntermediateDirectories: true)
        for (glsnapArgs, conformanceArgs, expected) in [
            (["render", "--zoom"], ["render", "--suite"], "needs a value"),
            (["render", "--bogus"], ["render", "--bogus"], "unknown option --bogus"),
            (["render", "--ratio", "abc"], ["render", "--suite", dir, "--min-pass-rate", "abc"], "expects a number, got 'abc'"),
            (["render", "--ratio", "1e400"], ["render", "--suite", dir, "--min-pass-rate", "1e400"], "expects a number, got '1e400'"),
            (["render", "--strict=1"], ["render", "--verbose=1"], "takes no value"),
        ] {
            let a = try runProcess(glsnap, glsnapArgs), b = try runProcess(conformance, conformanceArgs)
            XCTAssertEqual(a.status, 2, "\(glsnapArgs): \(a.stderr)")
            XCTAssertEqual(b.status, 2, "\(conformanceArgs): \(b.stderr)")
            XCTAssertTrue(a.stderr.contains(expected), "\(glsnapArgs): \(a.stderr)")
            XCTAssertTrue(b.stderr.contains(expected), "\(conformanceArgs): \(b.stderr)")
        }
        let r = try runProcess(conformance, ["validation", "--suite", dir, "extra"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("unexpected argument 'extra'"), r.stderr)
        let range = try runProcess(conformance, ["render", "--suite", dir, "--min-pass-rate", "2"])
        XCTAssertEqual(range.status, 2)
        XCTAssertTrue(range.stderr.contains("--min-pass-rate must be within 0...1, got 2"), range.stderr)
    }

    func testRenderFailuresExitOneNamingTheFile() throws {
        let glsnap = try TestPaths.executable("glsnap")
        let dir = try TestPaths.temporaryDirectory()
        let bad = dir.appendingPathComponent("bad.json")
        try Data("not json".utf8).write(to: bad)
        var r = try runProcess(glsnap, ["render", "--style", bad.path, "-o", dir.appendingPathComponent("x.png").path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("bad.json"), r.stderr)
        r = try runProcess(glsnap, ["render", "--style", dir.appendingPathComponent("none.json").path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("none.json") && r.stderr.contains("no such file"), r.stderr)
    }

    func testHelpOnEveryCommand() throws {
        let glsnap = try TestPaths.executable("glsnap")
        for cmd in ["render", "validate"] {
            let r = try runProcess(glsnap, [cmd, "--help"])
            XCTAssertEqual(r.status, 0)
            XCTAssertTrue(r.stdout.contains("usage: glsnap \(cmd)"), r.stdout)
        }
    }

    /// A style whose only vector tile is a truncated file, in a fresh folder.
    private func brokenTileStyle() throws -> (style: String, folder: URL) {
        let dir = try TestPaths.temporaryDirectory()
        try Data("\u{1A}\u{05}trunc".utf8).write(to: dir.appendingPathComponent("0-0-0.mvt"))
        let style = dir.appendingPathComponent("style.json")
        try Data(#"""
        {"version": 8, "center": [0, 0], "zoom": 0,
         "sources": {"t": {"type": "vector", "tiles": ["{z}-{x}-{y}.mvt"], "maxzoom": 0},
                     "m": {"type": "vector", "url": "mbtiles://missing.mbtiles"}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                    {"id": "l", "type": "line", "source": "t", "source-layer": "x"},
                    {"id": "f", "type": "fill", "source": "m", "source-layer": "x"}]}
        """#.utf8).write(to: style)
        return (style.path, dir)
    }

    func testBrokenTilesAreDrawnAroundWithWarnings() throws {
        let glsnap = try TestPaths.executable("glsnap")
        let (style, dir) = try brokenTileStyle()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("map.png").path
        let r = try runProcess(glsnap, ["render", "--style", style, "--size", "64x64", "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        let warnings = r.stderr.split(separator: "\n").filter { $0.hasPrefix("glsnap: warning: ") }
        XCTAssertEqual(warnings.count, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("glsnap: warning: source \"t\": tile 0/0/0 (\(dir.path)/0-0-0.mvt): protobuf: "), r.stderr)
        XCTAssertTrue(r.stderr.contains("glsnap: warning: source \"m\": ") && r.stderr.contains("missing.mbtiles"), r.stderr)
        let image = try PNGDecoder().decode([UInt8](Data(contentsOf: URL(fileURLWithPath: out))))
        XCTAssertEqual(Array(image.pixels[0..<4]), [255, 255, 255, 255])
    }

    func testStrictTurnsBrokenTilesIntoErrors() throws {
        let glsnap = try TestPaths.executable("glsnap")
        let (style, dir) = try brokenTileStyle()
        defer { try? FileManager.default.removeItem(at: dir) }
        var r = try runProcess(glsnap, ["render", "--strict", "--style", style, "--size", "64x64",
                                        "-o", dir.appendingPathComponent("map.png").path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.hasPrefix("glsnap: source \"m\": ") && r.stderr.contains("missing.mbtiles"), r.stderr)
        // Without the missing MBTiles the truncated tile is the error, named with its source.
        let text = try String(contentsOfFile: style, encoding: .utf8)
            .replacingOccurrences(of: #""url": "mbtiles://missing.mbtiles""#, with: #""tiles": ["none/{z}/{x}/{y}.pbf"]"#)
        try Data(text.utf8).write(to: URL(fileURLWithPath: style))
        r = try runProcess(glsnap, ["render", "--strict", "--style", style, "--size", "64x64",
                                    "-o", dir.appendingPathComponent("map.png").path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.hasPrefix("glsnap: source \"t\": tile 0/0/0 (\(dir.path)/0-0-0.mvt): protobuf: "), r.stderr)
    }

    func testHTTPCacheFolderServesTheSecondRun() throws {
        let glsnap = try TestPaths.executable("glsnap")
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var pixels = [UInt8](repeating: 0, count: 256 * 256 * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) { pixels[i] = 255; pixels[i + 3] = 255 }
        let tile = try PNGEncoder().encode(RGBAImage(width: 256, height: 256, pixels: pixels))
        let server = try LoopbackServer { path in
            if path == "/style.json" {
                let style = #"{"version": 8, "sources": {"r": {"type": "raster", "tiles": ["/t/{z}/{x}/{y}.png"], "maxzoom": 0,"#
                    + #" "tileSize": 256}}, "layers": [{"id": "r", "type": "raster", "source": "r"}]}"#
                return .headers(status: 200, headers: ["Cache-Control: max-age=600"], bytes: Array(style.utf8))
            }
            if path == "/t/0/0/0.png" { return .headers(status: 200, headers: ["Cache-Control: max-age=600"], bytes: tile) }
            return .body(status: 404, bytes: [], contentType: "text/plain")
        }
        defer { server.stop() }
        let cache = dir.appendingPathComponent("cache").path
        for run in 0..<2 {
            let out = dir.appendingPathComponent("map\(run).png").path
            let r = try runProcess(glsnap, ["render", "--style", server.baseURL + "/style.json", "--center", "0,0", "--zoom", "0",
                                            "--size", "32x32", "--http-cache", cache, "-o", out])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertFalse(r.stderr.contains("warning"), r.stderr)
            let image = try PNGDecoder().decode([UInt8](Data(contentsOf: URL(fileURLWithPath: out))))
            XCTAssertEqual(Array(image.pixels[0..<4]), [255, 0, 0, 255])
        }
        XCTAssertEqual(server.requests, ["/style.json", "/t/0/0/0.png"], "the second run asked the server nothing")
        XCTAssertTrue(FileManager.default.fileExists(atPath: cache + "/glsnap-http-cache.sqlite"))
    }

    /// `glsnap bench` on the bundled example: the JSON line carries the keys the peer script
    /// reads and every stage; bad options are usage errors.
    func testBenchPrintsItsFiguresAsJSON() throws {
        let glsnap = try TestPaths.executable("glsnap")
        let r = try runProcess(glsnap, ["bench", "--count", "4", "--workers", "2", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let last = try XCTUnwrap(r.stdout.split(separator: "\n").last)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        for key in ["snapshots_per_s", "ms_p50", "ms_p95", "ms_p99", "peak_rss_bytes", "png_bytes_avg", "cpu_ms_per_snapshot",
                    "ms_tile_load", "ms_layout", "ms_placement", "ms_upload", "ms_draw", "ms_readback", "ms_encode"] {
            XCTAssertNotNil(object[key], key)
        }
        XCTAssertEqual(object["n"] as? Int, 4)
        XCTAssertGreaterThan(object["png_bytes_avg"] as? Int ?? 0, 1000)
        let bad = try runProcess(glsnap, ["bench", "--workers", "0"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--workers"), bad.stderr)
    }

    /// `glsnap bench --replay` (the README's limit table): a JSON line of each stage timed apart,
    /// and with --replay-layers each layer and the clipping masks; out-of-range counts are usage errors.
    func testBenchReplayTimesEachStage() throws {
        let glsnap = try TestPaths.executable("glsnap")
        let r = try runProcess(glsnap, ["bench", "--count", "2", "--replay", "2", "--replay-layers", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let last = try XCTUnwrap(r.stdout.split(separator: "\n").last)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        XCTAssertEqual(object["replayed_frames"] as? Int, 2)
        for key in ["ms_build", "ms_issue", "ms_rasterize", "ms_readback", "ms_encode"] {
            XCTAssertGreaterThan(object[key] as? Double ?? 0, 0, key)
        }
        XCTAssertNotNil(object["ms_issue_discarded"])
        XCTAssertTrue(r.stdout.contains("one set of clipping masks"), r.stdout)
        XCTAssertTrue(r.stdout.contains("coverage"), r.stdout)
        let bad = try runProcess(glsnap, ["bench", "--replay", "0"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--replay"), bad.stderr)
    }
}
