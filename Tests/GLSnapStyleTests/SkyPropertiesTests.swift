import XCTest
@testable import GLSnapStyle

/// The style's `sky` compiled and evaluated (`Style.skyProperties`, `Sky`).
final class SkyPropertiesTests: XCTestCase {
    private func style(_ sky: String, state: String = "{}") throws -> Style {
        try Style(json: JSON.parse(Array(##"{"version": 8, "state": \##(state), "sources": {}, "layers": [], "sky": \##(sky)}"##.utf8)))
    }

    func testAStyleWithoutSkyHasNone() throws {
        let s = try Style(json: JSON.parse(Array(##"{"version": 8, "sources": {}, "layers": []}"##.utf8)))
        XCTAssertNil(s.skyProperties())
    }

    func testUnsetPropertiesTakeTheSpecDefaults() throws {
        let sky = try XCTUnwrap(style("{}").skyProperties()).evaluate(zoom: 10)
        XCTAssertEqual(sky.skyColor, Color(r: 0x88 / 255.0, g: 0xC6 / 255.0, b: 0xFC / 255.0, a: 1))
        XCTAssertEqual(sky.horizonColor, .white)
        XCTAssertEqual(sky.fogColor, .white)
        XCTAssertEqual(sky.fogGroundBlend, 0.5)
        XCTAssertEqual(sky.horizonFogBlend, 0.8)
        XCTAssertEqual(sky.skyHorizonBlend, 0.8)
        XCTAssertEqual(sky.atmosphereBlend, 0.8)
    }

    func testConstantsZoomFunctionsAndGlobalState() throws {
        let s = try style(##"""
            {"sky-color": "#ff0000", "sky-horizon-blend": ["interpolate", ["linear"], ["zoom"], 0, 0, 10, 1],
             "horizon-color": ["global-state", "h"], "fog-ground-blend": 0.25}
            """##, state: ##"{"h": {"default": "#00ff00"}}"##)
        let sky = try XCTUnwrap(s.skyProperties())
        XCTAssertEqual(sky.evaluate(zoom: 5).skyColor, Color(r: 1, g: 0, b: 0, a: 1))
        XCTAssertEqual(sky.evaluate(zoom: 5).skyHorizonBlend, 0.5, accuracy: 1e-12)
        XCTAssertEqual(sky.evaluate(zoom: 20).skyHorizonBlend, 1)
        XCTAssertEqual(sky.evaluate(zoom: 5).horizonColor, Color(r: 0, g: 1, b: 0, a: 1))
        XCTAssertEqual(sky.evaluate(zoom: 5).fogGroundBlend, 0.25)
        // A runtime global state replaces the style's default.
        let blue = try XCTUnwrap(s.skyProperties(globalState: ["h": .string("#0000ff")]))
        XCTAssertEqual(blue.evaluate(zoom: 5).horizonColor, Color(r: 0, g: 0, b: 1, a: 1))
    }

    func testAValueThatDoesNotCompileKeepsTheDefault() throws {
        let sky = try XCTUnwrap(style(##"{"sky-color": "not a color", "sky-horizon-blend": ["get", "x"]}"##).skyProperties())
            .evaluate(zoom: 0)
        XCTAssertEqual(sky.skyColor, SkyProperties.defaultSkyColor)
        XCTAssertEqual(sky.skyHorizonBlend, 0.8)
    }
}
