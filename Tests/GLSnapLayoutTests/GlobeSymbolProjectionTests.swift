import XCTest
@testable import GLSnapLayout
import GLSnapData

/// Tile points projected for symbols on the globe land where the globe draws their coordinates,
/// and the horizon hides what the globe hides.
final class GlobeSymbolProjectionTests: XCTestCase {
    private func tilePoint(lon: Double, lat: Double, in tile: TileID) -> Vec2 {
        let n = exp2(Double(tile.z)), e = Double(TileExtent.extent)
        return Vec2((Mercator.x(lon: lon) * n - Double(tile.x)) * e, (Mercator.y(lat: lat) * n - Double(tile.y)) * e)
    }

    func testTilePointsLandWhereTheGlobeDrawsThem() throws {
        let t = Transform(width: 300, height: 200, center: (20, 30), zoom: 2, bearing: 40, pitch: 30)
        let globe = GlobeView(flat: t)
        let id = try XCTUnwrap(TileID(z: 2, x: 2, y: 1))
        let tile = CoveredTile(id: id, wrap: 0, overscaledZoom: 2)
        let p = TileProjector(transform: t, tile: tile, symbols: SymbolTile(), globe: globe)
        for (lon, lat) in [(20.0, 30.0), (40, 50), (0.5, 10), (60, 20)] {
            let v = tilePoint(lon: lon, lat: lat, in: id)
            let expected = try XCTUnwrap(globe.point(for: (lon, lat)))
            let got = try XCTUnwrap(p.project(v))
            XCTAssertEqual(got.x, expected.x, accuracy: 1e-6); XCTAssertEqual(got.y, expected.y, accuracy: 1e-6)
            XCTAssertFalse(p.isOccluded(v))
        }
        // The center is the camera's distance away, as on the flat map (same perspective ratio).
        XCTAssertEqual(try XCTUnwrap(p.project(tilePoint(lon: 20, lat: 30, in: id))).w, t.cameraToCenterDistance, accuracy: 1e-6)
    }

    func testTheHorizonHidesTheFarSide() throws {
        let t = Transform(width: 256, height: 256, center: (0, 0), zoom: 1)
        let globe = GlobeView(flat: t)
        let id = try XCTUnwrap(TileID(z: 1, x: 1, y: 0))
        let p = TileProjector(transform: t, tile: CoveredTile(id: id, wrap: 0, overscaledZoom: 1), symbols: SymbolTile(), globe: globe)
        for lon in stride(from: 1.0, to: 179, by: 7) {
            XCTAssertEqual(p.isOccluded(tilePoint(lon: lon, lat: 20, in: id)), !globe.isVisible((lon, 20)), "\(lon)")
        }
        XCTAssertTrue(p.isOccluded(tilePoint(lon: 100, lat: 0, in: id)))
        // The flat map hides nothing.
        let flat = TileProjector(transform: t, tile: CoveredTile(id: id, wrap: 0, overscaledZoom: 1), symbols: SymbolTile())
        XCTAssertFalse(flat.isOccluded(tilePoint(lon: 100, lat: 0, in: id)))
    }

    /// Labels keep their size at every latitude: a tile unit at latitude φ counts
    /// cos φ_center / cos φ as much (GL JS's pitched text correction).
    func testGlyphsKeepTheirSizeAtEveryLatitude() throws {
        let t = Transform(width: 256, height: 256, center: (0, 0), zoom: 1)
        let id = try XCTUnwrap(TileID(z: 1, x: 1, y: 0))
        let p = TileProjector(transform: t, tile: CoveredTile(id: id, wrap: 0, overscaledZoom: 1), symbols: SymbolTile(),
                              globe: GlobeView(flat: t))
        XCTAssertEqual(p.glyphUnitsPerPixel(at: tilePoint(lon: 10, lat: 60, in: id)) / p.tileUnitsPerPixel, 2, accuracy: 1e-9)
        XCTAssertEqual(p.glyphUnitsPerPixel(at: tilePoint(lon: 10, lat: 0, in: id)) / p.tileUnitsPerPixel, 1, accuracy: 1e-9)
    }
}
