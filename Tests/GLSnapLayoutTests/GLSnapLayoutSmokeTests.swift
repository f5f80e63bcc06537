import XCTest
@testable import GLSnapLayout

final class GLSnapLayoutSmokeTests: XCTestCase {
    func testModuleLoads() {}
}
