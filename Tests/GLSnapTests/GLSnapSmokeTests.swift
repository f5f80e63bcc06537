import XCTest
@testable import GLSnap

final class GLSnapSmokeTests: XCTestCase {
    func testModuleLoads() {}
}
