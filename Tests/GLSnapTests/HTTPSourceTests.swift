import Foundation
import GLSnap
import GLSnapData
import GLSnapImage
import GLSnapTestSupport
import XCTest

/// HTTP(S) loading through libcurl against a server on 127.0.0.1 (no traffic leaves the machine).
final class HTTPSourceTests: XCTestCase {
    private func client(timeout: Double = 2, maxBytes: Int = 1 << 20, retries: Int = 0) -> HTTPClient {
        HTTPClient(options: HTTPOptions(connectTimeout: timeout, totalTimeout: timeout, maxBytes: maxBytes,
                                        maxRedirects: 3, retries: retries, retryDelay: 0.01))
    }

    private func ok(_ text: String) -> LoopbackServer.Reply {
        .body(status: 200, bytes: Array(text.utf8), contentType: "text/plain")
    }

    func testStatusesAndCache() throws {
        let server = try LoopbackServer { path in
            switch path {
            case "/a.txt": return .body(status: 200, bytes: Array("hello".utf8), contentType: "text/plain")
            case "/broken": return .body(status: 503, bytes: [], contentType: "text/plain")
            case "/forbidden": return .body(status: 403, bytes: [], contentType: "text/plain")
            default: return .body(status: 404, bytes: [], contentType: "text/plain")
            }
        }
        defer { server.stop() }
        let http = client(retries: 1)
        XCTAssertEqual(try http.fetch(server.baseURL + "/a.txt"), Array("hello".utf8))
        XCTAssertEqual(try http.fetch(server.baseURL + "/a.txt"), Array("hello".utf8))
        XCTAssertEqual(server.requests.filter { $0 == "/a.txt" }.count, 1, "the second fetch comes from the cache")
        XCTAssertNil(try http.fetch(server.baseURL + "/missing.pbf"))
        XCTAssertThrowsError(try http.fetch(server.baseURL + "/broken")) { error in
            XCTAssertEqual(error as? SourceError, .httpStatus(url: server.baseURL + "/broken", status: 503))
            XCTAssertTrue("\(error)".contains("HTTP 503 from http://127.0.0.1:"), "\(error)")
        }
        XCTAssertEqual(server.requests.filter { $0 == "/broken" }.count, 2, "a 5xx is retried once")
        XCTAssertThrowsError(try http.fetch(server.baseURL + "/forbidden")) { error in
            XCTAssertEqual(error as? SourceError, .httpStatus(url: server.baseURL + "/forbidden", status: 403))
        }
        XCTAssertEqual(server.requests.filter { $0 == "/forbidden" }.count, 1, "a 4xx is not retried")
    }

    func testHangingServerTimesOut() throws {
        let server = try LoopbackServer { _ in .hang }
        defer { server.stop() }
        let start = Date()
        XCTAssertThrowsError(try client(timeout: 0.5).fetch(server.baseURL + "/tile.pbf")) { error in
            XCTAssertEqual(error as? SourceError, .httpTimeout(url: server.baseURL + "/tile.pbf", seconds: 0.5))
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 2.0)
    }

    func testOversizedResponsesAreRefused() throws {
        let server = try LoopbackServer { path in path == "/huge" ? .hugeLength(2 << 30) : .endless }
        defer { server.stop() }
        let http = client(timeout: 5, maxBytes: 1 << 20)
        let start = Date()
        XCTAssertThrowsError(try http.fetch(server.baseURL + "/huge")) { error in
            XCTAssertEqual(error as? SourceError, .responseTooLarge(url: server.baseURL + "/huge", limit: 1 << 20))
        }
        XCTAssertThrowsError(try http.fetch(server.baseURL + "/endless")) { error in
            XCTAssertEqual(error as? SourceError, .responseTooLarge(url: server.baseURL + "/endless", limit: 1 << 20))
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 4.0, "refused while downloading, not at the timeout")
    }

    func testRedirectsAreFollowedAndCapped() throws {
        let server = try LoopbackServer { path in
            switch path {
            case "/moved": return .redirect("/a.txt")
            case "/a.txt": return .body(status: 200, bytes: Array("there".utf8), contentType: "text/plain")
            default: return .redirect("/loop")
            }
        }
        defer { server.stop() }
        let http = client()
        XCTAssertEqual(try http.fetch(server.baseURL + "/moved"), Array("there".utf8))
        XCTAssertThrowsError(try http.fetch(server.baseURL + "/loop")) { error in
            XCTAssertEqual(error as? SourceError, .httpFailed(url: server.baseURL + "/loop", reason: "more than 3 redirects"))
        }
    }

    func testRelativeURLsResolveAgainstAnHTTPBase() throws {
        let r = ResourceResolver(baseURL: "http://h:8/styles/v1/style.json?key=1")
        XCTAssertEqual(try r.location(for: "tiles.json"), .remote("http://h:8/styles/v1/tiles.json"))
        XCTAssertEqual(try r.location(for: "../glyphs/Noto Sans/0-255.pbf"), .remote("http://h:8/styles/glyphs/Noto%20Sans/0-255.pbf"))
        XCTAssertEqual(try r.location(for: "./a/./b/../c.png"), .remote("http://h:8/styles/v1/a/c.png"))
        XCTAssertEqual(try r.location(for: "/sprite"), .remote("http://h:8/sprite"))
        XCTAssertEqual(try r.location(for: "https://other/x"), .remote("https://other/x"))
        XCTAssertThrowsError(try r.filePath(for: "mbtiles://x.mbtiles"))
        XCTAssertEqual(GlyphStore.url(template: "http://h/{fontstack}/{range}.pbf", fontstack: "Noto Sans Regular,Arial", range: 1),
                       "http://h/Noto%20Sans%20Regular,Arial/256-511.pbf")
    }

