import XCTest
import GLSnapStyle

/// The evaluation benchmark; skipped unless GLSNAP_BENCH=1 (run it on a release build:
/// `GLSNAP_BENCH=1 swift test -c release --filter ExpressionBenchmarkTests`).
final class ExpressionBenchmarkTests: XCTestCase {
    func testMillionFeatures() throws {
        guard ProcessInfo.processInfo.environment["GLSNAP_BENCH"] == "1" else { throw XCTSkip("set GLSNAP_BENCH=1 to run") }
        let result = try XCTUnwrap(ExpressionBenchmark.run(featureCount: 1_000_000))
        print("expression benchmark: \(result)")
        XCTAssertGreaterThan(result.checksum, 0)
    }
}
