import XCTest
@testable import GLSnapStyle

/// `step` and `interpolate` refuse a NaN input ("Input is not a number.", as MapLibre's stop
/// search throws), so a paint property fed one takes its default (`regressions/mapbox-gl-js#4172`).
final class StopNaNTests: XCTestCase {
    private let zero = TestFeature(properties: ["zero": .number(0)])

    func testStepAndInterpolateThrowOnNaN() throws {
        for text in [#"["step", ["/", 0, ["get", "zero"]], 1, 2, 2]"#,
                     #"["interpolate", ["linear"], ["/", 0, ["get", "zero"]], 1, 1, 2, 2]"#] {
            let (e, errors) = StyleExpression.compile(try json(text), propertySpec: nil)
            let expression = try XCTUnwrap(e, "\(errors)")
            XCTAssertThrowsError(try expression.evaluate(EvaluationContext(zoom: 0, feature: zero)), text) { error in
                XCTAssertEqual((error as? ExpressionEvaluationError)?.message, "Input is not a number.")
            }
        }
    }

    func testAPropertyFedNaNTakesItsDefault() throws {
        let text = #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}}, "layers": [{"id": "c", "type": "circle", "source": "s", "paint": {"circle-radius": ["step", ["/", 0, ["get", "zero"]], 1, 2, 2]}}]}"#
        guard case .circle(let circle) = try Style(bytes: Array(text.utf8)).layers[0].typed else { return XCTFail("a circle layer") }
        XCTAssertEqual(circle.radius.evaluate(EvaluationContext(zoom: 0, feature: zero)), 5)
        // A number input still steps.
        XCTAssertEqual(circle.radius.evaluate(EvaluationContext(zoom: 0, feature: TestFeature(properties: ["zero": .number(-1)]))), 1)
    }
}