    /// Serves the Chicago fixture (tiles from the MBTiles as `/tiles/z/x/y.pbf`, glyphs, sprite).
    private func chicagoServer(shared: URL, garbageTiles: Bool = false) throws -> (LoopbackServer, MBTilesSource) {
        let fixtures = shared.appendingPathComponent("fixtures")
        let mbtiles = try MBTilesSource(path: fixtures.appendingPathComponent("tiles/chicago-z13.mbtiles").path)
        let styleText = try String(contentsOf: fixtures.appendingPathComponent("styles/bright-v9-chicago.json"), encoding: .utf8)
        XCTAssertTrue(styleText.contains("\"mbtiles://../tiles/chicago-z13.mbtiles\""))
        let styleBytes = Array(styleText.replacingOccurrences(of: "mbtiles://../tiles/chicago-z13.mbtiles", with: "tiles.json")
            .replacingOccurrences(of: "\"../sprites/bright-v9/sprite\"", with: "\"../sprites/bright-v9/sprite?key=k\"").utf8)
        let server = try LoopbackServer { path in
            func file(_ relative: String) -> LoopbackServer.Reply {
                guard !relative.contains(".."), let data = FileManager.default.contents(atPath: fixtures.appendingPathComponent(relative).path) else {
                    return .body(status: 404, bytes: [], contentType: "text/plain")
                }
                return .body(status: 200, bytes: [UInt8](data), contentType: "application/octet-stream")
            }
            if path == "/style.json" { return .body(status: 200, bytes: styleBytes, contentType: "application/json") }
            if path == "/tiles.json" {
                return .body(status: 200, bytes: Array(#"{"tiles": ["tiles/{z}/{x}/{y}.pbf"], "minzoom": 13, "maxzoom": 13}"#.utf8),
                             contentType: "application/json")
            }
            if path.hasPrefix("/tiles/") {
                let parts = path.dropFirst("/tiles/".count).dropLast(".pbf".count).split(separator: "/").compactMap { Int($0) }
                guard parts.count == 3, let id = TileID(z: parts[0], x: parts[1], y: parts[2]),
                      let bytes = try? mbtiles.tileData(id) else { return .body(status: 404, bytes: [], contentType: "text/plain") }
                return .body(status: 200, bytes: garbageTiles ? Array("<html>not a tile</html>".utf8) : bytes,
                             contentType: "application/x-protobuf")
            }
            return file(String(path.dropFirst().prefix { $0 != "?" }))
        }
        return (server, mbtiles)
    }

    func testStyleOverHTTPRendersLikeLocalFiles() throws {
        let shared = try TestPaths.requireShared()
        let (server, _) = try chicagoServer(shared: shared)
        defer { server.stop() }
        let stylePath = shared.appendingPathComponent("fixtures/styles/bright-v9-chicago.json").path
        let camera = CameraOptions(center: Coordinate(latitude: 41.87, longitude: -87.68), zoom: 13.5)
        let options = MapSnapshotOptions(size: Size(width: 256, height: 256), pixelRatio: 1)

        let local = Snapshotter(options: options)
        try local.setStyle(path: stylePath)
        let expected = try local.snapshot(camera: camera)

        // The same style from the server: its relative glyph and sprite URLs resolve against the
        // style's URL; the source comes through a TileJSON whose tile template is relative to it.
        let remote = Snapshotter(options: options, configuration: .init(httpClient: client(timeout: 10)))
        let base = server.baseURL
        try remote.setStyle(url: base + "/style.json")
        let actual = try remote.snapshot(camera: camera)
        XCTAssertEqual(actual.image.width, expected.image.width)
        XCTAssertTrue(actual.image.pixels == expected.image.pixels, "the HTTP render differs from the local one")
        XCTAssertTrue(actual.warnings.isEmpty, "\(actual.warnings)")
        let requested = server.requests
        XCTAssertTrue(requested.contains("/tiles.json"))
        XCTAssertTrue(requested.contains { $0.hasPrefix("/tiles/13/") }, "\(requested)")
        XCTAssertTrue(requested.contains { $0.hasPrefix("/glyphs/") }, "\(requested)")
        XCTAssertTrue(requested.contains("/sprites/bright-v9/sprite.png?key=k"), "the query stays on: \(requested)")
    }

    func testGarbageTilesGiveADecodeError() throws {
        let shared = try TestPaths.requireShared()
        let (server, _) = try chicagoServer(shared: shared, garbageTiles: true)
        defer { server.stop() }
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 128, height: 128), pixelRatio: 1),
                            configuration: .init(httpClient: client()))
        try s.setStyle(json: #"{"version": 8, "sources": {"v": {"type": "vector", "url": "\#(server.baseURL)/tiles.json"}},"#
            + #""layers": [{"id": "water", "type": "fill", "source": "v", "source-layer": "water"}]}"#)
        XCTAssertThrowsError(try s.snapshot(camera: CameraOptions(center: Coordinate(latitude: 41.87, longitude: -87.68), zoom: 13))) { error in
            XCTAssertTrue("\(error)".contains("tile 13/"), "\(error)")
        }
    }
}
