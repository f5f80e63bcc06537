import Foundation
import GLSnapImage
import XCTest

/// `glsnap render` writes its image without losing the earlier file: to a temporary file renamed
/// on success; links stay links, FIFOs are written in place, the mode is kept.
final class OutputFileTests: XCTestCase {
    private let earlier = Data("the earlier file".utf8)

    /// Files in `dir` other than `keep`.
    private func strays(in dir: URL, keeping keep: Set<String>) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { !keep.contains($0) }
    }

    private func isPNG(_ path: String) throws -> Bool {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        return (try? PNGDecoder().decode(bytes)) != nil
    }

    func testAFailedRenderKeepsTheEarlierFile() throws {
        let glsnap = try TestPaths.executable("glsnap")
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("map.png")
        try earlier.write(to: out)
        // A style that fails once drawing has begun: --strict and a tile that is not a vector tile.
        try Data("\u{1A}\u{05}trunc".utf8).write(to: dir.appendingPathComponent("0-0-0.mvt"))
        let style = dir.appendingPathComponent("style.json")
        try Data(#"""
        {"version": 8, "center": [0, 0], "zoom": 0,
         "sources": {"t": {"type": "vector", "tiles": ["{z}-{x}-{y}.mvt"], "maxzoom": 0}},
         "layers": [{"id": "l", "type": "line", "source": "t", "source-layer": "x"}]}
        """#.utf8).write(to: style)
        let r = try runProcess(glsnap, ["render", "--strict", "--style", style.path, "--size", "64x64", "-o", out.path])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(try Data(contentsOf: out), earlier)
        XCTAssertEqual(try strays(in: dir, keeping: ["map.png", "0-0-0.mvt", "style.json"]), [])
    }

    func testASuccessfulRenderReplacesTheFileAndKeepsItsMode() throws {
        let glsnap = try TestPaths.executable("glsnap")
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("map.png")
        try earlier.write(to: out)
        XCTAssertEqual(chmod(out.path, 0o640), 0)
        let r = try runProcess(glsnap, ["render", "--size", "64x64", "-o", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(try isPNG(out.path))
        let mode = (try FileManager.default.attributesOfItem(atPath: out.path)[.posixPermissions] as? Int) ?? 0
        XCTAssertEqual(mode, 0o640)
        XCTAssertEqual(try strays(in: dir, keeping: ["map.png"]), [])
    }

    func testALinkStaysALink() throws {
        let glsnap = try TestPaths.executable("glsnap")
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("target.png")
        try earlier.write(to: target)
        let link = dir.appendingPathComponent("link.png")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "target.png")
        let r = try runProcess(glsnap, ["render", "--size", "64x64", "-o", link.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), "target.png")
        XCTAssertTrue(try isPNG(target.path))
        XCTAssertEqual(try strays(in: dir, keeping: ["target.png", "link.png"]), [])
    }

    func testAFIFOIsWrittenInPlace() throws {
        let glsnap = try TestPaths.executable("glsnap")
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("pipe")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        // The reader drains the FIFO while the render writes into it.
        var received = Data()
        let reader = Thread { received = FileHandle(forReadingAtPath: fifo.path)?.readDataToEndOfFile() ?? Data() }
        reader.start()
        let r = try runProcess(glsnap, ["render", "--size", "64x64", "-o", fifo.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let deadline = Date().addingTimeInterval(10)
        while !reader.isFinished, Date() < deadline { usleep(10_000) }
        var info = stat()
        XCTAssertEqual(lstat(fifo.path, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "the FIFO was replaced")
        XCTAssertNotNil(try? PNGDecoder().decode([UInt8](received)))
    }

    func testAKilledRenderLeavesTheEarlierFile() throws {
        let glsnap = try TestPaths.executable("glsnap")
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("big.png")
        try earlier.write(to: out)
        for signal in [SIGKILL, SIGTERM] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: glsnap)
            p.arguments = ["render", "--quiet", "--size", "6000x6000", "-o", out.path]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            // Killed once the temporary file exists, while pieces are being drawn.
            let deadline = Date().addingTimeInterval(20)
            while try strays(in: dir, keeping: ["big.png"]).isEmpty, p.isRunning, Date() < deadline { usleep(20_000) }
            usleep(300_000)
            XCTAssertTrue(p.isRunning, "the render ended before it could be killed")
            kill(p.processIdentifier, signal)
            p.waitUntilExit()
            XCTAssertEqual(try Data(contentsOf: out), earlier, "signal \(signal)")
            let left = try strays(in: dir, keeping: ["big.png"])
            if signal == SIGKILL {
                // kill -9 leaves the temporary file, never a partial file under the final name.
                XCTAssertTrue(left.allSatisfy { $0.hasPrefix(".big.png.glsnap-") }, "\(left)")
                left.forEach { try? FileManager.default.removeItem(at: dir.appendingPathComponent($0)) }
            } else {
                XCTAssertEqual(left, [], "SIGTERM removes the temporary file")
            }
        }
    }

    func testAnUnknownExtensionIsAUsageError() throws {
        let glsnap = try TestPaths.executable("glsnap")
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try runProcess(glsnap, ["render", "--size", "64x64", "-o", dir.appendingPathComponent("out.tiff").path])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains(".tiff"), r.stderr)
        XCTAssertEqual(try strays(in: dir, keeping: []), [])
    }
}
