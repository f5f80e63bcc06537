import XCTest
@testable import GLSnap
@testable import GLSnapLayout

/// Just past the globe's rim GL JS's atmosphere leaves more light than coverage (premultiplied
/// color above alpha). Straight alpha clamps it; GL JS's render-test harness divides the bytes
/// in a `Uint8Array`, which wraps, and its expected images hold those wrapped bytes.
final class GlobeAtmosphereExcessLightTests: XCTestCase {
    let globe = GlobeView(flat: Transform(width: 512, height: 512, center: (0, 0), zoom: 1))

    func testTheHarnessDivisionTruncatesAndWraps() {
        // Bytes read from projection/globe/atmosphere/base's expected image: alpha 1 and 2.
        XCTAssertEqual(GlobeAtmosphere.wrappedAsGLJSTests(13, alpha: 1), 243)   // 3315 mod 256
        XCTAssertEqual(GlobeAtmosphere.wrappedAsGLJSTests(24, alpha: 2), 244)   // 3060 mod 256
        XCTAssertEqual(GlobeAtmosphere.wrappedAsGLJSTests(21, alpha: 2), 117)   // 2677.5 truncated, mod 256
        XCTAssertEqual(GlobeAtmosphere.wrappedAsGLJSTests(255, alpha: 255), 255)
    }

    /// The first pixel west of the center row, walking out from the planet, whose glow has more
    /// light than coverage in 8 bits; and one over the planet.
    private func pixels(_ air: GlobeAtmosphere) throws -> (faint: (Double, Double), planet: (Double, Double)) {
        for x in stride(from: 255.5, to: 0, by: -1) {
            let c = air.color(at: (x, 256.5))
            let a = (c.a * 255).rounded(), r = (c.r * 255).rounded()
            if globe.mercatorCoordinate(for: (x, 256.5)) == nil, a > 0, r > a { return ((x, 256.5), (256.5, 256.5)) }
        }
        throw XCTSkip("no pixel past the rim with more light than coverage")
    }

    private func composited(_ air: GlobeAtmosphere, at p: (Double, Double), over pixel: [UInt8], _ excess: ExcessLight) -> [UInt8] {
        var out = pixel
        out.withUnsafeMutableBufferPointer { air.composite(at: p, $0, 0, excess: excess) }
        return out
    }

    func testExcessLightIsClampedForUsersAndWrappedForTheHarness() throws {
        let air = try XCTUnwrap(GlobeAtmosphere(globe: globe, blend: 1, light: GlobeAtmosphere.defaultLight, anchoredToMap: false))
        let (faint, planet) = try pixels(air)
        let clamped = composited(air, at: faint, over: [0, 0, 0, 0], .clamped)
        let wrapped = composited(air, at: faint, over: [0, 0, 0, 0], .wrappedAsGLJSTests)
        let c = air.color(at: faint)
        let alpha = (c.a * 255).rounded()
        XCTAssertEqual(clamped[3], UInt8(alpha)); XCTAssertEqual(wrapped[3], UInt8(alpha))
        XCTAssertEqual(clamped[0], 255, "straight alpha holds at most full brightness")
        XCTAssertEqual(wrapped[0], GlobeAtmosphere.wrappedAsGLJSTests((c.r * 255).rounded(), alpha: alpha))
        XCTAssertNotEqual(wrapped[0], clamped[0])
        // Over the opaque planet nothing exceeds coverage: both ways write the same bytes.
        let ground: [UInt8] = [40, 90, 30, 255]
        XCTAssertEqual(composited(air, at: planet, over: ground, .clamped), composited(air, at: planet, over: ground, .wrappedAsGLJSTests))
    }
}
