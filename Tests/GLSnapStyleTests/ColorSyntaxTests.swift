import XCTest
@testable import GLSnapStyle

/// The colour parser refuses components that are not finite CSS numbers (issue 17, item 7) and
/// keeps accepting what MapLibre's `parseCssColor` accepts.
final class ColorSyntaxTests: XCTestCase {
    private func reason(_ css: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
        do {
            let c = try Color(css: css)
            XCTFail("'\(css)' parsed as \(c)", file: file, line: line)
            return nil
        } catch StyleError.color(let value, let reason) {
            XCTAssertEqual(value, css, file: file, line: line)
            return reason
        } catch {
            XCTFail("\(error)", file: file, line: line)
            return nil
        }
    }

    func testNaNAndInfinityAreRefusedNamingTheComponent() {
        XCTAssertEqual(reason("rgba(1,2,3,NaN)"), "its alpha 'nan' is not a number")
        XCTAssertEqual(reason("rgb(NaN, 0, 0)"), "its red 'nan' is not a number")
        XCTAssertEqual(reason("rgba(0, 0, 0, Infinity)"), "its alpha 'infinity' is not a number")
        XCTAssertEqual(reason("rgba(0, 0, 0, inf)"), "its alpha 'inf' is not a number")
        XCTAssertEqual(reason("rgb(1e999, 0, 0)"), "its red '1e999' is out of range")
        XCTAssertEqual(reason("hsl(nan, 50%, 50%)"), "its hue 'nan' is not a number")
        XCTAssertEqual(reason("hsla(1e400deg, 50%, 50%, 1)"), "its hue '1e400deg' is out of range")
        XCTAssertEqual(reason("hsl(0, NaN%, 50%)"), "its saturation 'nan%' is not a number")
        XCTAssertEqual(try? Color(css: "rgba(1,2,3,NaN)"), nil)
        XCTAssertEqual("\(StyleError.color(value: "rgba(1,2,3,NaN)", reason: "its alpha 'nan' is not a number"))",
                       "'rgba(1,2,3,NaN)' is not a CSS color: its alpha 'nan' is not a number")
    }

    func testOutOfSyntaxComponentsAreRefused() {
        XCTAssertEqual(reason("rgba(0x10, 0, 0, 1)"), "its red '0x10' is not a number")
        XCTAssertEqual(reason("rgb(1.2.3, 0, 0)"), "its red '1.2.3' is not a number")
        XCTAssertEqual(reason("rgb(1e, 0, 0)"), "its red '1e' is not a number")
        XCTAssertEqual(reason("rgb(., 0, 0)"), "its red '.' is not a number")
        XCTAssertEqual(reason("rgb(1_0, 0, 0)"), "its red '1_0' is not a number")
        XCTAssertEqual(reason("rgb(1, 2)"), "rgb() takes three components and an optional alpha, not 2 values")
        XCTAssertEqual(reason("rgb(1, 2 3)"), "rgb() arguments are separated by commas throughout, or by spaces with '/' before the alpha")
        XCTAssertEqual(reason("rgb(1 2 3, 0.5)"), "rgb() arguments are separated by commas throughout, or by spaces with '/' before the alpha")
        XCTAssertEqual(reason("rgb(1,,2,3)"), "two separators in a row in rgb()")
        XCTAssertEqual(reason("rgb(10%, 2, 3)"), "red, green and blue must be all numbers or all percentages")
        XCTAssertEqual(reason("hsl(0, 50, 50%)"), "its saturation '50' must be a percentage")
        XCTAssertEqual(reason("#12"), "a hex color has 3, 4, 6 or 8 digits, not 2")
        XCTAssertEqual(reason("#12g"), "'g' is not a hex digit")
        XCTAssertEqual(reason("oops blue"), "it is not a color name, #hex, rgb(), rgba(), hsl() or hsla()")
        XCTAssertEqual(reason("cmyk(1, 2, 3)"), "'cmyk()' is not rgb(), rgba(), hsl() or hsla()")
    }

    /// Forms MapLibre's parseCssColor accepts keep parsing to the same channels.
    func testMapLibreFormsStillParse() throws {
        func rgba(_ css: String) throws -> [Double] {
            let u = try Color(css: css).unpremultiplied
            return [u.r * 255, u.g * 255, u.b * 255, u.a].map { ($0 * 1000).rounded() / 1000 }
        }
        XCTAssertEqual(try rgba("rgba(255, 0, 255, 0.6)"), [255, 0, 255, 0.6])
        XCTAssertEqual(try rgba("rgb(255 0 255 / 60%)"), [255, 0, 255, 0.6])
        XCTAssertEqual(try rgba("rgb(100% 0% 100% /.6)"), [255, 0, 255, 0.6])
        XCTAssertEqual(try rgba("rgb(128 0 0)"), [128, 0, 0, 1])
        XCTAssertEqual(try rgba("RGBA(1e2, +20, 5., .5)"), [100, 20, 5, 0.5])
        XCTAssertEqual(try rgba("rgb(300, -5, 0)"), [255, 0, 0, 1])
        XCTAssertEqual(try rgba("rgba(0, 0, 0, 2)"), [0, 0, 0, 1])
        XCTAssertEqual(try rgba("hsl(120 100% 50%)"), [0, 255, 0, 1])
        XCTAssertEqual(try rgba("hsla(120deg,100%,50%,.9)"), [0, 255, 0, 0.9])
        XCTAssertEqual(try rgba("hsl(12e1 100% 50% / 90%)"), [0, 255, 0, 0.9])
        XCTAssertEqual(try rgba("rgb(\t1,\n2 ,3 )"), [1, 2, 3, 1])
        XCTAssertEqual(try rgba("#ff00cc80"), [255, 0, 204, 0.502])
        XCTAssertEqual(try rgba(" red "), [255, 0, 0, 1])
    }
}

final class ColorValidationTests: XCTestCase {
    /// `glsnap validate` reports a NaN colour with its JSON path instead of calling the style valid.
    func testNaNColorIsReportedWithItsPath() {
        let style = """
        {"version": 8, "sources": {},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "rgba(1,2,3,NaN)"}}]}
        """
        XCTAssertEqual(validateStyle(Array(style.utf8)), [
            StyleProblem(path: "layers[0].paint.background-color", message: "color expected, \"rgba(1,2,3,NaN)\" found", line: 2),
        ])
    }
}
