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

/// Padding, roll and field of view, checked against the pinhole camera worked out by hand: a
/// camera `D` = (h / 2) / tan(fov / 2) pixels from the center, tilted by the pitch, sees a ground
/// point `d` world pixels beyond the center `D·d·cos p / (D + d·sin p)` pixels above the center.
final class TransformCameraTests: XCTestCase {
    /// The coordinate `dx`, `dy` world pixels (y down) from the center of `t`.
    private func offset(_ t: Transform, _ dx: Double, _ dy: Double) -> (lon: Double, lat: Double) {
        let x = Mercator.x(lon: t.center.lon) * t.worldSize + dx, y = Mercator.y(lat: t.center.lat) * t.worldSize + dy
        return (Mercator.lon(x: x / t.worldSize), Mercator.lat(y: y / t.worldSize))
    }

    func testFieldOfViewSetsTheCameraDistanceAndThePitchedDepth() {
        let t = Transform(width: 512, height: 512, center: (35.37, 31.55), zoom: 16, pitch: 30, fieldOfView: 90)
        XCTAssertEqual(t.verticalFieldOfView, 90)
        XCTAssertEqual(t.cameraToCenterDistance, 256, accuracy: 1e-9)
        let d = 100.0, p = 30.0 * .pi / 180, D = 256.0
        let north = t.point(for: offset(t, 0, -d))
        XCTAssertEqual(north.x, 256, accuracy: 1e-6)
        XCTAssertEqual(north.y, 256 - D * d * cos(p) / (D + d * sin(p)), accuracy: 1e-6)
        // The default 36.87 degrees is 1.5 heights away and shows the same point nearer the center.
        let standard = Transform(width: 512, height: 512, center: (35.37, 31.55), zoom: 16, pitch: 30)
        XCTAssertEqual(standard.point(for: offset(t, 0, -d)).y, 256 - 768 * d * cos(p) / (768 + d * sin(p)), accuracy: 1e-6)
    }

    func testPaddingMovesTheCenterAndTheVanishingPoint() {
        let pad = (top: 100.0, left: 60.0, bottom: 0.0, right: 0.0)
        let t = Transform(width: 512, height: 512, center: (0, 0), zoom: 8, pitch: 40, padding: pad)
        // The center lies in the middle of what the insets leave: ((60 + 512) / 2, (100 + 512) / 2).
        let c = t.point(for: (0, 0))
        XCTAssertEqual(c.x, 286, accuracy: 1e-6)
        XCTAssertEqual(c.y, 306, accuracy: 1e-6)
        XCTAssertEqual(t.centerScreenPoint.x, 286); XCTAssertEqual(t.centerScreenPoint.y, 306)
        // Depth goes as from an unpadded camera around the moved center: the vanishing point moves too.
        let d = 200.0, p = 40.0 * .pi / 180, D = 768.0
        let north = t.point(for: offset(t, 0, -d))
        XCTAssertEqual(north.x, 286, accuracy: 1e-6)
        XCTAssertEqual(north.y, 306 - D * d * cos(p) / (D + d * sin(p)), accuracy: 1e-6)
        let back = t.coordinate(for: (north.x, north.y))
        XCTAssertEqual(back.lat, offset(t, 0, -d).lat, accuracy: 1e-9)
    }

    func testRollTurnsTheViewClockwiseLikeTheBearing() {
        // Unpitched, roll 90 shows east up, as bearing 90 does.
        let flat = Transform(width: 512, height: 512, center: (10, 20), zoom: 10, roll: 90)
        let east = flat.point(for: offset(flat, 100, 0))
        XCTAssertEqual(east.x, 256, accuracy: 1e-6)
        XCTAssertEqual(east.y, 156, accuracy: 1e-6)
        // Pitched 30 and rolled 90: the pitched view turned on its axis, so north lies to the left
        // at the pitched distance.
        let t = Transform(width: 512, height: 512, center: (10, 20), zoom: 10, pitch: 30, roll: 90)
        let d = 100.0, p = 30.0 * .pi / 180, D = 768.0
        let north = t.point(for: offset(t, 0, -d))
        XCTAssertEqual(north.x, 256 - D * d * cos(p) / (D + d * sin(p)), accuracy: 1e-6)
        XCTAssertEqual(north.y, 256, accuracy: 1e-6)
        for (x, y) in [(0.0, 0.0), (512.0, 300.0), (100.0, 500.0)] {
            let q = t.point(for: t.coordinate(for: (x, y)))
            XCTAssertEqual(q.x, x, accuracy: 1e-6); XCTAssertEqual(q.y, y, accuracy: 1e-6)
        }
        // Labels: east runs up the screen, and a viewer-facing label's x axis lies along south.
        XCTAssertEqual(flat.eastScreenAngle, -.pi / 2, accuracy: 1e-9)
        let skew = flat.skewVectors
        XCTAssertEqual(skew.east.x, 0, accuracy: 1e-9); XCTAssertEqual(skew.east.y, 1, accuracy: 1e-9)
        XCTAssertEqual(skew.south.x, -1, accuracy: 1e-9); XCTAssertEqual(skew.south.y, 0, accuracy: 1e-9)
    }

    func testQueryCameraPointFollowsPaddingAndRoll() {
        // The ground under the camera lies tan(pitch)·D below the center on the screen; rolled 90
        // degrees (north turns to the left, so south to the right) it lies to the right of the
        // padded center instead.
        let t = Transform(width: 512, height: 512, center: (0, 0), zoom: 10, pitch: 45, roll: 90, padding: (100, 0, 0, 0))
        let q = t.cameraQueryGeometry([QueryPoint(10, 10)])
        XCTAssertEqual(q[1].x, 256 + 768, accuracy: 1e-6)
        XCTAssertEqual(q[1].y, 306, accuracy: 1e-6)
    }

    func testFarPlaneStopsAtTheHorizonAtHighPitch() {
        // At 85 degrees the top of the view looks above the horizon: GL JS limits the far plane to
        // the ground seen 4.25 degrees above the center ray (the 89.25-degree horizon): with D = 768,
        // sin(4.25°)·D / sin(0.75°) on the ground, cos(5°) of it in depth, plus D, and 1 % more.
        let t = Transform(width: 512, height: 512, center: (0, 0), zoom: 10, pitch: 85)
        let D = 768.0, deg = Double.pi / 180
        let ground = sin(4.25 * deg) * D / sin(0.75 * deg)
        XCTAssertEqual(t.farZ, (cos(5 * deg) * ground + D) * 1.01, accuracy: 1e-6 * D)
        // At 45 degrees the top of the view stays on the ground, 18.43 degrees above the center ray.
        let low = Transform(width: 512, height: 512, center: (0, 0), zoom: 10, pitch: 45)
        let half = atan(1.0 / 3)
        let lowGround = sin(half) * D / sin(.pi - (.pi / 2 + 45 * deg) - half)
        XCTAssertEqual(low.farZ, (cos(45 * deg) * lowGround + D) * 1.01, accuracy: 1e-6 * D)
    }
}
