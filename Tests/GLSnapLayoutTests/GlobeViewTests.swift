import XCTest
@testable import GLSnapLayout
import GLSnapStyle

final class GlobeViewTests: XCTestCase {
    /// The sphere's radius makes the scale at the center Mercator's there (GL JS's
    /// getGlobeRadiusPixels), so a small step from the center lands where the flat map puts it,
    /// turned by bearing and pitch alike.
    func testNearTheCenterTheGlobeMatchesMercator() throws {
        for (lat, bearing, pitch) in [(0.0, 0.0, 0.0), (45.0, 30.0, 0.0), (-20.0, 120.0, 40.0), (60, -70, 20)] {
            let t = Transform(width: 512, height: 384, center: (10, lat), zoom: 3, bearing: bearing, pitch: pitch)
            let g = GlobeView(flat: t)
            XCTAssertEqual(g.radius, t.worldSize / (2 * .pi) / cos(lat * .pi / 180), accuracy: 1e-9)
            let c = try XCTUnwrap(g.point(for: (10, lat)))
            XCTAssertEqual(c.x, 256, accuracy: 1e-6); XCTAssertEqual(c.y, 192, accuracy: 1e-6)
            for step in [(0.01, 0.0), (0.0, 0.01), (-0.01, 0.007)] {
                let q = (10 + step.0, lat + step.1)
                let flat = t.point(for: q), globe = try XCTUnwrap(g.point(for: q))
                XCTAssertEqual(globe.x, flat.x, accuracy: 0.01, "\(lat) \(bearing) \(pitch) \(step)")
                XCTAssertEqual(globe.y, flat.y, accuracy: 0.01, "\(lat) \(bearing) \(pitch) \(step)")
            }
        }
    }

    /// At zoom 0 seen straight down the whole near hemisphere is in view: the antipode and the
    /// far side have no screen position, the globe's rim is its radius (with perspective, a
    /// little less) from the center, and rays past it meet no globe.
    func testTheFarSideHasNoScreenPosition() throws {
        let t = Transform(width: 512, height: 512, center: (0, 0), zoom: 1)
        let g = GlobeView(flat: t)
        XCTAssertNil(g.point(for: (180, 0)))
        XCTAssertNil(g.point(for: (100, 0)))
        XCTAssertNotNil(g.point(for: (60, 0)))
        XCTAssertNil(g.coordinate(for: (1, 1)))
        // Seen from 1.5 × height above the center, the rim is the tangent's angle off the axis.
        let focal = t.cameraToCenterDistance
        let rim = focal * tan(asin(g.radius / (focal + g.radius)))
        XCTAssertNotNil(g.coordinate(for: (256 + rim - 0.2, 256)))
        XCTAssertNil(g.coordinate(for: (256 + rim + 0.01, 256)))
        // GL JS's sphere is a mesh of 128 chords around at this zoom: its rim lies inside the
        // true one by their sagitta (about 0.04 px here), and so does the planet drawn.
        XCTAssertNil(g.coordinate(for: (256 + rim - 0.01, 256)))
        // The flat map has no far side.
        XCTAssertNotNil(GlobeView(flat: t, globeness: 0).point(for: (100, 0)))
    }

    /// Screen to globe and back again.
    func testCoordinateAndPointRoundTrip() throws {
        let t = Transform(width: 400, height: 300, center: (-40, 30), zoom: 2, bearing: 25, pitch: 35)
        let g = GlobeView(flat: t)
        for p in [(200.0, 150.0), (120, 200), (300, 100), (50, 280)] {
            let c = try XCTUnwrap(g.coordinate(for: p), "\(p)")
            let back = try XCTUnwrap(g.point(for: c))
            XCTAssertEqual(back.x, p.0, accuracy: 1e-6); XCTAssertEqual(back.y, p.1, accuracy: 1e-6)
        }
    }

    /// Between the transition zooms the blend's inverse (Newton's method) finds the point back.
    func testTheBlendInvertsToo() throws {
        let t = Transform(width: 256, height: 256, center: (13.4, 52.5), zoom: 11.5, pitch: 30)
        let g = GlobeView(flat: t, globeness: 0.5)
        let m = try XCTUnwrap(g.mercatorCoordinate(for: (40, 200)))
        let back = try XCTUnwrap(g.project(mercator: m))
        XCTAssertEqual(back.x, 40, accuracy: 1e-4); XCTAssertEqual(back.y, 200, accuracy: 1e-4)
    }

    /// The projection as GL JS 6 reads it: "globe" is the globe to zoom 11 and the flat map from
    /// 12; expressions blend by zoom; global-state reads its default.
    func testProjectionGlobeness() throws {
        func p(_ type: JSON) -> JSON { .object(["type": type]) }
        XCTAssertEqual(GlobeProjection.globeness(nil, zoom: 3), 0)
        XCTAssertEqual(GlobeProjection.globeness(p(.string("mercator")), zoom: 3), 0)
        XCTAssertEqual(GlobeProjection.globeness(p(.string("globe")), zoom: 3), 1)
        XCTAssertEqual(GlobeProjection.globeness(p(.string("globe")), zoom: 11.25), 0.75, accuracy: 1e-12)
        XCTAssertEqual(GlobeProjection.globeness(p(.string("globe")), zoom: 12), 0)
        XCTAssertEqual(GlobeProjection.globeness(p(.string("vertical-perspective")), zoom: 20), 1)
        let blend: JSON = .array([.string("interpolate"), .array([.string("linear")]), .array([.string("zoom")]),
                                  .number(10), .string("vertical-perspective"), .number(12), .string("mercator")])
        XCTAssertEqual(GlobeProjection.globeness(p(blend), zoom: 11), 0.5, accuracy: 1e-12)
        let step: JSON = .array([.string("step"), .array([.string("zoom")]), .string("vertical-perspective"), .number(5), .string("mercator")])
        XCTAssertEqual(GlobeProjection.globeness(p(step), zoom: 4.9), 1)
        XCTAssertEqual(GlobeProjection.globeness(p(step), zoom: 5), 0)
        let state: JSON = .object(["kind": .object(["default": .string("vertical-perspective")])])
        XCTAssertEqual(GlobeProjection.globeness(p(.array([.string("global-state"), .string("kind")])), zoom: 0, state: state), 1)
        XCTAssertNil(GlobeProjection.problem(p(blend)))
        XCTAssertNotNil(GlobeProjection.problem(p(.string("equal-earth"))))
        XCTAssertEqual(GlobeProjection.globeness(p(.string("equal-earth")), zoom: 0), 0)
    }

    /// The cap the camera sees holds the north pole when the view looks at it.
    func testVisibleCap() throws {
        let g = GlobeView(flat: Transform(width: 512, height: 512, center: (15, 80), zoom: -0.5))
        let cap = try XCTUnwrap(g.visibleCap())
        XCTAssertEqual(cap.north, 90); XCTAssertEqual(cap.halfWidth, 180)
        let equator = try XCTUnwrap(GlobeView(flat: Transform(width: 512, height: 512, center: (0, 0), zoom: 1)).visibleCap())
        XCTAssertLessThan(equator.north, 90); XCTAssertEqual(equator.north, -equator.south, accuracy: 1e-9)
    }
}
