import CSQLite
import Foundation
import GLSnapImage
import XCTest
@testable import GLSnapServer

/// tileserver-gl's elevation API, `/data/{id}/elevation/{z}/{x}/{y}` and `/{z}/{lon}/{lat}`, over
/// small raster-dem MBTiles files written here: 256-px tiles of one color with one other pixel, at
/// (64, 128) of tile 0/0/0 (lon -90, just south of the equator), for both encodings.
final class ElevationTests: XCTestCase {
    /// mapbox: (1·65536 + 134·256 + 160) / 10 - 10000 = 0 m; (1, 150, 200): 413.6 m.
    static let mapboxFill: [UInt8] = [1, 134, 160], mapboxPixel: [UInt8] = [1, 150, 200]
    /// terrarium: 128·256 + 100 + 128/256 - 32768 = 100.5 m; (127, 0, 0): -256 m.
    static let terrariumFill: [UInt8] = [128, 100, 128], terrariumPixel: [UInt8] = [127, 0, 0]

    func testMapboxAndTerrariumPixelsAnswerTheirElevation() throws {
        let service = try makeService()
        // Tile form: the tile's center, pixel (128, 128) of the fill.
        var o = try json(service, "/data/dem-mapbox/elevation/0/0/0")
        XCTAssertEqual(o["elevation"] as? Double ?? .nan, 0, accuracy: 1e-9)
        XCTAssertEqual(o["z"] as? Int, 0); XCTAssertEqual(o["x"] as? Int, 0); XCTAssertEqual(o["y"] as? Int, 0)
        XCTAssertEqual(o["pixelX"] as? Int, 128); XCTAssertEqual(o["pixelY"] as? Int, 128)
        XCTAssertEqual(o["long"] as? Double ?? .nan, 0, accuracy: 1e-9)
        XCTAssertEqual(o["lat"] as? Double ?? .nan, 0, accuracy: 1e-9)
        // Point form: lon -89.9, lat -0.1 falls on pixel (64, 128).
        o = try json(service, "/data/dem-mapbox/elevation/0/-89.9/-0.1")
        XCTAssertEqual(o["elevation"] as? Double ?? .nan, 413.6, accuracy: 1e-6)
        XCTAssertEqual(o["pixelX"] as? Int, 64); XCTAssertEqual(o["pixelY"] as? Int, 128)
        XCTAssertEqual(o["long"] as? Double, -89.9); XCTAssertEqual(o["lat"] as? Double, -0.1)

        o = try json(service, "/data/dem-terrarium/elevation/0/0/0")
        XCTAssertEqual(o["elevation"] as? Double ?? .nan, 100.5, accuracy: 1e-9)
        o = try json(service, "/data/dem-terrarium/elevation/0/-89.9/-0.1")
        XCTAssertEqual(o["elevation"] as? Double ?? .nan, -256, accuracy: 1e-9)
        // A point's zoom is clamped to the data's (0-1): zoom 9 reads tile 1/0/0.
        o = try json(service, "/data/dem-terrarium/elevation/9/-89.9/0.1")
        XCTAssertEqual(o["z"] as? Int, 1); XCTAssertEqual(o["x"] as? Int, 0); XCTAssertEqual(o["y"] as? Int, 0)
        XCTAssertEqual(o["elevation"] as? Double ?? .nan, 100.5, accuracy: 1e-9)

        // The data's TileJSON carries the encoding, as tileserver-gl's.
        let tj = try JSONSerialization.jsonObject(with: Data(service.handle(method: "GET", path: "/data/dem-terrarium.json").body)) as? [String: Any]
        XCTAssertEqual(tj?["encoding"] as? String, "terrarium")
    }

