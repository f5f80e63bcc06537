import Foundation
import GLSnapStyle

/// The style's `light`, as fill-extrusion shading uses it: a direction (cartesian, in the map's
/// or the viewport's frame), a color and an intensity, each evaluated at the frame's zoom.
struct ExtrusionLight {
    var position: (Double, Double, Double)
    var color: Color
    var intensity: Double

    /// The light of `properties` (`Style.lightProperties()`; unset ones take the spec defaults)
    /// at `zoom`, for a map rotated by `bearing` degrees.
    init(_ properties: [String: PropertyValue], zoom: Double, bearing: Double) {
        let ctx = EvaluationContext(zoom: zoom)
        var radial = 1.15, azimuthal = 210.0, polar = 30.0
        if let p = properties["position"]?.evaluateNumbers(ctx), p.count == 3 {
            (radial, azimuthal, polar) = (p[0], p[1], p[2])
        }
        // Spherical to cartesian; 0 degrees of azimuth points up (north or the viewport's top).
        let a = (azimuthal + 90) * .pi / 180, pol = polar * .pi / 180
        var x = radial * cos(a) * sin(pol), y = radial * sin(a) * sin(pol)
        let z = radial * cos(pol)
        if (properties["anchor"]?.evaluateString(ctx) ?? "viewport") == "viewport" {
            // Rotate against the map so the light stays fixed to the screen.
            let r = bearing * .pi / 180
            (x, y) = (x * cos(r) - y * sin(r), x * sin(r) + y * cos(r))
        }
        position = (x, y, z)
        color = properties["color"]?.evaluate(ctx).color ?? Color(r: 1, g: 1, b: 1, a: 1)
        intensity = properties["intensity"]?.evaluate(ctx).number ?? 0.5
    }
}
