import Foundation

/// The glow MapLibre GL JS draws around (and over the rim of) the globe: light from the style's
/// `light` scattered by a thin shell of air, Rayleigh and Mie scattering integrated along each
/// pixel's ray, computed here on the CPU for one screen position at a time.
///
/// The globe is scaled to the Earth's radius, the air shell 100 km thick, as GL JS's shader does;
/// the result is premultiplied and faded by `blend` (the sky's `atmosphere-blend` times the
/// globe's share of the projection transition).
public struct GlobeAtmosphere: Sendable {
    /// The planet's radius and the top of the air (meters).
    static let planetRadius = 6371e3, airRadius = 6471e3
    static let rayleigh = (5.5e-6, 13.0e-6, 22.4e-6), mie = 21e-6
    static let rayleighHeight = 8e3, mieHeight = 1.2e3, mieDirection = 0.758
    static let sunIntensity = 22.0
    /// Samples along the view ray and along each sample's ray toward the sun.
    static let viewSteps = 5, sunSteps = 3

    let globe: GlobeView
    /// The camera, in meters from the planet's center (unit-sphere axes).
    let origin: (x: Double, y: Double, z: Double)
    /// The unit direction toward the sun (unit-sphere axes).
    let sun: (x: Double, y: Double, z: Double)
    /// 0...1.
    public let blend: Double

    /// The atmosphere of `globe` lit from `light` (the style's `light.position`, radial,
    /// azimuthal and polar degrees; `anchoredToMap`: `light.anchor` is `map`), faded by
    /// `blend` (clamped to 0...1) and by the globe's transition; nil where nothing would show
    /// (blend 0, or a camera inside the sphere).
    public init?(globe: GlobeView, blend: Double, light: (radial: Double, azimuthal: Double, polar: Double), anchoredToMap: Bool) {
        let b = min(max(blend.isFinite ? blend : 0, 0), 1) * globe.globeness
        let c = globe.camera
        guard b > 0, c.x * c.x + c.y * c.y + c.z * c.z > 1 else { return nil }
        self.globe = globe
        self.blend = b
        let r = GlobeAtmosphere.planetRadius
        origin = (c.x * r, c.y * r, c.z * r)
        // The light's direction points from the light toward the map; the sun lies opposite.
        let a = (light.azimuthal + 90) * .pi / 180, p = light.polar * .pi / 180
        var s = (-cos(a) * sin(p), -sin(a) * sin(p), -cos(p))
        if !anchoredToMap {
            // Given in the camera's frame: back through the camera's rotation onto the sphere's axes.
            let t = globe.flat
            var m = Mat4.identity
            Mat4.rotateZ(&m, t.roll * .pi / 180)
            Mat4.rotateX(&m, -t.pitch * .pi / 180)
            Mat4.rotateZ(&m, t.bearing * .pi / 180)
            Mat4.rotateX(&m, t.center.lat * .pi / 180)
            GlobeView.rotateY(&m, -t.center.lon * .pi / 180)
            let v = Mat4.transform(Mat4.invert(m) ?? Mat4.identity, s.0, s.1, s.2, 0)
            s = (v.0, v.1, v.2)
        }
        let len = (s.0 * s.0 + s.1 * s.1 + s.2 * s.2).squareRoot()
        sun = len > 0 ? (s.0 / len, s.1 / len, s.2 / len) : (0, 0, 1)
    }

    /// The atmosphere's premultiplied color (0...1 each) at a screen position (CSS pixels from
    /// the top-left), to lay over what is drawn there.
    public func color(at point: (x: Double, y: Double)) -> (r: Double, g: Double, b: Double, a: Double) {
        guard let d = globe.rayDirection(at: point) else { return (0, 0, 0, 0) }
        let s = scattering(direction: d)
        // Exposure, then GL JS's gamma of 2.2 on the color and on the transmittance alike.
        func shade(_ v: Double) -> Double { pow(1 - exp(-v), 1 / 2.2) }
        let k = blend
        return (shade(s.r) * k, shade(s.g) * k, shade(s.b) * k, (1 - pow(s.transmittance, 1 / 2.2)) * k)
    }

