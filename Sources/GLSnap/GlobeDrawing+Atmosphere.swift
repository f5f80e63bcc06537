import Foundation
import GLSnapLayout
import GLSnapStyle

extension ImageDrawing {
    /// The atmosphere the style asks around `globe`: the sky's `atmosphere-blend` at the camera's
    /// zoom (its spec default, 0.8, where the style has no sky, as GL JS always has one), lit
    /// from the style's `light`; nil where it would not show.
    func globeAtmosphere(_ globe: GlobeView) -> GlobeAtmosphere? {
        let zoom = transform.zoom
        let blend = style.sky?.evaluate(zoom: zoom).atmosphereBlend ?? GlobeAtmosphere.defaultBlend
        let ctx = EvaluationContext(zoom: zoom)
        var light = GlobeAtmosphere.defaultLight
        if let p = style.lightProperties["position"]?.evaluateNumbers(ctx), p.count == 3, p.allSatisfy(\.isFinite) {
            light = (p[0], p[1], p[2])
        }
        let anchor = style.lightProperties["anchor"]?.evaluateString(ctx) ?? "viewport"
        return GlobeAtmosphere(globe: globe, blend: blend, light: light, anchoredToMap: anchor == "map")
    }
}

extension GlobeAtmosphere {
    /// The spec's default `sky.atmosphere-blend`.
    static let defaultBlend = 0.8
    /// The spec's default `light.position`: radial 1.15, azimuthal 210°, polar 30°.
    static let defaultLight = (radial: 1.15, azimuthal: 210.0, polar: 30.0)
}

extension GlobeAtmosphere {
    /// Lays the atmosphere at `point` (CSS pixels) over the straight-alpha RGBA pixel at byte
    /// `o` of `out`, blended as GL JS blends it (premultiplied source over). A channel whose
    /// 8-bit premultiplied value exceeds the alpha is written as `excess` says.
    @inline(__always)
    func composite(at point: (x: Double, y: Double), _ out: UnsafeMutableBufferPointer<UInt8>, _ o: Int,
                   excess: ExcessLight = .clamped) {
        let c = color(at: point)
        guard c.a > 0 || c.r > 0 || c.g > 0 || c.b > 0 else { return }
        let keep = (1 - c.a) * Double(out[o + 3]) / 255
        let alpha = min(c.a + keep, 1)
        // A glow too faint to show in 8 bits leaves the pixel as it is (space stays clear).
        guard (alpha * 255).rounded() > 0 else { return }
        let alphaByte = min(max((alpha * 255).rounded(), 0), 255)
        func channel(_ source: Double, _ k: Int) {
            let premultiplied = source + Double(out[o + k]) / 255 * keep
            if excess == .wrappedAsGLJSTests {
                let byte = min(max((premultiplied * 255).rounded(), 0), 255)
                if byte > alphaByte {
                    out[o + k] = GlobeAtmosphere.wrappedAsGLJSTests(byte, alpha: alphaByte)
                    return
                }
            }
            let v = premultiplied / alpha
            out[o + k] = UInt8(min(max((v * 255).rounded(), 0), 255))
        }
        channel(c.r, 0); channel(c.g, 1); channel(c.b, 2)
        out[o + 3] = UInt8(alphaByte)
    }

    /// GL JS's render-test harness un-premultiplies its readback in place in a `Uint8Array`:
    /// `channel / (alpha / 255)` stored as a byte, truncated and taken modulo 256.
    static func wrappedAsGLJSTests(_ channel: Double, alpha: Double) -> UInt8 {
        UInt8(truncatingIfNeeded: Int((channel / (alpha / 255)).rounded(.towardZero)))
    }
}
