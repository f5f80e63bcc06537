import Foundation
import XCTest
import GLSnapTestSupport

/// Paths the tests use: the repository root, ../shared, and the built executables.
enum TestPaths {
    static let root = TestRepository.root
    /// Where ../shared is looked for (SharedFolder); tests that read it call `requireShared` first.
    static var shared: URL { SharedFolder.expectedURL }
    static var example: String { root.appendingPathComponent("examples/chicago/style.json").path }

    static func requireShared(_ relative: String = "") throws -> URL {
        try SharedFolder.require(relative)
    }

    /// A built executable next to the test bundle (.build/<config>/name).
    static func executable(_ name: String) throws -> String {
        var dir = Bundle.main.bundleURL
        for _ in 0..<4 {
            let p = dir.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: p) { return p }
            dir.deleteLastPathComponent()
        }
        let p = root.appendingPathComponent(".build/debug/\(name)").path
        guard FileManager.default.isExecutableFile(atPath: p) else { throw XCTSkip("\(name) is not built") }
        return p
    }

    /// A fresh temporary folder.
    static func temporaryDirectory() throws -> URL {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("glsnap-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        return d
    }
}

/// Runs a program and returns its exit status and output.
func runProcess(_ path: String, _ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = args
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
}
