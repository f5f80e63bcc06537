import Foundation
import GLSnapData
import XCTest
import GLSnapImage
@testable import GLSnapServer

/// What tileserver-gl does beyond its HTTP suite: CORS by default, the font list, reloading the
/// configuration without dropping requests.
final class TileserverGLOperationsTests: XCTestCase {
    func testCORSOnByDefaultAndOff() throws {
        let port = try TileserverGL.server().port
        let r = try XCTUnwrap(TileserverGL.request(port: port, method: "GET", path: "/styles.json", body: nil))
        XCTAssertEqual(r.headers["access-control-allow-origin"], "*")
        let pre = try XCTUnwrap(TileserverGL.request(port: port, method: "OPTIONS", path: "/styles/test-style/static/auto/10x10.png", body: nil,
                                                     headers: ["Origin": "http://example.com", "Access-Control-Request-Method": "POST"]))
        XCTAssertEqual(pre.status, 204)
        XCTAssertEqual(pre.headers["access-control-allow-origin"], "*")
        XCTAssertTrue(pre.headers["access-control-allow-methods"]?.contains("POST") ?? false)

        guard let f = TileserverGL.fixtures else { throw XCTSkip("../shared/fixtures is not here") }
        var config = try ServerConfig.load(path: try TileserverGL.writeConfig(into: try TileserverGL.server().folder, fixtures: f))
        config.cors = false
        let service = try MapService(config: config)
        let plain = service.handle(method: "GET", path: "/styles.json")
        XCTAssertNil(plain.headers.first { $0.0 == "Access-Control-Allow-Origin" })
        XCTAssertEqual(service.handle(method: "OPTIONS", path: "/styles.json").status, 405)
    }

    func testFontList() throws {
        let port = try TileserverGL.server().port
        let r = try XCTUnwrap(TileserverGL.request(port: port, method: "GET", path: "/fonts.json", body: nil))
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(TileserverGL.json(r) as? [String], ["Noto Sans Bold", "Noto Sans Italic", "Noto Sans Regular"])
    }

    /// Requests on 4 connections at a time while the configuration is reloaded 5 times, alternating
    /// between one style and two: every request answers 200, and after the reload the new style is served.
    func testReloadDropsNoRequest() throws {
        guard let f = TileserverGL.fixtures else { throw XCTSkip("../shared/fixtures is not here") }
        let folder = NSTemporaryDirectory() + "tsgl-reload-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let one = try ServerConfig.load(path: try TileserverGL.writeConfig(into: folder, fixtures: f))
        var two = one
        two.styles.append(ServerConfig.Style(id: "second", path: f + "/styles/basic-v9-chicago.json"))
        var start = one
        start.port = 0
        start.workers = 1
        let server = try MapServer(config: start)
        try server.start()
        defer { server.shutdown(grace: 5) }
        let port = server.port
        let failures = Counter(), answered = Counter()
        let stop = Flag()
        let group = DispatchGroup()
        for i in 0..<4 {
            DispatchQueue.global().async(group: group) {
                let paths = ["/styles/test-style/static/-87.63,41.88,12/64x64.png", "/styles.json", "/health", "/data/openmaptiles.json"]
                while !stop.isSet {
                    let r = RawHTTP.get(port: port, paths[i % paths.count])
                    if r?.status == 200 { answered.add() } else { failures.add() }
                }
            }
        }
        for k in 0..<5 {
            usleep(150_000)
            try server.reload(config: k % 2 == 0 ? two : one)
        }
        usleep(150_000)
        stop.set()
        group.wait()
        XCTAssertEqual(failures.value, 0, "requests that failed across 5 reloads")
        XCTAssertGreaterThan(answered.value, 20)
        print("reload test: \(answered.value) requests answered, \(failures.value) failed across 5 reloads")
        // The last reload served two styles.
        let list = RawHTTP.get(port: port, "/styles.json").flatMap { TileserverGL.json($0) as? [[String: Any]] }
        XCTAssertEqual(list?.compactMap { $0["id"] as? String }.sorted(), ["second", "test-style"])
        XCTAssertEqual(RawHTTP.get(port: port, "/styles/second/style.json")?.status, 200)
        // A configuration that cannot load leaves the service as it was.
        var broken = one
        broken.styles = [ServerConfig.Style(id: "broken", path: folder + "/missing.json")]
        XCTAssertThrowsError(try server.reload(config: broken))
        XCTAssertEqual(RawHTTP.get(port: port, "/styles/second/style.json")?.status, 200)
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        func add() { lock.lock(); n += 1; lock.unlock() }
        var value: Int { lock.lock(); defer { lock.unlock() }; return n }
    }

    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var on = false
        func set() { lock.lock(); on = true; lock.unlock() }
        var isSet: Bool { lock.lock(); defer { lock.unlock() }; return on }
    }
}

