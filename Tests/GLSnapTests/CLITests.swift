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
                                 (["render", "--backend", "vulkan"], "osmesa or egl"),
                                 (["frobnicate"], "unknown command")] {
            let r = try runProcess(glsnap, args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(expected), "\(args): \(r.stderr)")
        }
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
}
