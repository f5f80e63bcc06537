import XCTest
@testable import GLSnapData

final class GLSnapDataSmokeTests: XCTestCase {
    func testModuleLoads() {}
}
