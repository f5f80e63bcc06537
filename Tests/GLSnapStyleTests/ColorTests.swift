import XCTest
@testable import GLSnapStyle

final class ColorTests: XCTestCase {
    func testCSSForms() {
        XCTAssertEqual(Color.parse("red"), Color(r: 1, g: 0, b: 0, a: 1))
        XCTAssertEqual(Color.parse("#0f0"), Color(r: 0, g: 1, b: 0, a: 1))
        XCTAssertEqual(Color.parse("#00ff0080")?.a ?? 0, 128.0 / 255, accuracy: 1e-12)
        XCTAssertEqual(Color.parse("#f008"), Color(r: 136.0 / 255, g: 0, b: 0, a: 136.0 / 255))
        XCTAssertEqual(Color.parse("rgb(255, 0, 0)"), Color(r: 1, g: 0, b: 0, a: 1))
        XCTAssertEqual(Color.parse("rgba(255, 255, 255, 0.5)"), Color(r: 0.5, g: 0.5, b: 0.5, a: 0.5))
        XCTAssertEqual(Color.parse("hsl(120, 100%, 50%)"), Color(r: 0, g: 1, b: 0, a: 1))
        let h = Color.parse("hsla(0, 0%, 50%, 0.5)")
        XCTAssertEqual(h?.r ?? 0, 0.25, accuracy: 1e-12)
        XCTAssertEqual(Color.parse("transparent"), .transparent)
        XCTAssertNil(Color.parse("oops blue"))
        XCTAssertNil(Color.parse("#12"))
        XCTAssertNil(Color.parse("rgb(1, 2)"))
        XCTAssertEqual(Color.parse("rebeccapurple"), Color(r: 0x66 / 255.0, g: 0x33 / 255.0, b: 0x99 / 255.0, a: 1))
    }
}