/// tileserver-gl's `pmtiles` data entries: served at /data like MBTiles, and named by styles as
/// `pmtiles://{id}`.
final class TileserverGLPMTilesTests: XCTestCase {
    func testPMTilesDataEntry() throws {
        guard let f = TileserverGL.fixtures else { throw XCTSkip("../shared/fixtures is not here") }
        let folder = NSTemporaryDirectory() + "tsgl-pmtiles-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let archive = folder + "/chicago.pmtiles"
        let tool = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("tools/mbtiles-to-pmtiles.py").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", tool, f + "/tiles/chicago-z13.mbtiles", archive]
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw XCTSkip("python3 could not convert the fixture") }
        // The Chicago style with its source on the archive, its sprite and glyphs by absolute path.
        var style = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: f + "/styles/bright-v9-chicago.json"))) as? [String: Any])
        var sources = try XCTUnwrap(style["sources"] as? [String: Any])
        sources["mapbox"] = ["type": "vector", "url": "pmtiles://{pm}"]
        style["sources"] = sources
        style["sprite"] = f + "/sprites/bright-v9/sprite"
        style["glyphs"] = f + "/glyphs/{fontstack}/{range}.pbf"
        try JSONSerialization.data(withJSONObject: style).write(to: URL(fileURLWithPath: folder + "/pm-style.json"))
        let config = """
        {"options": {"paths": {"root": "\(f)", "fonts": "glyphs", "styles": "styles", "mbtiles": "tiles"}},
         "styles": {"mb": {"style": "bright-v9-chicago.json"}, "pm": {"style": "\(folder)/pm-style.json"}},
         "data": {"openmaptiles": {"mbtiles": "chicago-z13.mbtiles"}, "pm": {"pmtiles": "\(archive)"}}}
        """
        try config.write(toFile: folder + "/config.json", atomically: true, encoding: .utf8)
        let service = try MapService(config: try ServerConfig.load(path: folder + "/config.json"))
        let tj = service.handle(method: "GET", path: "/data/pm.json")
        XCTAssertEqual(tj.status, 200)
        let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(tj.body)) as? [String: Any])
        XCTAssertEqual(o["format"] as? String, "pbf")
        XCTAssertEqual((o["tiles"] as? [String])?.first, "http://127.0.0.1:8080/data/pm/{z}/{x}/{y}.pbf")
        XCTAssertNil(o["vector_layers"], "the fixture lists no vector layers: an empty list is left out")
        let fromArchive = service.handle(method: "GET", path: "/data/pm/13/2101/3045.pbf")
        let fromMBTiles = service.handle(method: "GET", path: "/data/openmaptiles/13/2101/3045.pbf")
        XCTAssertEqual(fromArchive.status, 200)
        XCTAssertEqual(fromArchive.body, fromMBTiles.body, "the same tile from both files")
        let list = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(service.handle(method: "GET", path: "/data.json").body)) as? [[String: Any]])
        XCTAssertEqual(list.compactMap { $0["id"] as? String }, ["openmaptiles", "pm"])
        let served = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(service.handle(method: "GET", path: "/styles/pm/style.json").body)) as? [String: Any])
        XCTAssertEqual(((served["sources"] as? [String: Any])?["mapbox"] as? [String: Any])?["url"] as? String, "http://127.0.0.1:8080/data/pm.json")
        let a = service.handle(method: "GET", path: "/styles/pm/static/-87.63,41.88,14/200x150.png")
        let b = service.handle(method: "GET", path: "/styles/mb/static/-87.63,41.88,14/200x150.png")
        XCTAssertEqual(a.status, 200)
        XCTAssertEqual(a.body, b.body, "the style on the archive draws what the style on the MBTiles file draws")
    }
}

