import Foundation
import XCTest
import GLSnapTestSupport
@testable import GLSnapServer

/// Collects log lines (thread-safe).
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func add(_ s: String) { lock.lock(); stored.append(s); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return stored }
}

/// Paths of the shared fixtures (skips when ../shared is not there).
enum Fixtures {
    static var root: String {
        get throws {
            try SharedFolder.require("fixtures").path
        }
    }
    static func style(_ name: String) throws -> String { try root + "/styles/\(name).json" }
}

/// What a served style and its endpoints give a client: no path of this machine, URLs on the
/// service's own endpoints, no trust in the Host header, log lines that cannot be forged.
final class ServiceExposureTests: XCTestCase {
    func body(_ r: HTTPResponse) -> String { String(decoding: r.body, as: UTF8.self) }

    func json(_ r: HTTPResponse) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any], body(r))
    }

    /// The path part of a URL the service handed out (its base is http://127.0.0.1:8080 here).
    func local(_ url: String) throws -> String {
        let base = "http://127.0.0.1:8080"
        XCTAssertTrue(url.hasPrefix(base + "/"), url)
        return String(url.dropFirst(base.count))
    }

    func testServedStylesHoldNoServerPathAndTheirURLsAreServed() throws {
        let root = try Fixtures.root
        let names = ["bright-v9-chicago", "osm-bright-helsinki", "seed-flags"]
        let styles = try names.map { ServerConfig.Style(id: $0, path: try Fixtures.style($0)) }
        let dir = root + "/styles"
        var config = ServerConfig(paths: .init(root: dir, styles: dir, fonts: dir, sprites: dir, mbtiles: dir, icons: dir), styles: styles)
        config.workers = 1
        let service = try MapService(config: config)
        for id in names {
            let r = service.handle(method: "GET", path: "/styles/\(id)/style.json")
            XCTAssertEqual(r.status, 200, id)
            let text = body(r)
            for leak in [root, "/work/", "file:", "mbtiles:", "local:"] {
                XCTAssertFalse(text.contains(leak), "\(id): the served style holds '\(leak)': \(text.prefix(400))")
            }
            let style = try json(r)
            let sources = try XCTUnwrap(style["sources"] as? [String: Any])
            for (name, value) in sources {
                guard let url = (value as? [String: Any])?["url"] as? String else { continue }
                let tj = service.handle(method: "GET", path: try local(url))
                XCTAssertEqual(tj.status, 200, "\(id) source \(name): \(url)")
                let tiles = try XCTUnwrap(try json(tj)["tiles"] as? [String])
                XCTAssertEqual(tiles.count, 1)
                XCTAssertFalse(body(tj).contains(root))
                let tile = try local(tiles[0]).replacingOccurrences(of: "{z}/{x}/{y}", with: "0/0/0")
                let t = service.handle(method: "GET", path: tile)
                XCTAssertTrue([200, 204].contains(t.status), "\(tile): \(t.status) \(body(t))")
            }
            if id == "seed-flags" {
                XCTAssertNil(style["sprite"], "an SVG-folder sprite is left out")
                XCTAssertEqual(service.handle(method: "GET", path: "/styles/seed-flags/sprite.json").status, 404)
                continue
            }
            let sprite = try XCTUnwrap(style["sprite"] as? String)
            XCTAssertEqual(sprite, "http://127.0.0.1:8080/styles/\(id)/sprite")
            let folder = id == "bright-v9-chicago" ? "bright-v9" : "osm-bright"
            for ending in [".json", ".png", "@2x.json", "@2x.png"] {
                let s = service.handle(method: "GET", path: try local(sprite) + ending)
                XCTAssertEqual(s.status, 200, ending)
                XCTAssertEqual(Data(s.body), FileManager.default.contents(atPath: "\(root)/sprites/\(folder)/sprite\(ending)"), ending)
            }
            let glyphs = try XCTUnwrap(style["glyphs"] as? String)
            XCTAssertEqual(glyphs, "http://127.0.0.1:8080/fonts/{fontstack}/{range}.pbf")
        }
        // As tileserver-gl: every font of a stack must be served; their glyphs are combined, the first font's winning.
        let regular = FileManager.default.contents(atPath: "\(root)/glyphs/Noto Sans Regular/0-255.pbf")
        let bold = FileManager.default.contents(atPath: "\(root)/glyphs/Noto Sans Bold/0-255.pbf")
        XCTAssertNotNil(regular)
        XCTAssertEqual(Data(service.handle(method: "GET", path: "/fonts/Noto Sans Regular/0-255.pbf").body), regular)
        let combined = service.handle(method: "GET", path: "/fonts/Noto Sans Bold,Noto Sans Regular/0-255.pbf")
        XCTAssertEqual(combined.status, 200)
        func glyphs(_ b: [UInt8]) throws -> (name: String, ids: [UInt64: ArraySlice<UInt8>]) {
            let stack = try XCTUnwrap(try GlyphStacks.fields(b[...]).first { $0.number == 1 })
            let fields = try GlyphStacks.fields(stack.bytes)
            var ids: [UInt64: ArraySlice<UInt8>] = [:]
            for g in fields where g.number == 3 { ids[try XCTUnwrap(try GlyphStacks.fields(g.bytes).first { $0.number == 1 }).value] = g.bytes }
            return (String(decoding: fields.first { $0.number == 1 }?.bytes ?? [], as: UTF8.self), ids)
        }
        let both = try glyphs(combined.body), boldGlyphs = try glyphs([UInt8](try XCTUnwrap(bold)))
        XCTAssertEqual(both.name, "Noto Sans Bold,Noto Sans Regular")
        XCTAssertGreaterThanOrEqual(both.ids.count, boldGlyphs.ids.count)
        XCTAssertTrue(boldGlyphs.ids.allSatisfy { both.ids[$0.key] == $0.value }, "the first font's glyphs win")
        for (path, status) in [("/fonts/No Such Font/0-255.pbf", 400), ("/fonts/No Such Font,Noto Sans Bold/0-255.pbf", 400),
                               ("/fonts/Noto Sans Bold/99840-100095.pbf", 400), ("/fonts/../0-255.pbf", 400), ("/fonts/Noto Sans Regular/1-256.pbf", 400),
                               ("/fonts/.hidden/0-255.pbf", 400), ("/data/..%2f/0/0/0.pbf", 400), ("/data/nope.json", 404),
                               ("/styles/bright-v9-chicago/sprite@3x.png", 404)] {
            XCTAssertEqual(service.handle(method: "GET", path: path).status, status, path)
        }
    }

    /// Requests through HTTP with a forged Host: no URL the service hands out names that host.
    func testForgedHostIsNotEchoed() throws {
        var config = try ServerConfig.singleStyle(path: try Fixtures.style("bright-v9-chicago"))
        config.port = 0
        config.workers = 1
        let server = try MapServer(config: config)
        try server.start()
        defer { server.shutdown(grace: 1) }
        for target in ["/styles.json", "/styles/bright-v9-chicago.json", "/styles/512/bright-v9-chicago.json", "/styles/bright-v9-chicago/style.json"] {
            let raw = "GET \(target) HTTP/1.1\r\nHost: evil.example:666\r\nConnection: close\r\n\r\n"
            let r = try XCTUnwrap(RawHTTP.exchange(port: server.port, raw: Array(raw.utf8)), target)
            XCTAssertEqual(r.status, 200, target)
            let text = String(decoding: r.body, as: UTF8.self)
            XCTAssertFalse(text.contains("evil.example"), "\(target) echoes the Host header: \(text.prefix(300))")
            XCTAssertTrue(text.contains("http://127.0.0.1:\(server.port)/"), "\(target): \(text.prefix(300))")
        }
    }

    /// `publicURL` is what URLs start with; bound to 0.0.0.0 without one, they are server-relative.
    func testPublicURLAndWildcardBind() throws {
        var config = try ServerConfig.singleStyle(path: try Fixtures.style("bright-v9-chicago"))
        config.workers = 1
        config.publicURL = "https://maps.example.com/gl/"
        var service = try MapService(config: config)
        var list = String(decoding: service.handle(method: "GET", path: "/styles.json").body, as: UTF8.self)
        XCTAssertTrue(list.contains("\"https://maps.example.com/gl/styles/bright-v9-chicago/style.json\""), list)
        var style = String(decoding: service.handle(method: "GET", path: "/styles/bright-v9-chicago/style.json").body, as: UTF8.self)
        XCTAssertTrue(style.contains("\"https://maps.example.com/gl/data/chicago-z13.json\""), style)
        XCTAssertTrue(style.contains("\"https://maps.example.com/gl/fonts/{fontstack}/{range}.pbf\""), style)
        config.publicURL = nil
        config.bind = "0.0.0.0"
        service = try MapService(config: config)
        list = String(decoding: service.handle(method: "GET", path: "/styles.json").body, as: UTF8.self)
        XCTAssertTrue(list.contains("\"/styles/bright-v9-chicago/style.json\""), list)
        style = String(decoding: service.handle(method: "GET", path: "/styles/bright-v9-chicago/style.json").body, as: UTF8.self)
        XCTAssertTrue(style.contains("\"/styles/bright-v9-chicago/sprite\""), style)
    }

    func testLogEscaping() {
        XCTAssertEqual(logEscaped("a\u{7f}b\tc\\d é"), "a\\x7fb\\x09c\\x5cd é")
    }

    /// CR, LF, ESC and other control characters in a request reach the log as \xNN.
    func testLogLinesAreEscaped() throws {
        let lines = LogLines()
        var config = try ServerConfig.singleStyle(path: try Fixtures.style("bright-v9-chicago"))
        config.workers = 1
        let service = try MapService(config: config) { lines.add($0) }
        let forged = "/nothing\r\n200 GET /styles/x/0/0/0.png: ok\u{1b}[2J\u{9b}31m\\x0a"
        XCTAssertEqual(service.handle(method: "GET", path: forged).status, 404)
        XCTAssertEqual(service.handle(method: "GET\n", path: "/health").status, 405)
        let log = lines.all
        XCTAssertEqual(log.count, 2)
        for line in log {
            XCTAssertNil(line.unicodeScalars.first { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, line)
        }
        XCTAssertTrue(log[0].contains("/nothing\\x0d\\x0a200 GET /styles/x/0/0/0.png: ok\\x1b[2J\\x9b31m\\x5cx0a"), log[0])
    }
}
