import XCTest
import GLSnapData
@testable import GLSnapLayout

final class TerrainSurfaceTests: XCTestCase {
    /// A 2x2 DEM tile (with its border) whose samples rise by 10 m to the east and 100 m to the south.
    private func ramp(_ id: TileID) -> DEMGrid {
        var meters: [Float] = []
        for y in -1...2 { for x in -1...2 { meters.append(Float(10 * x + 100 * y)) } }
        return DEMGrid(id: id, dim: 2, meters: meters)
    }

    func testElevationIsBilinearAndExaggerated() throws {
        let id = try XCTUnwrap(TileID(z: 1, x: 1, y: 0))
        let surface = TerrainSurface(grids: [ramp(id)], exaggeration: 2, maxZoom: 1)
        // Sample i stands at i / dim across the tile: the tile's middle is sample (1, 1).
        XCTAssertEqual(surface.elevation(mercatorX: 0.75, mercatorY: 0.25, zoom: 1), 2 * 110, accuracy: 1e-9)
        XCTAssertEqual(surface.elevation(mercatorX: 0.625, mercatorY: 0.125, zoom: 1), 2 * 55, accuracy: 1e-9)
        // Deeper zooms read the tile overscaled; elsewhere there is no DEM: 0.
        XCTAssertEqual(surface.elevation(mercatorX: 0.75, mercatorY: 0.25, zoom: 9), 2 * 110, accuracy: 1e-9)
        XCTAssertEqual(surface.elevation(mercatorX: 0.25, mercatorY: 0.25, zoom: 1), 0)
        XCTAssertEqual(surface.elevationRange, (2 * -110.0)...(2 * 220.0))
    }

    func testMeshHasItsSkirtBelowTheEdges() throws {
        let id = try XCTUnwrap(TileID(z: 1, x: 1, y: 0))
        let surface = TerrainSurface(grids: [ramp(id)], exaggeration: 1, maxZoom: 1)
        let flat = surface.mesh(for: id, cells: 4, skirt: 0)
        XCTAssertEqual(flat.vertices.count, 25 * 3)
        XCTAssertEqual(flat.indices.count, 16 * 6)
        let skirted = surface.mesh(for: id, cells: 4, skirt: 500)
        XCTAssertEqual(skirted.vertices.count, (25 + 4 * 5) * 3)
        XCTAssertEqual(skirted.indices.count, (16 + 4 * 4) * 6)
        // The first skirt vertex hangs 500 m below the north-west corner.
        XCTAssertEqual(skirted.vertices[25 * 3 + 2], skirted.vertices[2] - 500)
        XCTAssertEqual(TerrainSurface.skirtLength(zoom: 0), Mercator.earthCircumference / 5, accuracy: 1e-6)
    }

    /// A point at the center's elevation is drawn where the flat camera draws the ground point.
    func testElevatedCameraKeepsTheCenterWhereItWas() {
        let flat = Transform(width: 300, height: 200, center: (10, 45), zoom: 12, bearing: 20, pitch: 50)
        let raised = flat.elevated(1500)
        XCTAssertEqual(raised.elevation, 1500)
        let x = flat.centerPoint.x + 40, y = flat.centerPoint.y - 30
        let a = Mat4.transform(flat.projMatrix, x, y, 0, 1), b = Mat4.transform(raised.projMatrix, x, y, 1500, 1)
        XCTAssertEqual(a.0 / a.3, b.0 / b.3, accuracy: 1e-9)
        XCTAssertEqual(a.1 / a.3, b.1 / b.3, accuracy: 1e-9)
        // The far plane reaches the sea level below the raised center.
        XCTAssertGreaterThan(raised.farZ, flat.farZ)
        // Fog depth is 0 at the center (its near plane) and grows away from the camera.
        let id = TileID(z: 12, x: Int(flat.centerPoint.x / 512), y: Int(flat.centerPoint.y / 512))!
        let fog = raised.fogMatrix(for: id).map(Double.init)
        let ux = (flat.centerPoint.x / 512 - Double(id.x)) * 8192, uy = (flat.centerPoint.y / 512 - Double(id.y)) * 8192
        // Its near plane is the sea level under the center on the view's axis: the raised center
        // is nearer (no fog), ground farther away is deeper, up to the far plane.
        let c = Mat4.transform(fog, ux, uy, 1500, 1)
        XCTAssertLessThan(c.2 / c.3, -1)
        let far = Mat4.transform(fog, ux + 2000, uy - 6000, 0, 1), farther = Mat4.transform(fog, ux + 3000, uy - 9000, 0, 1)
        XCTAssertGreaterThan(far.2 / far.3, -1)
        XCTAssertGreaterThan(farther.2 / farther.3, far.2 / far.3)
    }
}