/// tileserver-gl's `/data/{id}/{z}/{x}/{y}.geojson` of vector data.
final class TileserverGLGeoJSONTests: XCTestCase {
    func testVectorTileAsGeoJSON() throws {
        let port = try TileserverGL.server().port
        let r = try XCTUnwrap(TileserverGL.request(port: port, method: "GET", path: "/data/openmaptiles/13/2101/3045.geojson", body: nil))
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.headers["content-type"], "application/json")
        let o = try XCTUnwrap(TileserverGL.json(r) as? [String: Any])
        XCTAssertEqual(o["type"] as? String, "FeatureCollection")
        let features = try XCTUnwrap(o["features"] as? [[String: Any]])
        XCTAssertGreaterThan(features.count, 50)
        let layers = Set(features.compactMap { ($0["properties"] as? [String: Any])?["layer"] as? String })
        XCTAssertTrue(layers.contains("road") || layers.contains("building"), "\(layers)")
        // Every coordinate is in (or within a buffer of) the tile.
        let nw = Mercator.unproject(x: 2101.0 / 8192, y: 3045.0 / 8192), se = Mercator.unproject(x: 2102.0 / 8192, y: 3046.0 / 8192)
        let margin = (se.lon - nw.lon) / 2  // tiles carry features a buffer past their edge
        var checked = 0
        func walk(_ v: Any) {
            if let pair = v as? [Double], pair.count == 2 {
                XCTAssertTrue((nw.lon - margin...se.lon + margin).contains(pair[0]) && (se.lat - margin...nw.lat + margin).contains(pair[1]), "\(pair)")
                checked += 1
            } else if let list = v as? [Any] { list.forEach(walk) }
        }
        for f in features { walk((f["geometry"] as? [String: Any])?["coordinates"] ?? []) }
        XCTAssertGreaterThan(checked, 500)
        let types = Set(features.compactMap { ($0["geometry"] as? [String: Any])?["type"] as? String })
        XCTAssertTrue(types.isSubset(of: ["Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon"]), "\(types)")
        XCTAssertEqual(TileserverGL.request(port: port, method: "GET", path: "/data/openmaptiles/0/0/0.geojson", body: nil)?.status, 204)
    }
}

/// tileserver-gl's `static/raw/...`: the view and the overlays in EPSG:3857 meters.
final class TileserverGLRawStaticTests: XCTestCase {
    func testRawCoordinatesDrawWhatDegreesDraw() throws {
        let port = try TileserverGL.server().port
        func meters(_ lon: Double, _ lat: Double) -> String {
            let r = 6378137.0
            return String(format: "%.4f,%.4f", lon * .pi / 180 * r, r * log(tan(.pi / 4 + lat * .pi / 360)))
        }
        func pixels(_ path: String) throws -> [UInt8] {
            let r = try XCTUnwrap(TileserverGL.request(port: port, method: "GET", path: path, body: nil))
            XCTAssertEqual(r.status, 200, "\(path): \(TileserverGL.text(r).prefix(200))")
            return try XCTUnwrap(TileserverGL.decodePNG(r)).pixels
        }
        let base = "/styles/\(TileserverGL.styleID)/static/"
        let overlay = "?stroke=red&width=4&path=%@|%@&marker=%@|pin.png"
        let degrees = try pixels(base + "-87.63,41.88,14/120x90.png"
            + String(format: overlay, "-87.635,41.878", "-87.625,41.882", "-87.63,41.88"))
        let raw = try pixels(base + "raw/\(meters(-87.63, 41.88)),14/120x90.png"
            + String(format: overlay, meters(-87.635, 41.878), meters(-87.625, 41.882), meters(-87.63, 41.88)))
        var differing = 0
        for i in stride(from: 0, to: min(degrees.count, raw.count), by: 4) where degrees[i..<i + 4] != raw[i..<i + 4] { differing += 1 }
        XCTAssertEqual(degrees.count, raw.count)
        XCTAssertLessThanOrEqual(differing, 20, "pixels that differ between the view in degrees and in meters")
        let box = try pixels(base + "raw/\(meters(-87.66, 41.86)),\(meters(-87.62, 41.90))/100x100.png")
        XCTAssertEqual(box.count, 100 * 100 * 4)
    }
}

