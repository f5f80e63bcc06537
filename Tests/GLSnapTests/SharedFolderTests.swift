import Foundation
import XCTest
import GLSnapTestSupport

/// The one way the tests find ../shared: GLSNAP_SHARED names another folder, an absent one makes
/// `require` skip with the missing path in the reason.
final class SharedFolderTests: XCTestCase {
    private func withShared<T>(_ value: String, _ body: () throws -> T) rethrows -> T {
        let old = ProcessInfo.processInfo.environment["GLSNAP_SHARED"]
        setenv("GLSNAP_SHARED", value, 1)
        defer { if let old { setenv("GLSNAP_SHARED", old, 1) } else { unsetenv("GLSNAP_SHARED") } }
        return try body()
    }

    func testAbsentFolderSkipsNamingThePath() throws {
        let missing = "/nonexistent-glsnap-shared-\(UUID().uuidString)"
        try withShared(missing) {
            XCTAssertNil(SharedFolder.url)
            XCTAssertThrowsError(try SharedFolder.require("fixtures/styles/x.json")) { error in
                XCTAssertTrue(error is XCTSkip, "\(error)")
                XCTAssertTrue("\(error)".contains(missing + "/fixtures/styles/x.json"), "\(error)")
            }
        }
    }

    func testNamedFolderIsUsed() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("{}".utf8).write(to: dir.appendingPathComponent("a.json"))
        try withShared(dir.path) {
            XCTAssertEqual(SharedFolder.url?.standardizedFileURL.path, dir.standardizedFileURL.path)
            XCTAssertEqual(try SharedFolder.require("a.json").lastPathComponent, "a.json")
        }
    }

    func testRepositoryRootHoldsThePackage() {
        XCTAssertTrue(FileManager.default.fileExists(atPath: TestRepository.root.appendingPathComponent("Package.swift").path))
    }
}
