import XCTest
@testable import GLSnapImage

final class GLSnapImageSmokeTests: XCTestCase {
    func testModuleLoads() {}
}
