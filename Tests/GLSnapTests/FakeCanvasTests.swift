import XCTest
import GLSnapStyle
@testable import GLSnapConformance

/// The render harness's `addFakeCanvas`: a canvas source showing the fake canvas is drawn as the
/// image source it amounts to.
final class FakeCanvasTests: XCTestCase {
    func testCanvasSourceOfTheFakeCanvasBecomesAnImageSource() throws {
        let text = """
        {"version": 8, "metadata": {"test": {"addFakeCanvas": {"id": "fake", "image": "./image/0.png"}}},
         "sources": {"c": {"type": "canvas", "canvas": "fake", "animate": false,
                           "coordinates": [[-10, 10], [10, 10], [10, -10], [-10, -10]]},
                     "other": {"type": "canvas", "canvas": "elsewhere", "coordinates": [[0, 1], [1, 1], [1, 0], [0, 0]]}},
         "layers": [{"id": "r", "type": "raster", "source": "c"}]}
        """
        let out = try JSON.parse(FakeCanvas.imageSources(text, style: try JSON.parse(text)))
        XCTAssertEqual(out["sources"]?["c"], try JSON.parse(#"""
            {"type": "image", "url": "./image/0.png", "coordinates": [[-10, 10], [10, 10], [10, -10], [-10, -10]]}
            """#))
        XCTAssertEqual(out["sources"]?["other"]?["type"], .string("canvas"), "a canvas the harness did not make stays")
        XCTAssertEqual(out["layers"], try JSON.parse(text)["layers"])
    }

    func testCaseWithoutFakeCanvasKeepsItsText() throws {
        let text = #"{"version": 8, "sources": {"c": {"type": "canvas", "canvas": "x"}}, "layers": []}"#
        XCTAssertEqual(FakeCanvas.imageSources(text, style: try JSON.parse(text)), text)
    }
}
