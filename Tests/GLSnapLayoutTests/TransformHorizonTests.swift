import XCTest
@testable import GLSnapLayout

/// The horizon, the raised center (`centerAltitude`) and pitch past 90 degrees of `Transform`.
final class TransformHorizonTests: XCTestCase {
    private func transform(pitch: Double, zoom: Double = 15, roll: Double = 0, altitude: Double = 0) -> Transform {
        Transform(width: 256, height: 128, center: (35.38, 31.55), zoom: zoom, pitch: pitch, roll: roll, centerAltitude: altitude)
    }

    func testTheHorizonIsGLJSsMercatorHorizon() {
        // 0.85 of the flat plane's vanishing line, never steeper than 89.25 degrees from the camera.
        let t = transform(pitch: 85)
        XCTAssertEqual(t.horizonAboveCenter, t.cameraToCenterDistance * tan(4.25 * Double.pi / 180), accuracy: 1e-9)
        let gentle = transform(pitch: 70)
        XCTAssertEqual(gentle.horizonAboveCenter, gentle.cameraToCenterDistance * tan(20 * Double.pi / 180) * 0.85, accuracy: 1e-9)
        let up = transform(pitch: 95)
        XCTAssertEqual(up.horizonAboveCenter, up.cameraToCenterDistance * tan(-5.75 * Double.pi / 180), accuracy: 1e-9)
        // Rolled 90 degrees clockwise, the sky is to the left.
        let line = transform(pitch: 85, roll: 90).horizonLine
        XCTAssertEqual(line.normal.x, -1, accuracy: 1e-12)
        XCTAssertEqual(line.normal.y, 0, accuracy: 1e-12)
        XCTAssertEqual(line.point.x, 128 - t.horizonAboveCenter, accuracy: 1e-9)
    }

    func testPitchGoesPast90() {
        XCTAssertEqual(transform(pitch: 95).pitch, 95)
        XCTAssertEqual(transform(pitch: 200).pitch, Transform.maxPitch)
    }

    func testARaisedCenterLiftsTheCamera() {
        // Straight down, the ground under a raised center is farther: the same ground distance
        // looks smaller (the center itself stays in the middle).
        let flat = transform(pitch: 0), raised = transform(pitch: 0, altitude: 1000)
        let east = (lon: 35.39, lat: 31.55)
        let d0 = flat.point(for: east).x - 128, d1 = raised.point(for: east).x - 128
        let metersPerPixel = 1 / (flat.worldSize / (Mercator.earthCircumference * cos(31.55 * Double.pi / 180)))
        let cameraHeight = flat.cameraToCenterDistance * metersPerPixel
        XCTAssertEqual(d1 / d0, cameraHeight / (cameraHeight + 1000), accuracy: 1e-6)
        XCTAssertGreaterThan(raised.farZ, flat.farZ)
        // Without altitude the matrices are those of a camera made without the argument.
        XCTAssertEqual(Transform(width: 256, height: 128, center: (35.38, 31.55), zoom: 15, pitch: 85).projMatrix, transform(pitch: 85).projMatrix)
    }

    func testTheFarPlaneOfASteepLowCameraReachesBelowIt() {
        // At zoom 15 and pitch 85 the camera is 34 m up: GL JS's far plane measures from a plane
        // 100 m below the camera, so it lies farther (relative to the view) than at zoom 5.
        let low = transform(pitch: 85, zoom: 15), high = transform(pitch: 85, zoom: 5)
        XCTAssertGreaterThan(low.farZ / low.cameraToCenterDistance, high.farZ / high.cameraToCenterDistance * 2)
        // Where the top of the view, not the horizon, ends the ground, the far plane is as before.
        let gentle = transform(pitch: 40, zoom: 20)
        XCTAssertEqual(gentle.farZ / gentle.cameraToCenterDistance, transform(pitch: 40, zoom: 5).farZ / transform(pitch: 40, zoom: 5).cameraToCenterDistance, accuracy: 1e-9)
    }
}
