import Foundation
import XCTest
import GLSnapConformance

/// The runner's case code as a library (GLSnapConformance): a suite folder that holds no
/// `render/tests` is a suite that cannot be read (exit 1, the error naming the folder), not a usage
/// error, since the folder given exists.
final class ConformanceLibraryTests: XCTestCase {
    func testSuiteWithoutTestsFolderCannotBeRead() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        XCTAssertThrowsError(try RenderSuite.cases(in: dir.path, kind: "render", filter: CaseFilter([]))) { error in
            XCTAssertTrue(error is ConformanceIOError, "\(error)")
            XCTAssertTrue("\(error)".contains(dir.path + ": no render/tests folder"), "\(error)")
        }
        let r = try runProcess(try TestPaths.executable("glsnap-conformance"), ["render", "--suite", dir.path])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("no render/tests folder"), r.stderr)
    }
}
