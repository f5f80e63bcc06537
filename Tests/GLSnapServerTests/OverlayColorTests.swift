import XCTest
@testable import GLSnapServer

/// `stroke=`/`fill=` go through the one colour parser: a NaN or infinite component is a 400 that
/// names the parameter and the value (issue 17, item 7).
final class OverlayColorTests: XCTestCase {
    private let limits = Overlays.Limits(maxPoints: 100, maxPaths: 10, maxMarkers: 10)

    private func message(_ query: [(key: String, value: String)], file: StaticString = #filePath, line: UInt = #line) -> String? {
        do {
            _ = try Overlays.parse(query, limits: limits)
            XCTFail("accepted \(query)", file: file, line: line)
        } catch ServerError.badRequest(let m) {
            XCTAssertEqual(ServerError.badRequest(m).status, 400, file: file, line: line)
            return m
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
        return nil
    }

    func testNaNStrokeIsA400NamingTheParameter() {
        XCTAssertEqual(message([("path", "1,2|3,4"), ("stroke", "rgba(1,2,3,NaN)")]),
                       "stroke: 'rgba(1,2,3,NaN)' is not a CSS color: its alpha 'nan' is not a number")
        XCTAssertEqual(message([("path", "1,2|3,4"), ("fill", "rgb(Infinity,0,0)")]),
                       "fill: 'rgb(Infinity,0,0)' is not a CSS color: its red 'infinity' is not a number")
        XCTAssertEqual(message([("path", "stroke:rgba(0,0,0,1e999)|1,2|3,4")]),
                       "path stroke: 'rgba(0,0,0,1e999)' is not a CSS color: its alpha '1e999' is out of range")
        XCTAssertEqual(message([("path", "1,2|3,4"), ("stroke", String(repeating: "a", count: 80))]),
                       "stroke: '\(String(repeating: "a", count: 64))...' is not a CSS color (over 64 bytes)")
    }

    func testValidColorsStillParse() throws {
        let o = try Overlays.parse([("path", "fill:rgb(0 0 255 / 50%)|1,2|3,4"), ("stroke", "red")], limits: limits)
        XCTAssertEqual(o.paths.first?.stroke, RGBA(r: 1, g: 0, b: 0, a: 1))
        XCTAssertEqual(o.paths.first?.fill, RGBA(r: 0, g: 0, b: 1, a: 0.5))
    }
}
