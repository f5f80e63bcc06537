import Foundation
import XCTest
import GLSnapConformance

/// `local://mvt-fixtures/…` (the older suite's real-world cases) reads the project's copy of
/// mvt-fixtures 4.0.0 unless the suite has an `mvt-fixtures` folder of its own.
final class MVTFixturesRewriteTests: XCTestCase {
    let tile = "local://mvt-fixtures/real-world/bangkok/12-3188-1888.mvt"

    func testTheProjectCopyServesASuiteWithoutOne() throws {
        let vendored = try XCTUnwrap(vendoredMVTFixtures, "test-data/mvt-fixtures is part of the checkout")
        let suite = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: suite) }
        let path = try XCTUnwrap(makeLocalRewrite(suiteDir: suite.path)(tile))
        XCTAssertEqual(path, vendored + "/real-world/bangkok/12-3188-1888.mvt")
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        // Other folders stay the suite's; a climb out is still refused.
        XCTAssertEqual(makeLocalRewrite(suiteDir: suite.path)("local://tiles/0-0-0.mvt"), suite.path + "/tiles/0-0-0.mvt")
        XCTAssertNil(makeLocalRewrite(suiteDir: suite.path)("local://mvt-fixtures/../x"))
    }

    func testASuitesOwnFolderWins() throws {
        let suite = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: suite) }
        try FileManager.default.createDirectory(at: suite.appendingPathComponent("mvt-fixtures"), withIntermediateDirectories: true)
        XCTAssertEqual(makeLocalRewrite(suiteDir: suite.path)(tile), suite.path + "/mvt-fixtures/real-world/bangkok/12-3188-1888.mvt")
    }
}
