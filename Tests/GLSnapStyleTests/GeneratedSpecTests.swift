import XCTest
import GLSnapTestSupport

/// The committed Generated/*.swift must be what tools/gen-spec.py makes of ../shared/style-spec/v8.json.
final class GeneratedSpecTests: XCTestCase {
    func testGeneratedTablesAreCurrent() throws {
        let shared = try SharedFolder.require()
        let repo = TestRepository.root
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("glsnap-gen-spec-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", repo.appendingPathComponent("tools/gen-spec.py").path,
                       shared.appendingPathComponent("style-spec/v8.json").path, tmp.appendingPathComponent("SpecSchema.swift").path]
        do { try p.run() } catch { throw XCTSkip("python3 is not available: \(error)") }
        p.waitUntilExit()
        if p.terminationStatus == 127 { throw XCTSkip("python3 is not installed") }
        XCTAssertEqual(p.terminationStatus, 0, "tools/gen-spec.py failed")
        for name in ["SpecSchema.swift"] {
            let fresh = try Data(contentsOf: tmp.appendingPathComponent(name))
            let committed = try Data(contentsOf: repo.appendingPathComponent("Sources/GLSnapStyle/Generated/\(name)"))
            XCTAssertTrue(fresh == committed, "Sources/GLSnapStyle/Generated/\(name) is stale: run tools/gen-spec.py ../shared/style-spec/v8.json")
        }
    }
}
