import XCTest
@testable import GLSnapStyle

final class GLSnapStyleSmokeTests: XCTestCase {
    func testModuleLoads() {}
}
