import Foundation
import XCTest
@testable import GLSnapServer

/// A source problem never gives a blank 200: a style naming unknown data is refused at load, a tile
/// that cannot be read during a render is a 500, logged with the request and counted.
final class RenderErrorTests: XCTestCase {
    func temporaryFolder() throws -> String {
        let dir = NSTemporaryDirectory() + "glsnap-render-errors-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        return dir
    }

    func testStyleNamingUnknownDataIsRefusedAtLoad() throws {
        let dir = try temporaryFolder()
        let root = try Fixtures.root
        let style = """
        {"version": 8, "name": "x", "sources": {"base": {"type": "vector", "url": "mbtiles://{openmaptile}"}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#fff"}}]}
        """
        try style.write(toFile: dir + "/x.json", atomically: true, encoding: .utf8)
        let config = """
        {"options": {"paths": {"root": "", "styles": "", "mbtiles": "\(root)/tiles"}},
         "styles": {"x": {"style": "x.json"}}, "data": {"openmaptiles": {"mbtiles": "chicago-z13.mbtiles"}}}
        """
        try config.write(toFile: dir + "/config.json", atomically: true, encoding: .utf8)
        var c = try ServerConfig.load(path: dir + "/config.json")
        c.workers = 1
        XCTAssertThrowsError(try MapService(config: c)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("style 'x'") && text.contains("source 'base'") && text.contains("'openmaptile'")
                          && text.contains("openmaptiles"), text)
        }
    }

    func testTruncatedMBTilesAnswers500LogsAndCounts() throws {
        let dir = try temporaryFolder()
        let root = try Fixtures.root
        try FileManager.default.copyItem(atPath: root + "/tiles/chicago-z13.mbtiles", toPath: dir + "/chicago.mbtiles")
        var style = try String(contentsOfFile: try Fixtures.style("bright-v9-chicago"), encoding: .utf8)
        style = style.replacingOccurrences(of: "mbtiles://../tiles/chicago-z13.mbtiles", with: "mbtiles://chicago.mbtiles")
            .replacingOccurrences(of: "\"../sprites/", with: "\"\(root)/sprites/")
            .replacingOccurrences(of: "\"../glyphs/", with: "\"\(root)/glyphs/")
        try style.write(toFile: dir + "/chicago.json", atomically: true, encoding: .utf8)
        var config = try ServerConfig.singleStyle(path: dir + "/chicago.json")
        config.workers = 1
        let lines = LogLines()
        let service = try MapService(config: config) { lines.add($0) }
        XCTAssertEqual(service.handle(method: "GET", path: "/styles/chicago/13/2101/3045.png").status, 200)
        XCTAssertEqual(service.metrics.renderErrors, 0)

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: dir + "/chicago.mbtiles")
        let fd = open(dir + "/chicago.mbtiles", O_WRONLY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(ftruncate(fd, 16384), 0)
        close(fd)

        // Far from the first view: tiles whose rows were never read (the file holds z13 only).
        let path = "/styles/chicago/static/-87.79,41.955,13.5/256x256.png"
        let r = service.handle(method: "GET", path: path)
        XCTAssertEqual(r.status, 500, "a tile that cannot be read is not drawn around")
        XCTAssertEqual(service.metrics.renderErrors, 1)
        let text = String(decoding: r.body, as: UTF8.self)
        XCTAssertFalse(text.contains(dir), "the client is not told the server's paths: \(text)")
        let line = try XCTUnwrap(lines.all.last)
        XCTAssertTrue(line.hasPrefix("500 GET \(path): "), line)
        XCTAssertTrue(line.contains("mapbox") && line.contains("tile "), "the log names the source and the tile: \(line)")
        let metrics = String(decoding: service.handle(method: "GET", path: "/metrics").body, as: UTF8.self)
        XCTAssertTrue(metrics.contains("glsnap_render_errors_total 1"), metrics)
    }
}

/// What a snapshot warns about (here a sprite that cannot be loaded) is drawn around and logged
/// with the request, not lost.
final class RenderWarningLogTests: XCTestCase {
    func testASpriteThatCannotBeLoadedIsLoggedWithTheRequest() throws {
        let dir = NSTemporaryDirectory() + "glsnap-render-warnings-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let style = """
        {"version": 8, "name": "w", "sprite": "nosuch/sprite", "center": [0, 0], "zoom": 2,
         "sources": {"p": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#fff"}},
                    {"id": "s", "type": "symbol", "source": "p", "layout": {"icon-image": "marker"}}]}
        """
        try style.write(toFile: dir + "/w.json", atomically: true, encoding: .utf8)
        var config = try ServerConfig.singleStyle(path: dir + "/w.json")
        config.workers = 1
        let lines = LogLines()
        let service = try MapService(config: config) { lines.add($0) }
        XCTAssertEqual(service.handle(method: "GET", path: "/styles/w/static/0,0,2/64x64.png").status, 200)
        let logged = lines.all.joined(separator: "\n")
        XCTAssertTrue(logged.contains("warning /styles/w/static/0,0,2/64x64.png: sprite 'nosuch/sprite' could not be loaded"), logged)
    }
}