/// tileserver-gl's configuration keys: serveStaticMaps, frontPage, pbfAlias and the per-style
/// serve_rendered, serve_data and tilejson.
final class TileserverGLConfigKeysTests: XCTestCase {
    func load(_ options: String, styles: String) throws -> MapService {
        guard let f = TileserverGL.fixtures else { throw XCTSkip("../shared/fixtures is not here") }
        let folder = NSTemporaryDirectory() + "tsgl-keys-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "<html>mine</html>".write(toFile: folder + "/front.html", atomically: true, encoding: .utf8)
        let config = """
        {"options": {"paths": {"root": "\(f)", "fonts": "glyphs", "styles": "styles", "mbtiles": "tiles"}\(options)},
         "styles": {\(styles)}, "data": {"openmaptiles": {"mbtiles": "chicago-z13.mbtiles"}}}
        """
        try config.write(toFile: folder + "/config.json", atomically: true, encoding: .utf8)
        return try MapService(config: try ServerConfig.load(path: folder + "/config.json"))
    }

    func testKeys() throws {
        let folder = NSTemporaryDirectory() + "tsgl-keys-\(getpid())"
        var s = try load(#", "serveStaticMaps": false, "frontPage": false, "pbfAlias": ".pbf.pict""#,
                         styles: #""a": {"style": "bright-v9-chicago.json", "serve_rendered": false}, "#
                            + #""b": {"style": "basic-v9-chicago.json", "serve_data": false, "tilejson": {"format": "webp", "bounds": [1, 2, 3, 4]}}"#)
        XCTAssertEqual(s.handle(method: "GET", path: "/styles/b/static/-87.63,41.88,12/10x10.png").status, 404, "serveStaticMaps: false")
        XCTAssertEqual(s.handle(method: "GET", path: "/").status, 404, "frontPage: false")
        let alias = s.handle(method: "GET", path: "/data/openmaptiles/13/2101/3045.pbf.pict")
        XCTAssertEqual(alias.status, 200)
        XCTAssertEqual(alias.body, s.handle(method: "GET", path: "/data/openmaptiles/13/2101/3045.pbf").body)
        XCTAssertEqual(s.handle(method: "GET", path: "/styles/a/13/2101/3045.png").status, 404, "serve_rendered: false")
        XCTAssertEqual(s.handle(method: "GET", path: "/styles/a.json").status, 404)
        XCTAssertEqual(s.handle(method: "GET", path: "/styles/a/style.json").status, 200)
        XCTAssertEqual(s.handle(method: "GET", path: "/styles/b/style.json").status, 404, "serve_data: false")
        XCTAssertEqual(s.handle(method: "GET", path: "/styles/b/13/2101/3045.png").status, 200)
        let tj = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(s.handle(method: "GET", path: "/styles/b.json").body)) as? [String: Any])
        XCTAssertEqual(tj["format"] as? String, "webp")
        XCTAssertEqual(tj["bounds"] as? [Double], [1, 2, 3, 4])
        XCTAssertEqual((tj["tiles"] as? [String])?.first, "http://127.0.0.1:8080/styles/b/{z}/{x}/{y}.webp")
        let rendered = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(s.handle(method: "GET", path: "/rendered.json").body)) as? [[String: Any]])
        XCTAssertEqual(rendered.compactMap { $0["id"] as? String }, ["b"])

        s = try load(#", "frontPage": "\#(folder)/front.html""#, styles: #""a": {"style": "bright-v9-chicago.json"}"#)
        XCTAssertEqual(String(decoding: s.handle(method: "GET", path: "/").body, as: UTF8.self), "<html>mine</html>")
        XCTAssertThrowsError(try load(#", "pbfAlias": "../x""#, styles: #""a": {"style": "bright-v9-chicago.json"}"#))

        s = try load(#", "domains": ["a.example.com", "b.example.com:8443"]"#, styles: #""a": {"style": "bright-v9-chicago.json"}"#)
        let domains = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(s.handle(method: "GET", path: "/styles/a.json").body)) as? [String: Any])
        XCTAssertEqual(domains["tiles"] as? [String], ["http://a.example.com/styles/a/{z}/{x}/{y}.png", "http://b.example.com:8443/styles/a/{z}/{x}/{y}.png"])
        let data = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(s.handle(method: "GET", path: "/data/openmaptiles.json").body)) as? [String: Any])
        XCTAssertEqual((data["tiles"] as? [String])?.count, 2)
        XCTAssertThrowsError(try load(#", "domains": ["*.example.com"]"#, styles: #""a": {"style": "bright-v9-chicago.json"}"#))

        // serveAllStyles: every style file of paths.styles, by its file name, beside the configured ones.
        s = try load(#", "serveAllStyles": true"#, styles: #""a": {"style": "bright-v9-chicago.json"}"#)
        let all = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(s.handle(method: "GET", path: "/styles.json").body)) as? [[String: Any]])
        let ids = Set(all.compactMap { $0["id"] as? String })
        let files = try FileManager.default.contentsOfDirectory(atPath: TileserverGL.fixtures! + "/styles").filter { $0.hasSuffix(".json") }
        XCTAssertEqual(ids, Set(files.map { String($0.dropLast(5)) } + ["a"]))
        XCTAssertEqual(s.handle(method: "GET", path: "/styles/positron-helsinki/style.json").status, 200)

        // serveAllFonts: by default only the fonts the styles name (basic-v9 names no Italic).
        s = try load("", styles: #""a": {"style": "basic-v9-chicago.json"}"#)
        XCTAssertEqual(try JSONSerialization.jsonObject(with: Data(s.handle(method: "GET", path: "/fonts.json").body)) as? [String],
                       ["Noto Sans Bold", "Noto Sans Regular"])
        XCTAssertEqual(s.handle(method: "GET", path: "/fonts/Noto Sans Italic/0-255.pbf").status, 400)
        s = try load(#", "serveAllFonts": true"#, styles: #""a": {"style": "basic-v9-chicago.json"}"#)
        XCTAssertEqual(s.handle(method: "GET", path: "/fonts/Noto Sans Italic/0-255.pbf").status, 200)

        // /files/: the files folder (paths.files), names checked, nothing outside it.
        try FileManager.default.createDirectory(atPath: folder + "/files/sub", withIntermediateDirectories: true)
        try #"{"type": "FeatureCollection", "features": []}"#.write(toFile: folder + "/files/sub/a.geojson", atomically: true, encoding: .utf8)
        try? FileManager.default.removeItem(atPath: folder + "/files/escape")
        try FileManager.default.createSymbolicLink(atPath: folder + "/files/escape", withDestinationPath: "/etc")
        guard let f = TileserverGL.fixtures else { throw XCTSkip("../shared/fixtures is not here") }
        let withFiles = """
        {"options": {"paths": {"root": "\(f)", "fonts": "glyphs", "styles": "styles", "files": "\(folder)/files"}},
         "styles": {"a": {"style": "basic-v9-chicago.json"}}}
        """
        try withFiles.write(toFile: folder + "/files-config.json", atomically: true, encoding: .utf8)
        s = try MapService(config: try ServerConfig.load(path: folder + "/files-config.json"))
        let file = s.handle(method: "GET", path: "/files/sub/a.geojson")
        XCTAssertEqual(file.status, 200)
        XCTAssertEqual(file.headers.first { $0.0 == "Content-Type" }?.1, "application/geo+json")
        XCTAssertEqual(s.handle(method: "GET", path: "/files/sub/missing.json").status, 404)
        XCTAssertEqual(s.handle(method: "GET", path: "/files/escape/hostname").status, 404, "a link out of the folder")
        XCTAssertEqual(s.handle(method: "GET", path: "/files/../config.json").status, 400)
        XCTAssertEqual(s.handle(method: "GET", path: "/files/sub").status, 404)

    }
}

/// tileserver-gl's `allowInlineMarkerImages`: a marker's icon as a data: URI, off unless set.
final class TileserverGLInlineMarkerTests: XCTestCase {
    func testInlineMarkerImage() throws {
        guard let f = TileserverGL.fixtures else { throw XCTSkip("../shared/fixtures is not here") }
        let folder = NSTemporaryDirectory() + "tsgl-inline-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var config = try ServerConfig.load(path: try TileserverGL.writeConfig(into: folder, fixtures: f))
        let green = RGBAImage(width: 16, height: 16, pixels: [UInt8]((0..<256).flatMap { _ in [0, 255, 0, 255] as [UInt8] }))
        let uri = "data:image/png;base64," + Data(try PNGEncoder().encode(green)).base64EncodedString()
        let query = [(key: "marker", value: "-87.63,41.88|" + uri)]
        let path = "/styles/\(TileserverGL.styleID)/static/-87.63,41.88,14/64x64.png"
        let off = try MapService(config: config).handle(method: "GET", path: path, query: query)
        XCTAssertEqual(off.status, 400, "off unless allowInlineMarkerImages")
        config.allowInlineMarkerImages = true
        let service = try MapService(config: config)
        let on = service.handle(method: "GET", path: path, query: query)
        XCTAssertEqual(on.status, 200)
        let img = try PNGDecoder().decode(on.body)
        XCTAssertGreaterThanOrEqual(TileserverGL.count(img, r: 0, g: 255, b: 0, tolerance: 8), 200, "the 16x16 green icon is drawn")
        let bad = service.handle(method: "GET", path: path, query: [(key: "marker", value: "-87.63,41.88|data:image/png;base64,!!!")])
        XCTAssertEqual(bad.status, 400)
    }
}

/// Why `tileMargin` is not read: tileserver-gl draws a tile larger and crops it so labels near its
/// edges are placed as in the neighbouring tiles; glsnap places them the same whatever the view's
/// size, so a tile already is the middle of a larger view.
final class TileserverGLTileMarginTests: XCTestCase {
    func testTileIsTheMiddleOfALargerView() throws {
        let s = try TileserverGL.server().server.service
        let c = Mercator.tileCenter(z: 13, x: 2101, y: 3045)
        let id = TileserverGL.styleID
        let view = try PNGDecoder().decode(s.handle(method: "GET", path: String(format: "/styles/\(id)/static/%.9f,%.9f,12/352x352.png", c.lon, c.lat)).body)
        var middle = [UInt8]()
        for y in 48..<304 { middle += view.pixels[((y * 352) + 48) * 4..<((y * 352) + 304) * 4] }
        let tile = try PNGDecoder().decode(s.handle(method: "GET", path: "/styles/\(id)/13/2101/3045.png").body).pixels
        XCTAssertEqual(tile.count, middle.count)
        let differing = stride(from: 0, to: min(tile.count, middle.count), by: 4).filter { i in
            (0..<3).contains { abs(Int(tile[i + $0]) - Int(middle[i + $0])) > 24 }
        }.count
        print("tile vs the middle of a view 96 px larger: \(differing) of 65536 pixels differ")
        XCTAssertLessThan(differing, 256 * 256 / 100)
    }
}

/// tileserver-gl's `watermark` and `staticAttributionText`, drawn with the served fonts.
final class TileserverGLCaptionTests: XCTestCase {
    func testWatermarkAndAttribution() throws {
        guard let f = TileserverGL.fixtures else { throw XCTSkip("../shared/fixtures is not here") }
        let folder = NSTemporaryDirectory() + "tsgl-caption-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let plainConfig = try ServerConfig.load(path: try TileserverGL.writeConfig(into: folder, fixtures: f))
        let path = "/styles/\(TileserverGL.styleID)/static/-87.63,41.88,12/300x200@2x.png"
        let plain = try PNGDecoder().decode(try MapService(config: plainConfig).handle(method: "GET", path: path).body)
        var config = plainConfig
        config.watermark = "glsnap watermark"
        config.staticAttributionText = "(c) OpenStreetMap contributors"
        let service = try MapService(config: config)
        let marked = try PNGDecoder().decode(service.handle(method: "GET", path: path).body)
        try Data(try PNGEncoder().encode(marked)).write(to: URL(fileURLWithPath: folder + "/caption.png"))
        func changed(x0: Int, y0: Int, x1: Int, y1: Int) -> Int {
            var n = 0
            for y in y0..<y1 { for x in x0..<x1 {
                let i = (y * marked.width + x) * 4
                if (0..<3).contains(where: { abs(Int(marked.pixels[i + $0]) - Int(plain.pixels[i + $0])) > 30 }) { n += 1 }
            } }
            return n
        }
        // Pixels (600x400 at @2x): the watermark at the bottom left, the attribution box at the bottom right.
        let bottomLeft = changed(x0: 0, y0: 360, x1: 250, y1: 400), bottomRight = changed(x0: 350, y0: 350, x1: 600, y1: 400)
        let top = changed(x0: 0, y0: 0, x1: 600, y1: 300)
        print("captions: \(bottomLeft) pixels changed at the bottom left, \(bottomRight) at the bottom right, \(top) above; \(folder)/caption.png")
        XCTAssertGreaterThan(bottomLeft, 300)
        XCTAssertGreaterThan(bottomRight, 800)
        XCTAssertEqual(top, 0)
        let tile = try PNGDecoder().decode(service.handle(method: "GET", path: "/styles/\(TileserverGL.styleID)/13/2101/3045.png").body)
        let plainTile = try PNGDecoder().decode(try MapService(config: plainConfig).handle(method: "GET", path: "/styles/\(TileserverGL.styleID)/13/2101/3045.png").body)
        XCTAssertNotEqual(tile.pixels, plainTile.pixels, "tiles carry the watermark")
    }
}

/// A style's own `watermark` and `staticAttributionText` win over the options', as in tileserver-gl.
final class TileserverGLStyleCaptionTests: XCTestCase {
    func testAStylesWatermarkWinsOverTheOptions() throws {
        guard let f = TileserverGL.fixtures else { throw XCTSkip("../shared/fixtures is not here") }
        let folder = NSTemporaryDirectory() + "tsgl-style-caption-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var config = try ServerConfig.load(path: try TileserverGL.writeConfig(into: folder, fixtures: f))
        config.watermark = "options watermark"
        let path = "/styles/\(TileserverGL.styleID)/13/2101/3045.png"
        let byOptions = try PNGDecoder().decode(try MapService(config: config).handle(method: "GET", path: path).body)
        guard let i = config.styles.firstIndex(where: { $0.id == TileserverGL.styleID }) else { return XCTFail("no test style") }
        config.styles[i].watermark = "the style's own, longer watermark"
        let byStyle = try PNGDecoder().decode(try MapService(config: config).handle(method: "GET", path: path).body)
        XCTAssertNotEqual(byStyle.pixels, byOptions.pixels, "the style's watermark is drawn instead")
        // And it is read from the configuration file's style entry.
        let file = folder + "/with-style-watermark.json"
        var object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: try TileserverGL.writeConfig(into: folder, fixtures: f)))) as? [String: Any] ?? [:]
        var styles = object["styles"] as? [String: Any] ?? [:]
        var entry = styles[TileserverGL.styleID] as? [String: Any] ?? [:]
        entry["watermark"] = "from the file"
        entry["staticAttributionText"] = "style attribution"
        styles[TileserverGL.styleID] = entry
        object["styles"] = styles
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: file))
        let loaded = try ServerConfig.load(path: file)
        let style = loaded.styles.first { $0.id == TileserverGL.styleID }
        XCTAssertEqual(style?.watermark, "from the file")
        XCTAssertEqual(style?.staticAttributionText, "style attribution")
    }
}