    func testOutOfRangeAndNonDEMDataAnswerAsTileserverGL() throws {
        let service = try makeService()
        func answer(_ path: String) -> (Int, String) {
            let r = service.handle(method: "GET", path: path)
            return (r.status, String(decoding: r.body, as: UTF8.self))
        }
        // Tile form outside the grid or the data's zooms: 404.
        for path in ["/data/dem-mapbox/elevation/0/1/0", "/data/dem-mapbox/elevation/0/0/-1", "/data/dem-mapbox/elevation/5/0/0",
                     "/data/dem-mapbox/elevation/1/2/0"] {
            let (status, text) = answer(path)
            XCTAssertEqual(status, 404, path)
            XCTAssertTrue(text.contains("out of bounds") && text.contains("dem-mapbox"), "\(path): \(text)")
        }
        // A point where the file has no tile (1/0/1 is not stored), or off the world east: 204.
        XCTAssertEqual(answer("/data/dem-mapbox/elevation/1/-89.9/-0.1").0, 204)
        XCTAssertEqual(answer("/data/dem-mapbox/elevation/0/190.5/0.5").0, 204)
        // Data without an encoding, unknown data, numbers that are not: 400, 404, 400.
        let (status, text) = answer("/data/plain/elevation/0/0/0")
        XCTAssertEqual(status, 400)
        XCTAssertTrue(text.contains("'plain'") && text.contains("encoding"), text)
        let (badStatus, badText) = answer("/data/bad-encoding/elevation/0/0/0")
        XCTAssertEqual(badStatus, 400)
        XCTAssertTrue(badText.contains("'bad-encoding'") && badText.contains("mapbox or terrarium"), badText)
        XCTAssertEqual(answer("/data/nothing/elevation/0/0/0").0, 404)
        XCTAssertEqual(answer("/data/dem-mapbox/elevation/0/east/0").0, 400)
        XCTAssertEqual(answer("/data/dem-mapbox/elevation/0/nan/0").0, 400)
        XCTAssertEqual(answer("/data/dem-mapbox/elevation/x/0/0").0, 400)
    }

