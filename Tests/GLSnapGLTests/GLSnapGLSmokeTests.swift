import XCTest
@testable import GLSnapGL

final class GLSnapGLSmokeTests: XCTestCase {
    func testModuleLoads() {}
}
