import XCTest
@testable import GLSnapRender
import GLSnapStyle

/// The style's `light` takes zoom functions, expressions and global state, evaluated at the
/// frame's zoom (it took constants only).
final class ExtrusionLightTests: XCTestCase {
    private func light(_ json: String, zoom: Double) throws -> ExtrusionLight {
        let style = try Style(bytes: Array(#"{"version": 8, "sources": {}, "layers": [], "state": {"glow": {"default": 0.9}}, "light": \#(json)}"#.utf8))
        return ExtrusionLight(style.lightProperties(), zoom: zoom, bearing: 0)
    }

    func testZoomFunctionsAndGlobalState() throws {
        let json = ##"{"color": {"stops": [[16, "#0000ff"], [20, "#ff0000"]]}, "intensity": ["global-state", "glow"], "position": ["interpolate", ["linear"], ["zoom"], 16, ["literal", [1.5, 90, 0]], 20, ["literal", [1.5, 90, 90]]]}"##
        let low = try light(json, zoom: 16), high = try light(json, zoom: 20)
        XCTAssertEqual(low.color, Color(r: 0, g: 0, b: 1, a: 1))
        XCTAssertEqual(high.color, Color(r: 1, g: 0, b: 0, a: 1))
        XCTAssertEqual(low.intensity, 0.9)
        // Polar 0: straight above; polar 90: on the horizon.
        XCTAssertEqual(low.position.2, 1.5, accuracy: 1e-9)
        XCTAssertEqual(high.position.2, 0, accuracy: 1e-9)
    }

    func testDefaultsWithoutALight() throws {
        let l = ExtrusionLight([:], zoom: 10, bearing: 0)
        XCTAssertEqual(l.intensity, 0.5)
        XCTAssertEqual(l.color, Color(r: 1, g: 1, b: 1, a: 1))
        XCTAssertEqual(l.position.2, 1.15 * cos(30 * Double.pi / 180), accuracy: 1e-9)
    }
}