    /// Light scattered toward the camera along the ray `dir` (unit) and how much of what lies
    /// behind shows through (1 where the ray misses the air).
    func scattering(direction dir: (Double, Double, Double)) -> (r: Double, g: Double, b: Double, transmittance: Double) {
        typealias G = GlobeAtmosphere
        let o = (origin.x, origin.y, origin.z)
        guard var span = G.intersect(o, dir, G.airRadius) else { return (0, 0, 0, 1) }
        span.near = max(span.near, 0)
        if let ground = G.intersect(o, dir, G.planetRadius), ground.near > 0 { span.far = min(span.far, ground.near) }
        let step = (span.far - span.near) / Double(G.viewSteps)
        let mu = dir.0 * sun.x + dir.1 * sun.y + dir.2 * sun.z
        let g = G.mieDirection, gg = g * g
        let phaseR = 3 / (16 * Double.pi) * (1 + mu * mu)
        let phaseM = 3 / (8 * Double.pi) * ((1 - gg) * (mu * mu + 1)) / (pow(1 + gg - 2 * mu * g, 1.5) * (2 + gg))
        let kR = G.rayleigh
        var total = (r: 0.0, g: 0.0, b: 0.0)
        // GL JS sums Mie light per channel, with the same attenuation as the Rayleigh light.
        var mieTotals = (0.0, 0.0, 0.0)
        var depthR = 0.0, depthM = 0.0
        var t = span.near + step / 2
        for _ in 0..<G.viewSteps {
            let p = (o.0 + dir.0 * t, o.1 + dir.1 * t, o.2 + dir.2 * t)
            let height = (p.0 * p.0 + p.1 * p.1 + p.2 * p.2).squareRoot() - G.planetRadius
            let stepR = exp(-height / G.rayleighHeight) * step, stepM = exp(-height / G.mieHeight) * step
            depthR += stepR; depthM += stepM
            // Along the sun's ray from the sample to the top of the air.
            let sunSpan = G.intersect(p, (sun.x, sun.y, sun.z), G.airRadius)?.far ?? 0
            let sunStep = sunSpan / Double(G.sunSteps)
            var sunR = 0.0, sunM = 0.0
            var u = sunStep / 2
            for _ in 0..<G.sunSteps {
                let q = (p.0 + sun.x * u, p.1 + sun.y * u, p.2 + sun.z * u)
                let h = (q.0 * q.0 + q.1 * q.1 + q.2 * q.2).squareRoot() - G.planetRadius
                sunR += exp(-h / G.rayleighHeight) * sunStep
                sunM += exp(-h / G.mieHeight) * sunStep
                u += sunStep
            }
            let m = G.mie * (depthM + sunM), r = depthR + sunR
            let attR = exp(-(m + kR.0 * r)), attG = exp(-(m + kR.1 * r)), attB = exp(-(m + kR.2 * r))
            total.r += stepR * attR; total.g += stepR * attG; total.b += stepR * attB
            mieTotals.0 += stepM * attR; mieTotals.1 += stepM * attG; mieTotals.2 += stepM * attB
            t += step
        }
        let lengthR = (kR.0 * kR.0 + kR.1 * kR.1 + kR.2 * kR.2).squareRoot()
        let rayleighLength = (total.r * total.r + total.g * total.g + total.b * total.b).squareRoot()
        let mieLength = (mieTotals.0 * mieTotals.0 + mieTotals.1 * mieTotals.1 + mieTotals.2 * mieTotals.2).squareRoot()
        let transmittance = exp(-(lengthR * rayleighLength + G.mie * mieLength))
        let i = G.sunIntensity
        return (i * (phaseR * kR.0 * total.r + phaseM * G.mie * mieTotals.0),
                i * (phaseR * kR.1 * total.g + phaseM * G.mie * mieTotals.1),
                i * (phaseR * kR.2 * total.b + phaseM * G.mie * mieTotals.2), transmittance)
    }

    /// Where the ray `o + t d` (d unit) passes a sphere of `radius` about the origin, or nil
    /// where it misses.
    static func intersect(_ o: (Double, Double, Double), _ d: (Double, Double, Double), _ radius: Double) -> (near: Double, far: Double)? {
        let b = o.0 * d.0 + o.1 * d.1 + o.2 * d.2
        let c = o.0 * o.0 + o.1 * o.1 + o.2 * o.2 - radius * radius
        let disc = b * b - c
        guard disc >= 0 else { return nil }
        let root = disc.squareRoot()
        return (-b - root, -b + root)
    }
}

extension GlobeView {
    /// The unit direction, on the unit sphere's axes, of the ray from the camera through a
    /// screen position (CSS pixels from the top-left), or nil where there is none.
    func rayDirection(at point: (x: Double, y: Double)) -> (Double, Double, Double)? {
        let nx = point.x / flat.width * 2 - 1, ny = 1 - point.y / flat.height * 2
        let b = Mat4.transform(sphereMatrixInverse, nx, ny, 1, 1)
        guard b.3 != 0 else { return nil }
        let d = (b.0 / b.3 - camera.x, b.1 / b.3 - camera.y, b.2 / b.3 - camera.z)
        let len = (d.0 * d.0 + d.1 * d.1 + d.2 * d.2).squareRoot()
        guard len > 0, len.isFinite else { return nil }
        return (d.0 / len, d.1 / len, d.2 / len)
    }
}
