import XCTest
import GLSnapData
@testable import GLSnapLayout

/// The heights that raise circles, heatmap points and extrusions onto the terrain.
final class TerrainFeatureElevationTests: XCTestCase {
    /// A 2x2 DEM tile (with its border) whose samples rise by 10 m to the east and 100 m to the south.
    private func surface(_ id: TileID) -> TerrainSurface {
        var meters: [Float] = []
        for y in -1...2 { for x in -1...2 { meters.append(Float(10 * x + 100 * y)) } }
        return TerrainSurface(grids: [DEMGrid(id: id, dim: 2, meters: meters)], exaggeration: 2, maxZoom: 1)
    }

    func testPointsReadTheGroundAtTheirCenters() throws {
        let dem = try XCTUnwrap(TileID(z: 1, x: 1, y: 0))
        let s = surface(dem)
        // A source tile of zoom 2 in the DEM tile's north-west quarter reads it one zoom up (as a
        // surface tile of zoom 2 does): its middle is the DEM tile's quarter point, sample (0.5, 0.5).
        let tile = try XCTUnwrap(TileID(z: 2, x: 2, y: 0))
        let e = Int16(TileExtent.extent)
        // Four corners of one point at the tile's middle (center * 2 + corner bit), then one at its
        // north-west corner (sample (0, 0)).
        let half = e / 2
        let packed: [Int16] = [half * 2, half * 2, half * 2 + 1, half * 2, half * 2, half * 2 + 1, half * 2 + 1, half * 2 + 1, 0, 0]
        let heights = s.pointElevations(packedPositions: packed, in: tile)
        XCTAssertEqual(heights.count, 5)
        for h in heights.prefix(4) { XCTAssertEqual(h, 2 * 55, accuracy: 1e-3) }
        XCTAssertEqual(heights[4], 0, accuracy: 1e-3)
        XCTAssertEqual(s.elevation(in: tile, x: Double(e), y: Double(e)), 2 * 110, accuracy: 1e-6)
    }

    func testExtrusionVerticesReadTheGroundAtTheirFeaturesWallCentroid() throws {
        let dem = try XCTUnwrap(TileID(z: 1, x: 1, y: 0))
        let s = surface(dem)
        let tile = try XCTUnwrap(TileID(z: 2, x: 2, y: 0))
        let e = Int16(TileExtent.extent)
        // In source tile 2/2/0 (the DEM tile's north-west quarter): feature 0, four wall vertices
        // around the west half (centroid (e/4, e/2) → sample (0.25, 0.5)) and a roof vertex at the
        // tile's south-east corner that does not count; feature 1, only a roof vertex there
        // (sample (1, 1)).
        let positions: [Int16] = [0, 0, e / 2, 0, e / 2, e, 0, e, e, e, e, e]
        let wall: [Int16] = [0, 16384, 0, 0], roof: [Int16] = [1, 0, 32767, 0]
        let normals = Array([wall, wall, wall, wall, roof, roof].joined())
        let spans = [FeatureSpan(feature: 0, vertexStart: 0, vertexCount: 5), FeatureSpan(feature: 1, vertexStart: 5, vertexCount: 1)]
        let heights = s.centroidElevations(positions: positions, normals: normals, spans: spans, in: tile)
        XCTAssertEqual(heights.count, 6)
        for h in heights.prefix(5) { XCTAssertEqual(h, 2 * 52.5, accuracy: 1e-3) }
        XCTAssertEqual(heights[5], 2 * 110, accuracy: 1e-3)
        // A span past the buffer's end is cut to it.
        let cut = s.centroidElevations(positions: positions, normals: normals,
                                       spans: [FeatureSpan(feature: 0, vertexStart: 4, vertexCount: 9)], in: tile)
        XCTAssertEqual(cut[0], 0)
        XCTAssertEqual(cut[4], cut[5])
    }
}
