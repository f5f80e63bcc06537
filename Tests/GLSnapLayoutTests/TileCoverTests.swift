import XCTest
import GLSnapData
@testable import GLSnapLayout

final class TileCoverTests: XCTestCase {
    private func center(ofTileZ z: Int, x: Double, y: Double) -> (lon: Double, lat: Double) {
        let n = pow(2, Double(z))
        return (Mercator.lon(x: x / n), Mercator.lat(y: y / n))
    }

    func testUnpitchedViewCentredInATileCoversThreeByThree() {
        // A tile is 512 px at integer zoom: 1024 px centred in tile (1,1) reach half a tile around.
        let t = Transform(width: 1024, height: 1024, center: center(ofTileZ: 2, x: 1.5, y: 1.5), zoom: 2)
        let cover = t.coveringTiles()
        XCTAssertEqual(cover.count, 9)
        XCTAssertEqual(cover.first?.id, TileID(z: 2, x: 1, y: 1))
        XCTAssertEqual(Set(cover.map { "\($0.id)" }),
                       Set((0...2).flatMap { x in (0...2).map { y in "2/\(x)/\(y)" } }))
        XCTAssertTrue(cover.allSatisfy { $0.wrap == 0 && $0.overscaledZoom == 2 })
    }

    func testFractionalZoomFloorsAndTileSize256AddsOne() {
        let t = Transform(width: 256, height: 256, center: center(ofTileZ: 4, x: 8.5, y: 8.5), zoom: 4.7)
        XCTAssertEqual(t.coveringZoomLevel(), 4)
        XCTAssertEqual(t.coveringZoomLevel(roundZoom: true), 5)
        XCTAssertEqual(t.coveringZoomLevel(tileSize: 256), 5)
        // At zoom 4.7 a 256 px view is 256/(512*2^0.7) of a z4 tile: centred in 4/8/8 it stays inside.
        XCTAssertEqual(t.coveringTiles().map(\.id), [TileID(z: 4, x: 8, y: 8)!])
    }

    func testBelowMinZoomIsEmptyAndAboveMaxZoomIsOverscaled() {
        let t = Transform(width: 300, height: 300, center: center(ofTileZ: 16, x: 100.5, y: 200.5), zoom: 16.2)
        XCTAssertTrue(t.coveringTiles(minZoom: 17).isEmpty)
        let cover = t.coveringTiles(maxZoom: 14)
        XCTAssertEqual(cover.first?.id, TileID(z: 14, x: 25, y: 50))
        XCTAssertEqual(cover.first?.overscaledZoom, 16)
        XCTAssertEqual(t.coveringTiles(maxZoom: 14, reparseOverscaled: false).first?.overscaledZoom, 14)
        let over = t.overscaledCover(maxZoom: 14)
        XCTAssertEqual(over.first?.target, TileID(z: 16, x: 100, y: 200))
        XCTAssertEqual(over.first?.fetch, TileID(z: 14, x: 25, y: 50))
        XCTAssertTrue(over.allSatisfy { $0.target.z == 16 && $0.fetch == $0.target.parent(atZoom: 14) })
    }

    func testAntimeridianAddsTheEastWorldCopy() {
        let t = Transform(width: 512, height: 512, center: (179.9, 0), zoom: 3)
        let cover = t.coveringTiles()
        let east = cover.filter { $0.wrap == 1 }
        XCTAssertFalse(east.isEmpty)
        XCTAssertTrue(east.allSatisfy { $0.id.x == 0 })
        XCTAssertTrue(cover.filter { $0.wrap == 0 }.allSatisfy { $0.id.x == 7 })
        XCTAssertEqual(cover.count, 4)  // x 7 and x 0 (next copy), y 3 and 4
    }

    func testRotatedViewCoversItsCorners() {
        // Bearing 45: the one-tile view becomes a diamond reaching 0.707 tiles along the axes,
        // so it meets the four edge neighbours but none of the diagonal ones.
        let t = Transform(width: 512, height: 512, center: center(ofTileZ: 4, x: 8.5, y: 8.5), zoom: 4, bearing: 45)
        let ids = Set(t.coveringTiles().map { "\($0.id)" })
        XCTAssertEqual(ids, ["4/8/8", "4/8/7", "4/8/9", "4/7/8", "4/9/8"])
    }

    func testSteepPitchUsesLowerZoomsFarAway() {
        let t = Transform(width: 512, height: 512, center: center(ofTileZ: 12, x: 2000.5, y: 1500.5), zoom: 12, pitch: 75)
        let cover = t.coveringTiles()
        XCTAssertEqual(cover.first?.id, TileID(z: 12, x: 2000, y: 1500))
        XCTAssertTrue(cover.contains { $0.id.z < 12 })
        let flat = Transform(width: 512, height: 512, center: center(ofTileZ: 12, x: 2000.5, y: 1500.5), zoom: 12, pitch: 45)
        XCTAssertTrue(flat.coveringTiles().allSatisfy { $0.id.z == 12 })
    }

    func testWideFieldOfViewVariesTheZoomAtLowPitch() {
        // GL JS keeps one zoom up to 78.5 - fov / 2 degrees of pitch (at most 60): at 150 degrees
        // of field of view that is 3.5, so a 30-degree view loads lower zooms far away; at the
        // default field of view it stays at one zoom.
        let c = center(ofTileZ: 16, x: 40000.5, y: 30000.5)
        let wide = Transform(width: 512, height: 512, center: c, zoom: 16.25, pitch: 30, fieldOfView: 150)
        let zooms = Set(wide.coveringTiles().map(\.id.z))
        XCTAssertTrue(zooms.contains { $0 < 16 }, "\(zooms)")
        let standard = Transform(width: 512, height: 512, center: c, zoom: 16.25, pitch: 30)
        XCTAssertEqual(Set(standard.coveringTiles().map(\.id.z)), [16])
        // Rolled 90 degrees the view is as wide as it is high here, so the limit stays at 60.
        let rolled = Transform(width: 512, height: 512, center: c, zoom: 16.25, pitch: 55, roll: 90)
        XCTAssertEqual(Set(rolled.coveringTiles().map(\.id.z)), [16])
    }
}
