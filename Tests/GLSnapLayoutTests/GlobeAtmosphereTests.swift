import XCTest
@testable import GLSnapLayout

/// The air around the globe scatters the light as GL JS's atmosphere shader does: a glow a few
/// pixels past the rim, blue from the Rayleigh term, strongest toward the sun, nothing in the
/// space beyond the air, faded linearly by the blend.
final class GlobeAtmosphereTests: XCTestCase {
    let globe = GlobeView(flat: Transform(width: 512, height: 512, center: (0, 0), zoom: 1))
    let defaultLight = (radial: 1.15, azimuthal: 210.0, polar: 30.0)

    /// The rim's distance from the center along +x, in CSS pixels (bisected on the ray test).
    private func rim() -> Double {
        var inside = 0.0, outside = 256.0
        for _ in 0..<40 {
            let m = (inside + outside) / 2
            if globe.surfacePoint(at: (256 + m, 256)) != nil { inside = m } else { outside = m }
        }
        return inside
    }

    func testTheGlowLiesJustPastTheRimAndSpaceIsClear() throws {
        let air = try XCTUnwrap(GlobeAtmosphere(globe: globe, blend: 1, light: defaultLight, anchoredToMap: false))
        let r = rim()
        // The default light shines from the viewport's upper left, from behind the planet: the
        // west rim is lit, the east one in the planet's shadow (GL JS's rays toward the sun
        // cross the planet there and carry no light).
        let far = air.color(at: (256 - r - 20, 256))
        XCTAssertEqual(far.a, 0); XCTAssertEqual(far.r, 0); XCTAssertEqual(far.b, 0)
        let glow = air.color(at: (256 - r - 0.5, 256))
        XCTAssertGreaterThan(glow.a, 0.05)
        XCTAssertEqual(air.color(at: (256 + r + 0.5, 256)).a, 0, accuracy: 1e-3)
        XCTAssertGreaterThan(glow.b, glow.r, "Rayleigh scattering is blue")
        // Over the middle of the planet the air is thin: little of it shows.
        XCTAssertLessThan(air.color(at: (256, 256)).a, glow.a / 2)
    }

    func testTheBlendFadesLinearlyAndZeroDrawsNothing() throws {
        let full = try XCTUnwrap(GlobeAtmosphere(globe: globe, blend: 1, light: defaultLight, anchoredToMap: false))
        let half = try XCTUnwrap(GlobeAtmosphere(globe: globe, blend: 0.5, light: defaultLight, anchoredToMap: false))
        let p = (256 - rim() - 0.5, 256.0)
        XCTAssertEqual(half.color(at: p).a, full.color(at: p).a / 2, accuracy: 1e-12)
        XCTAssertEqual(half.color(at: p).b, full.color(at: p).b / 2, accuracy: 1e-12)
        XCTAssertNil(GlobeAtmosphere(globe: globe, blend: 0, light: defaultLight, anchoredToMap: false))
        XCTAssertNil(GlobeAtmosphere(globe: globe, blend: .nan, light: defaultLight, anchoredToMap: false))
        XCTAssertNil(GlobeAtmosphere(globe: GlobeView(flat: globe.flat, globeness: 0), blend: 1, light: defaultLight, anchoredToMap: false))
    }

    /// A light anchored to the map behind the planet's east limb (GL JS: position [r, 90, 90]
    /// points from 90° azimuth level with the map) lights the east side of the glow more.
    func testTheGlowIsBrightestTowardTheSun() throws {
        let air = try XCTUnwrap(GlobeAtmosphere(globe: globe, blend: 1, light: (1.5, 90, 90), anchoredToMap: true))
        let r = rim()
        let east = air.color(at: (256 + r + 0.5, 256)), west = air.color(at: (256 - r - 0.5, 256))
        XCTAssertNotEqual(east.b, west.b, accuracy: 0.01)
        // Viewport-anchored, the same light turns with the camera: a bearing moves the bright side.
        let turned = GlobeView(flat: Transform(width: 512, height: 512, center: (0, 0), zoom: 1, bearing: 180))
        let mapLit = try XCTUnwrap(GlobeAtmosphere(globe: turned, blend: 1, light: (1.5, 90, 90), anchoredToMap: true))
        let viewLit = try XCTUnwrap(GlobeAtmosphere(globe: turned, blend: 1, light: (1.5, 90, 90), anchoredToMap: false))
        let a = mapLit.color(at: (256 + r + 0.5, 256)), b = viewLit.color(at: (256 + r + 0.5, 256))
        XCTAssertNotEqual(a.b, b.b, accuracy: 0.01)
    }
}
