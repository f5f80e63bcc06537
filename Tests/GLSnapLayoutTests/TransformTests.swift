import XCTest
import GLSnapData
@testable import GLSnapLayout

final class TransformTests: XCTestCase {
    func testCenterMapsToViewCenterAtAnyBearingAndPitch() {
        for bearing in [0.0, 33, -120, 180] {
            for pitch in [0.0, 30, 60, 75] {
                let t = Transform(width: 800, height: 600, center: (13.4, 52.5), zoom: 11.3, bearing: bearing, pitch: pitch)
                let p = t.point(for: (13.4, 52.5))
                XCTAssertEqual(p.x, 400, accuracy: 1e-6, "bearing \(bearing) pitch \(pitch)")
                XCTAssertEqual(p.y, 300, accuracy: 1e-6, "bearing \(bearing) pitch \(pitch)")
            }
        }
    }

    func testRoundTripsPixelsAndCoordinates() {
        let t = Transform(width: 640, height: 480, center: (-73.98, 40.75), zoom: 14.2, bearing: 27, pitch: 52)
        for (x, y) in [(0.0, 0.0), (640.0, 480.0), (100.0, 400.0), (320.0, 100.0)] {
            let c = t.coordinate(for: (x, y))
            let p = t.point(for: c)
            XCTAssertEqual(p.x, x, accuracy: 1e-6)
            XCTAssertEqual(p.y, y, accuracy: 1e-6)
        }
    }

    func testUnpitchedWorldCornersAtZoomZero() {
        let t = Transform(width: 512, height: 512, center: (0, 0), zoom: 0)
        let nw = t.point(for: (-180, Mercator.maxLatitude))
        XCTAssertEqual(nw.x, 0, accuracy: 1e-6)
        XCTAssertEqual(nw.y, 0, accuracy: 1e-3)
        let se = t.coordinate(for: (512, 512))
        XCTAssertEqual(se.lon, 180, accuracy: 1e-9)
        XCTAssertEqual(se.lat, -Mercator.maxLatitude, accuracy: 1e-5)
    }

    func testProjectionMatrixEntries() {
        // fov = 2 atan(1/3), so the focal factor f is exactly 3; distance = 1.5 * height.
        let t = Transform(width: 512, height: 256, center: (0, 0), zoom: 0)
        XCTAssertEqual(t.cameraToCenterDistance, 384, accuracy: 1e-9)
        let m = t.projMatrix
        XCTAssertEqual(m[0], 3.0 / 2.0, accuracy: 1e-12)   // f / aspect
        XCTAssertEqual(m[5], -3.0, accuracy: 1e-12)        // f, y flipped
        XCTAssertEqual(m[11], -512 / Mercator.earthCircumference, accuracy: 1e-15) // z is meters
        XCTAssertEqual(m[15], 384, accuracy: 1e-9)         // w of a ground point = distance
        // Depth of the center: near = h/50, far = 1.01 * distance when unpitched.
        let near = 256.0 / 50, far = 1.01 * 384
        let zClip = (far + near) / (near - far) * -384 + 2 * far * near / (near - far)
        let c = Mat4.transform(m, 256, 256, 0, 1)
        XCTAssertEqual(c.2, zClip, accuracy: 1e-9)
        XCTAssertEqual(c.3, 384, accuracy: 1e-9)
    }

    func testTileMatrixMapsTileCornersToClipCorners() {
        let t = Transform(width: 512, height: 512, center: (0, 0), zoom: 0)
        let id = TileID(z: 0, x: 0, y: 0)!
        let m = t.tileMatrix(for: id).map(Double.init)
        let a = Mat4.transform(m, 0, 0, 0, 1)
        XCTAssertEqual(a.0 / a.3, -1, accuracy: 1e-6)
        XCTAssertEqual(a.1 / a.3, 1, accuracy: 1e-6)
        let b = Mat4.transform(m, 8192, 8192, 0, 1)
        XCTAssertEqual(b.0 / b.3, 1, accuracy: 1e-6)
        XCTAssertEqual(b.1 / b.3, -1, accuracy: 1e-6)
        // The east world copy starts where the main world ends.
        let w = t.tileMatrix(for: id, wrap: 1).map(Double.init)
        let e = Mat4.transform(w, 0, 4096, 0, 1)
        XCTAssertEqual(e.0 / e.3, 1, accuracy: 1e-6)
        XCTAssertEqual(e.1 / e.3, 0, accuracy: 1e-6)
    }

