import XCTest
import Foundation

/// The committed GL function table must be what tools/gen-gl.py writes: run the generator when this fails.
final class GeneratedTableTests: XCTestCase {
    func testGLFunctionTableIsCurrent() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let python else { throw XCTSkip("python3 is not installed") }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("GLFunctions-\(UUID().uuidString).swift")
        defer { try? FileManager.default.removeItem(at: out) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = [root.appendingPathComponent("tools/gen-gl.py").path, out.path]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        let fresh = try String(contentsOf: out, encoding: .utf8)
        let committed = try String(contentsOf: root.appendingPathComponent("Sources/GLSnapGL/Generated/GLFunctions.swift"), encoding: .utf8)
        XCTAssertEqual(fresh, committed, "Sources/GLSnapGL/Generated/GLFunctions.swift is stale: run tools/gen-gl.py")
    }
}
