import XCTest
import GLSnapData
import GLSnapLayout
@testable import GLSnapRender

/// The width of GL JS's step line-gradient ramp, which glsnap rounds progress to (GradientSteps.swift).
final class GradientStepsTests: XCTestCase {
    private func tile(z: Int, overscaled: Int? = nil) throws -> CoveredTile {
        CoveredTile(id: try XCTUnwrap(TileID(z: z, x: 0, y: 0)), wrap: 0, overscaledZoom: overscaled ?? z)
    }

    func testResolutionFollowsTheLongestPiece() throws {
        XCTAssertEqual(GradientSteps.resolution(maxLineLength: 0, tile: try tile(z: 3)), 256, "at least 256")
        XCTAssertEqual(GradientSteps.resolution(maxLineLength: 0.1, tile: try tile(z: 3)), 256)
        // 1.4 tiles at 1024 px a tile: 1434 px, the next power of two 2048.
        XCTAssertEqual(GradientSteps.resolution(maxLineLength: 1.4, tile: try tile(z: 13)), 2048)
        XCTAssertEqual(GradientSteps.resolution(maxLineLength: 40, tile: try tile(z: 13)), 16384, "at most 16384")
    }

    func testOverscaledTileLooksAheadToMaxZoom() throws {
        // 0.01 tiles (10 px) on a zoom-18 tile drawn at 20: times 2^(22 − 18).
        XCTAssertEqual(GradientSteps.resolution(maxLineLength: 0.01, tile: try tile(z: 18, overscaled: 20)), 256)
        XCTAssertEqual(GradientSteps.resolution(maxLineLength: 0.1, tile: try tile(z: 18, overscaled: 20)), 2048)
    }
}