    func testBearingNinetyPutsEastAtTheTop() {
        let t = Transform(width: 400, height: 400, center: (0, 0), zoom: 3, bearing: 90)
        // 100 world pixels east of the center.
        let lon = Mercator.lon(x: 0.5 + 100 / t.worldSize)
        let p = t.point(for: (lon, 0))
        XCTAssertEqual(p.x, 200, accuracy: 1e-6)
        XCTAssertEqual(p.y, 100, accuracy: 1e-6)
    }

    func testPitchedGroundDistanceFollowsTheLawOfSines() {
        let t = Transform(width: 512, height: 512, center: (10, 45), zoom: 10, pitch: 60)
        let d = 768.0, p = 60.0 * Double.pi / 180, alpha = atan(256.0 / d)
        let top = d * sin(alpha) / cos(p + alpha)
        let bottom = d * sin(alpha) / cos(p - alpha)
        let cy = Mercator.y(lat: 45)
        XCTAssertEqual(t.mercatorCoordinate(for: (256, 0)).y, cy - top / t.worldSize, accuracy: 1e-12)
        XCTAssertEqual(t.mercatorCoordinate(for: (256, 512)).y, cy + bottom / t.worldSize, accuracy: 1e-12)
    }

    func testClampsLatitude() {
        let t = Transform(width: 10, height: 10, center: (0, 89), zoom: 2)
        XCTAssertEqual(t.center.lat, Mercator.maxLatitude)
    }

    func testPixelsToTileUnits() {
        let t = Transform(width: 512, height: 512, center: (0, 0), zoom: 1.5)
        let tile = TileID(z: 1, x: 0, y: 0)!
        XCTAssertEqual(t.pixelsToTileUnits(tile, 1), 8192 / (512 * pow(2, 0.5)), accuracy: 1e-9)
        let t0 = Transform(width: 512, height: 512, center: (0, 0), zoom: 0)
        XCTAssertEqual(t0.pixelsToTileUnits(TileID(z: 0, x: 0, y: 0)!, 2), 32)
    }

    func testFittingWholeWorldAndATile() throws {
        let world = try XCTUnwrap(Transform.fitting(bounds: (-180, -Mercator.maxLatitude, 180, Mercator.maxLatitude),
                                                    width: 512, height: 512))
        XCTAssertEqual(world.zoom, 0, accuracy: 1e-6)
        XCTAssertEqual(world.center.lon, 0, accuracy: 1e-9)
        XCTAssertEqual(world.center.lat, 0, accuracy: 1e-6)
        // Tile 3/5/2 spans lon 45...90 and the matching latitudes; a 512 view fits it at zoom 3.
        let n = Mercator.lat(y: 2.0 / 8), s = Mercator.lat(y: 3.0 / 8)
        let tile = try XCTUnwrap(Transform.fitting(bounds: (45, s, 90, n), width: 512, height: 512))
        XCTAssertEqual(tile.zoom, 3, accuracy: 1e-9)
        XCTAssertEqual(tile.center.lon, 67.5, accuracy: 1e-9)
        XCTAssertEqual(Mercator.y(lat: tile.center.lat), 2.5 / 8, accuracy: 1e-12)
    }

    func testFittingWithPaddingShiftsTheCenter() throws {
        // 100 px of top padding: 412 px for 64 world px at zoom 0 -> zoom log2(412/64).
        let n = Mercator.lat(y: 2.0 / 8), s = Mercator.lat(y: 3.0 / 8)
        let t = try XCTUnwrap(Transform.fitting(bounds: (45, s, 90, n), padding: (100, 0, 0, 0), width: 512, height: 512))
        XCTAssertEqual(t.zoom, log2(412.0 / 64), accuracy: 1e-9)
        let p = t.point(for: (67.5, Mercator.lat(y: 2.5 / 8)))
        XCTAssertEqual(p.x, 256, accuracy: 1e-6)
        XCTAssertEqual(p.y, 306, accuracy: 1e-6)
        XCTAssertNil(Transform.fitting(bounds: (0, 0, 1, 1), padding: (300, 0, 300, 0), width: 512, height: 512))
        let capped = try XCTUnwrap(Transform.fitting(bounds: (0, 0, 1e-7, 1e-7), width: 512, height: 512))
        XCTAssertEqual(capped.zoom, 22)
    }
}
