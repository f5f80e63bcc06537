import Foundation
import XCTest
import GLSnapTestSupport
@testable import GLSnapImage

final class SymbolSVGTests: XCTestCase {
    private func flag() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: try SharedFolder.require("fixtures/icons/flag.svg")))
    }

    func testRasterizesAtScaleWithParameter() throws {
        let svg = try flag()
        XCTAssertEqual(SVGParameters.declared(in: svg), ["flag_color": "#000000"])
        let red = SVGParameters.apply(["flag_color": "#ff0000"], to: svg)
        let image = try SVGRasterizer().rasterize(red, name: "flag", scale: 2)
        XCTAssertEqual(image.width, 48)
        XCTAssertEqual(image.height, 64)
        // Inside the flag cloth (about x=14, y=9 in SVG units).
        let o = (18 * 48 + 28) * 4
        XCTAssertEqual(Array(image.pixels[o..<(o + 4)]), [255, 0, 0, 255])
    }

    func testVarReplacement() {
        let svg = Array(##"<svg><rect fill="var(--c, #123)"/><rect fill="var(--cx)"/></svg>"##.utf8)
        XCTAssertEqual(String(decoding: SVGParameters.apply(["c": "#ff0000"], to: svg), as: UTF8.self),
                       ##"<svg><rect fill="#ff0000"/><rect fill="var(--cx)"/></svg>"##)
    }

    func testRejectsNonSVGAndHugeRasters() throws {
        XCTAssertThrowsError(try SVGRasterizer().rasterize(Array("hello".utf8), name: "x", scale: 1))
        let huge = Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"/>"#.utf8)
        XCTAssertThrowsError(try SVGRasterizer().rasterize(huge, name: "big", scale: 1)) { error in
            guard case ImageError.svg(let name, _)? = error as? ImageError else { return XCTFail("\(error)") }
            XCTAssertEqual(name, "big")
        }
    }
}
