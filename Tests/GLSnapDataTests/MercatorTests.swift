import Foundation
import XCTest
@testable import GLSnapData

/// The one Mercator (GLSnapStyle, re-exported here) gives, bit for bit, what each of the copies it
/// replaced gave (the expressions' `within`/`distance` used the camera's formulas; the server's, the
/// camera's, the source bounds' and the tile pyramid's formulas are written out here as they were).
final class MercatorTests: XCTestCase {
    static let latitudes: [Double] = [-89, -85.0511287798066, -85, -60.5, -45, -12.345, -1e-9, 0, 3e-7, 10, 41.87, 60.185755, 85, 85.051129, 89]
    static let ys: [Double] = [0, 1e-9, 0.125, 0.25, 0.3717, 0.5, 0.6, 0.875, 0.999, 1]

    func testOneLatitudeLimitWhereYReachesTheEdges() {
        // The camera's limit was 85.051129, past the edge of the square world (y < 0 there).
        XCTAssertEqual(Mercator.maxLatitude, atan(sinh(Double.pi)) * 180 / .pi, accuracy: 1e-12)
        XCTAssertEqual(Mercator.y(lat: Mercator.maxLatitude), 0, accuracy: 1e-13)
        XCTAssertEqual(Mercator.y(lat: -Mercator.maxLatitude), 1, accuracy: 1e-13)
        XCTAssertEqual(Mercator.project(lon: 0, lat: 90).y, 0, accuracy: 1e-13)
        XCTAssertEqual(Mercator.maxLatitude, 85.0511287798066) // the server's and the tile writers' literal
    }

    func testServerFormulasUnchanged() {
        for lat in Self.latitudes {
            for lon in [-180.0, -87.65, 0, 24.6881, 179.999] {
                // GLSnapServer's Mercator.project, as it was.
                let clamped = max(-85.0511287798066, min(85.0511287798066, lat))
                let s = sin(clamped * .pi / 180)
                let old = ((lon + 180) / 360, 0.5 - log((1 + s) / (1 - s)) / (4 * .pi))
                let new = Mercator.project(lon: lon, lat: lat)
                XCTAssertEqual(new.x.bitPattern, old.0.bitPattern)
                XCTAssertEqual(new.y.bitPattern, old.1.bitPattern, "lat \(lat)")
            }
        }
        for y in Self.ys {
            let old = atan(sinh(.pi * (1 - 2 * y))) * 180 / .pi
            XCTAssertEqual(Mercator.unproject(x: y, y: y).lat.bitPattern, old.bitPattern)
            XCTAssertEqual(Mercator.unproject(x: y, y: y).lon.bitPattern, (y * 360 - 180).bitPattern)
        }
        let c = Mercator.tileCenter(z: 13, x: 2101, y: 3045)
        XCTAssertEqual(c.lat.bitPattern, (atan(sinh(.pi * (1 - 2 * (3045.5 / 8192)))) * 180 / .pi).bitPattern)
        let m = Mercator.fromMeters(x: 2_745_000, y: 8_438_000)
        XCTAssertEqual(m.lon.bitPattern, (2_745_000 / 6378137.0 * 180 / .pi).bitPattern)
        XCTAssertEqual(m.lat.bitPattern, (atan(sinh(8_438_000 / 6378137.0)) * 180 / .pi).bitPattern)
    }

    func testCameraFormulasUnchanged() {
        for lat in Self.latitudes {
            let old = (180 - (180 / .pi * log(tan(.pi / 4 + lat * .pi / 360)))) / 360
            XCTAssertEqual(Mercator.y(lat: lat).bitPattern, old.bitPattern)
        }
        for y in Self.ys {
            let y2 = 180 - y * 360
            XCTAssertEqual(Mercator.lat(y: y).bitPattern, (360 / .pi * atan(exp(y2 * .pi / 180)) - 90).bitPattern)
        }
        XCTAssertEqual(Mercator.earthCircumference, 2 * Double.pi * 6371008.8)
    }

    func testGeoJSONFormulasUnchanged() {
        for lat in Self.latitudes + [90, -90] {
            // geojson-vt's and supercluster's, as GeoJSONProjection and GeoJSONClusterIndex wrote them.
            let s = sin(lat * .pi / 180)
            let old = 0.5 - 0.25 * log((1 + s) / (1 - s)) / .pi
            XCTAssertEqual(Mercator.geoJSONY(lat: lat).bitPattern, old.bitPattern, "lat \(lat)")
            XCTAssertEqual(GeoJSONProjection.y(lat), old < 0 ? 0 : (old > 1 ? 1 : (old.isNaN ? 0 : old)))
        }
        for lon in [-180.0, -87.65, 0, 24.6881, 180] {
            XCTAssertEqual(Mercator.geoJSONX(lon: lon).bitPattern, (lon / 360 + 0.5).bitPattern)
        }
        XCTAssertEqual(GeoJSONProjection.y(90), 0)
        XCTAssertEqual(GeoJSONProjection.y(-90), 1)
    }

    func testRoundTrips() {
        for lat in Self.latitudes where abs(lat) < Mercator.maxLatitude {
            XCTAssertEqual(Mercator.lat(y: Mercator.y(lat: lat)), lat, accuracy: 1e-9)
            XCTAssertEqual(Mercator.unproject(x: 0.5, y: Mercator.project(lon: 0, lat: lat).y).lat, lat, accuracy: 1e-9)
            // The two forms agree up to rounding.
            XCTAssertEqual(Mercator.y(sine: sin(lat * .pi / 180)), Mercator.y(lat: lat), accuracy: 1e-12)
        }
        for lon in [-180.0, -1, 0, 33.3, 180] { XCTAssertEqual(Mercator.lon(x: Mercator.x(lon: lon)), lon, accuracy: 1e-12) }
    }

    func testSourceBoundsClampToTheOneLimit() {
        // A source whose bounds reach the poles covers the top and bottom rows, none beyond.
        let info = SourceInfo(type: .vector, bounds: [-180, -90, 180, 90])
        XCTAssertTrue(info.covers(TileID(z: 2, x: 0, y: 0)!))
        XCTAssertTrue(info.covers(TileID(z: 2, x: 3, y: 3)!))
        XCTAssertEqual(SourceInfo.mercatorY(90), 0, accuracy: 1e-13)
    }
}
