import XCTest
import GLSnapData
@testable import GLSnapLayout

/// The far plane over terrain reaches down to the lowest point of the DEM tile under the center, as
/// GL JS's does (minElevationForCurrentTile): the terrain's fog depth runs from the center to it.
final class TerrainFarPlaneTests: XCTestCase {
    /// GL JS's far plane (its _calculateNearFarZIfNeeded), written out for a view without padding or roll.
    private func expectedFarZ(_ t: Transform, lowestTileElevation: Double) -> Double {
        let fov = t.verticalFieldOfView * .pi / 180
        let pitch = min(t.pitch, 89.25) * .pi / 180
        let ppm = t.pixelsPerMeter
        let toSea = t.cameraToCenterDistance + t.elevation * ppm / cos(pitch)
        let cameraAltitude = cos(t.pitch * .pi / 180) * t.cameraToCenterDistance / ppm + t.elevation
        let lowest = min(t.elevation, lowestTileElevation, cameraAltitude - 100)
        let plane = lowest < 0 ? toSea - lowest * ppm / cos(pitch) : toSea
        let ground = Double.pi / 2 + t.pitch * .pi / 180
        let clamp = { (a: Double) in min(max(a, 0.01), Double.pi - 0.01) }
        let surface = sin(fov / 2) * plane / sin(clamp(Double.pi - ground - fov / 2))
        let horizon = t.cameraToCenterDistance * min(tan((90 - t.pitch) * .pi / 180) * 0.85, tan((89.25 - t.pitch) * .pi / 180))
        let toHorizon = 2 * atan(horizon / t.cameraToCenterDistance) * 0.5
        let horizonDistance = sin(toHorizon) * plane / sin(clamp(Double.pi - ground - toHorizon))
        return (cos(Double.pi / 2 - pitch) * min(surface, horizonDistance) + plane) * 1.01
    }

    func testFarPlaneReachesTheLowestPointOfTheCenterTile() {
        for pitch in [40.0, 85.0] {
            let flat = Transform(width: 512, height: 512, center: (35.38, 31.55), zoom: 15, pitch: pitch)
            let raised = flat.elevated(120, minTerrainElevation: -410)
            XCTAssertEqual(raised.minTerrainElevation, -410)
            XCTAssertEqual(raised.farZ, expectedFarZ(raised, lowestTileElevation: -410), accuracy: 1e-6 * raised.farZ,
                           "pitch \(pitch)")
            // Without terrain below sea level the plane is the one under the camera, as before.
            let high = flat.elevated(120, minTerrainElevation: 80)
            XCTAssertLessThan(high.farZ, raised.farZ)
        }
    }

    func testMinTileElevationLeavesTheBorderOut() throws {
        let id = try XCTUnwrap(TileID(z: 2, x: 1, y: 1))
        // A 2x2 tile whose border (-1 and 2) holds -900 m and whose samples are 10...40 m.
        var meters: [Float] = []
        for y in -1...2 { for x in -1...2 { meters.append((0...1).contains(x) && (0...1).contains(y) ? Float(10 + 10 * (x + 2 * y)) : -900) } }
        let surface = TerrainSurface(grids: [DEMGrid(id: id, dim: 2, meters: meters)], exaggeration: 1.5, maxZoom: 2)
        XCTAssertEqual(surface.minTileElevation(mercatorX: 0.3, mercatorY: 0.3, zoom: 5), 15, accuracy: 1e-9)
        XCTAssertEqual(surface.minTileElevation(mercatorX: 0.8, mercatorY: 0.3, zoom: 5), 0)
    }
}

/// Over terrain GL JS gives every tile its own zoom (lower with distance at any pitch), and reads each
/// surface tile's heights from the DEM one zoom below it.
final class TerrainCoverTests: XCTestCase {
    func testTilesOverTerrainComeLowerFarAwayAtModeratePitch() {
        let t = Transform(width: 512, height: 512, center: (11.4, 47.2), zoom: 13, pitch: 50)
        let flat = t.coveringTiles(minZoom: 0, maxZoom: 22, tileSize: 512)
        XCTAssertEqual(Set(flat.map(\.id.z)), [13], "without terrain a view pitched 50 degrees keeps its zoom")
        let raised = t.elevated(600, minTerrainElevation: 500)
        let terrain = raised.coveringTiles(minZoom: 0, maxZoom: 22, tileSize: 512, reparseOverscaled: false,
                                           elevations: 500...900)
        let zooms = terrain.map(\.id.z)
        XCTAssertLessThan(zooms.min() ?? 99, 13, "far tiles come at a lower zoom")
        XCTAssertEqual(terrain.first?.id.z, 13, "the tile at the center keeps the view's zoom")
    }

    func testSurfaceTileReadsTheDEMOneZoomBelow() throws {
        let parent = try XCTUnwrap(TileID(z: 1, x: 1, y: 0)), child = try XCTUnwrap(TileID(z: 2, x: 2, y: 0))
        let coarse = DEMGrid(id: parent, dim: 2, meters: [Float](repeating: 100, count: 16))
        let fine = DEMGrid(id: child, dim: 2, meters: [Float](repeating: 900, count: 16))
        let surface = TerrainSurface(grids: [coarse, fine], exaggeration: 1, maxZoom: 2)
        let mesh = surface.mesh(for: child, cells: 2, skirt: 0)
        XCTAssertEqual(mesh.vertices[2], 100, "the z2 surface tile takes its heights from the z1 DEM tile")
        XCTAssertEqual(TerrainSurface.demZoom(forSurfaceZoom: 0), 0)
    }
}
