import XCTest
@testable import GLSnapLayout

/// The planet is drawn as GL JS draws it: its tile mesh of chords, not the sphere.
final class GlobeMeshTests: XCTestCase {
    /// Where the rays meet the planet head on, the mesh shows what the sphere shows (the chords
    /// lie under a thousandth of the radius below it).
    func testAwayFromTheRimTheMeshIsTheSphere() throws {
        let t = Transform(width: 512, height: 512, center: (10, 20), zoom: 2, bearing: 30, pitch: 20)
        let g = GlobeView(flat: t)
        for p in [(256.0, 256.0), (200, 300), (330, 180)] {
            let sphere = try XCTUnwrap(g.mercatorCoordinate(for: p)), mesh = try XCTUnwrap(g.meshMercatorCoordinate(for: p))
            XCTAssertEqual(mesh.x, sphere.x, accuracy: 0.02 / g.meshSegments, "\(p)")
            XCTAssertEqual(mesh.y, sphere.y, accuracy: 0.02 / g.meshSegments, "\(p)")
        }
    }

    /// At the rim the rays graze the planet: inside the sphere they travel on toward its horizon
    /// before they meet a chord, so a pixel there shows ground farther out than the sphere
    /// would; GL JS clips the mesh at the horizon's plane, so none shows ground past it.
    func testAtTheRimTheChordsShowGroundFartherOut() throws {
        let t = Transform(width: 512, height: 512, center: (0, 0), zoom: 2)
        let g = GlobeView(flat: t)
        let focal = t.cameraToCenterDistance
        let rim = focal * tan(asin(g.radius / (focal + g.radius)))
        let horizon = acos(g.radius / (focal + g.radius)) * 180 / .pi
        // Westward along the equator, the farthest ground the mesh shows (the chord there runs
        // from 70.3125 W to 73.125 W, across the horizon's plane at 72.67 W).
        var farthest = 0.0
        for k in 0..<200 {
            if let m = g.meshMercatorCoordinate(for: (256 - rim + Double(k) * 0.0025, 256)) {
                farthest = max(farthest, -Mercator.lon(x: m.x))
                XCTAssertEqual(m.y, 0.5, accuracy: 1e-9, "the equator stays the equator")
            }
        }
        XCTAssertGreaterThan(farthest, horizon - 0.1)
        XCTAssertLessThan(farthest, horizon, "clipped at the horizon's plane")
        // A tenth of a pixel inside the rim, the mesh shows ground most of a degree farther.
        let a = try XCTUnwrap(g.meshMercatorCoordinate(for: (256 - rim + 0.1, 256)))
        let b = try XCTUnwrap(g.mercatorCoordinate(for: (256 - rim + 0.1, 256)))
        XCTAssertLessThan(Mercator.lon(x: a.x), Mercator.lon(x: b.x) - 0.5)
        XCTAssertNil(g.meshMercatorCoordinate(for: (256 - rim - 0.05, 256)), "space past the sphere")
    }

    /// With terrain GL JS draws the planet with the terrain's mesh, 128 cells a tile: four times
    /// finer at zoom 2, so its rim lies nearer the sphere's horizon.
    func testTerrainDrawsTheFinerMesh() throws {
        let t = Transform(width: 512, height: 512, center: (0, 0), zoom: 2)
        let plain = GlobeView(flat: t), terrain = GlobeView(flat: t, terrain: true)
        XCTAssertEqual(plain.meshSegments, 128)
        XCTAssertEqual(terrain.meshSegments, 512)
        XCTAssertEqual(GlobeView(flat: Transform(width: 512, height: 512, center: (0, 0), zoom: 5)).meshSegments, 1024)
        let focal = t.cameraToCenterDistance
        let rim = focal * tan(asin(plain.radius / (focal + plain.radius)))
        func firstShown(_ g: GlobeView) -> Double {
            (0..<400).map { 256 - rim + Double($0) * 0.0025 }.first { g.meshMercatorCoordinate(for: ($0, 256)) != nil } ?? .infinity
        }
        XCTAssertLessThan(firstShown(terrain), firstShown(plain))
    }

    /// Over a pole the mesh fans from its last row to the pole: the cap takes the last row's
    /// Mercator y (the map's edge), at the longitude of the fan it is in.
    func testThePoleCapIsTheMapEdge() throws {
        let t = Transform(width: 512, height: 512, center: (30, 80), zoom: 2)
        let g = GlobeView(flat: t)
        let pole = try XCTUnwrap(g.point(for: (30, 89.99)))
        let m = try XCTUnwrap(g.meshMercatorCoordinate(for: pole))
        XCTAssertEqual(m.y, 0, accuracy: 1e-12)
        let south = Transform(width: 512, height: 512, center: (-100, -80), zoom: 2)
        let gs = GlobeView(flat: south)
        let ms = try XCTUnwrap(gs.meshMercatorCoordinate(for: try XCTUnwrap(gs.point(for: (-100, -89.99)))))
        XCTAssertEqual(ms.y, 1, accuracy: 1e-12)
        XCTAssertEqual(Mercator.lon(x: ms.x), -100, accuracy: 360 / gs.meshSegments)
    }

    /// Between the transition zooms the planet is the blend's surface, as before.
    func testTheBlendKeepsItsSurface() throws {
        let t = Transform(width: 256, height: 256, center: (13.4, 52.5), zoom: 11.5, pitch: 30)
        let g = GlobeView(flat: t, globeness: 0.5)
        let a = try XCTUnwrap(g.mercatorCoordinate(for: (40, 200))), b = try XCTUnwrap(g.meshMercatorCoordinate(for: (40, 200)))
        XCTAssertEqual(a.x, b.x); XCTAssertEqual(a.y, b.y)
    }
}