    func testBatchPostAnswersEachPointInOrder() throws {
        let service = try makeService()
        func post(_ id: String, _ body: String) -> (Int, String) {
            let r = service.handle(method: "POST", path: "/data/\(id)/elevation", body: .bytes(Array(body.utf8)))
            return (r.status, String(decoding: r.body, as: UTF8.self))
        }
        // The odd pixel, the fill, a point at zoom 1 where no tile is stored (null), zoom 9 clamped to 1.
        let (status, text) = post("dem-terrarium", """
        {"points": [{"lon": -89.9, "lat": -0.1, "z": 0}, {"lon": 10, "lat": 10, "z": 0},
                    {"lon": -89.9, "lat": -0.1, "z": 1}, {"lon": -89.9, "lat": 0.1, "z": 9}]}
        """)
        XCTAssertEqual(status, 200, text)
        let values = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any], text)
        XCTAssertEqual(values.count, 4)
        XCTAssertEqual(values[0] as? Double, -256)
        XCTAssertEqual(values[1] as? Double, 100.5)
        XCTAssertTrue(values[2] is NSNull, text)
        XCTAssertEqual(values[3] as? Double, 100.5)

        for (body, words) in [("{}", "points"), (#"{"points": []}"#, "points"), ("not json", "points"),
                              (#"{"points": [{"lon": 1, "lat": 2, "z": 0}, {"lon": "1", "lat": 2, "z": 0}]}"#, "index 1: lon"),
                              (#"{"points": [{"lon": 1, "lat": 2}]}"#, "index 0: z"), (#"{"points": [3]}"#, "index 0")] {
            let (status, text) = post("dem-terrarium", body)
            XCTAssertEqual(status, 400, body)
            XCTAssertTrue(text.contains(words), "\(body): \(text)")
        }
        let many = "{\"points\": [" + Array(repeating: #"{"lon": 1, "lat": 2, "z": 0}"#, count: 10_001).joined(separator: ",") + "]}"
        let (manyStatus, manyText) = post("dem-terrarium", many)
        XCTAssertEqual(manyStatus, 400)
        XCTAssertTrue(manyText.contains("10000"), manyText)
        XCTAssertEqual(post("plain", #"{"points": [{"lon": 1, "lat": 2, "z": 0}]}"#).0, 400)
        XCTAssertEqual(post("nothing", #"{"points": [{"lon": 1, "lat": 2, "z": 0}]}"#).0, 404)
        XCTAssertEqual(service.handle(method: "GET", path: "/data/dem-terrarium/elevation").status, 405)
    }

    /// Far-off longitudes are no tile (204), not a trap converting them to a tile column.
    func testHugeLongitudeIsNoData() throws {
        let service = try makeService()
        XCTAssertEqual(service.handle(method: "GET", path: "/data/dem-mapbox/elevation/0/1e300/0.5").status, 204)
        XCTAssertEqual(service.handle(method: "GET", path: "/data/dem-mapbox/elevation/22/-1e300/0.5").status, 204)
        let r = service.handle(method: "POST", path: "/data/dem-mapbox/elevation",
                               body: .bytes(Array(#"{"points": [{"lon": 1e308, "lat": 0, "z": 1e300}]}"#.utf8)))
        XCTAssertEqual(String(decoding: r.body, as: UTF8.self), "[null]")
    }

    // MARK: - Fixtures

    private func json(_ service: MapService, _ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let r = service.handle(method: "GET", path: path)
        XCTAssertEqual(r.status, 200, "\(path): \(String(decoding: r.body, as: UTF8.self))", file: file, line: line)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any], path, file: file, line: line)
    }

    private func makeService() throws -> MapService {
        let dir = NSTemporaryDirectory() + "glsnap-elevation-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        try writeDEM(dir + "/mapbox.mbtiles", fill: Self.mapboxFill, pixel: Self.mapboxPixel)
        try writeDEM(dir + "/terrarium.mbtiles", fill: Self.terrariumFill, pixel: Self.terrariumPixel)
        try writeDEM(dir + "/plain.mbtiles", fill: [200, 10, 10], pixel: [0, 0, 0])
        try """
        {"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#fff"}}]}
        """.write(toFile: dir + "/s.json", atomically: true, encoding: .utf8)
        try """
        {"options": {"paths": {"root": "", "styles": "", "mbtiles": ""}}, "styles": {"s": {"style": "s.json"}},
         "data": {"dem-mapbox": {"mbtiles": "mapbox.mbtiles", "encoding": "mapbox"},
                  "dem-terrarium": {"mbtiles": "terrarium.mbtiles", "encoding": "terrarium", "tileSize": 256},
                  "bad-encoding": {"mbtiles": "terrarium.mbtiles", "encoding": "mapzen"},
                  "plain": {"mbtiles": "plain.mbtiles"}}}
        """.write(toFile: dir + "/config.json", atomically: true, encoding: .utf8)
        var config = try ServerConfig.load(path: dir + "/config.json")
        config.workers = 1
        return try MapService(config: config)
    }

    /// A PNG MBTiles file of zooms 0-1 holding tiles 0/0/0 (`fill`, with `pixel` at (64, 128)) and
    /// 1/0/0 (`fill`).
    private func writeDEM(_ path: String, fill: [UInt8], pixel: [UInt8]) throws {
        func png(special: Bool) throws -> [UInt8] {
            var pixels = [UInt8](repeating: 255, count: 256 * 256 * 4)
            for i in 0..<(256 * 256) { pixels[i * 4] = fill[0]; pixels[i * 4 + 1] = fill[1]; pixels[i * 4 + 2] = fill[2] }
            if special {
                let i = (128 * 256 + 64) * 4
                pixels[i] = pixel[0]; pixels[i + 1] = pixel[1]; pixels[i + 2] = pixel[2]
            }
            return try PNGEncoder().encode(RGBAImage(width: 256, height: 256, pixels: pixels))
        }
        var db: OpaquePointer?
        XCTAssertEqual(sqlite3_open(path, &db), SQLITE_OK)
        defer { sqlite3_close(db) }
        func exec(_ sql: String) { XCTAssertEqual(sqlite3_exec(db, sql, nil, nil, nil), SQLITE_OK, sql) }
        exec("CREATE TABLE metadata (name TEXT, value TEXT)")
        exec("CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)")
        exec("INSERT INTO metadata VALUES ('name', 'dem'), ('format', 'png'), ('minzoom', '0'), ('maxzoom', '1'), ('bounds', '-180,-85,180,85')")
        // MBTiles rows count from the south: tile 1/0/0 is row 1.
        for (z, row, special) in [(0, 0, true), (1, 1, false)] {
            let bytes = try png(special: special)
            var statement: OpaquePointer?
            XCTAssertEqual(sqlite3_prepare_v2(db, "INSERT INTO tiles VALUES (?, 0, ?, ?)", -1, &statement, nil), SQLITE_OK)
            sqlite3_bind_int(statement, 1, Int32(z)); sqlite3_bind_int(statement, 2, Int32(row))
            _ = bytes.withUnsafeBytes { sqlite3_bind_blob(statement, 3, $0.baseAddress, Int32($0.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self)) }
            XCTAssertEqual(sqlite3_step(statement), SQLITE_DONE)
            sqlite3_finalize(statement)
        }
    }
}
