import Foundation
import XCTest
import GLSnapImage
@testable import GLSnapServer

/// The front page's map viewers (tileserver-gl's `/styles/{id}/` and `/data/{id}/`), on MapLibre GL
/// JS served by the service itself (`--maplibre FOLDER`).
final class TileserverGLViewerTests: XCTestCase {
    func service(maplibre: String?) throws -> MapService {
        guard let f = TileserverGL.fixtures else { throw XCTSkip("../shared/fixtures is not here") }
        let folder = NSTemporaryDirectory() + "tsgl-viewer-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var config = try ServerConfig.load(path: try TileserverGL.writeConfig(into: folder, fixtures: f))
        config.maplibreFolder = maplibre
        return try MapService(config: config)
    }

    func testViewerPagesAndAssets() throws {
        let lib = NSTemporaryDirectory() + "tsgl-maplibre-stub-\(getpid())"
        try FileManager.default.createDirectory(atPath: lib, withIntermediateDirectories: true)
        try "/* maplibre stub */".write(toFile: lib + "/maplibre-gl.js", atomically: true, encoding: .utf8)
        try ".maplibregl-map{}".write(toFile: lib + "/maplibre-gl.css", atomically: true, encoding: .utf8)
        let s = try service(maplibre: lib)
        let page = s.handle(method: "GET", path: "/styles/test-style/")
        XCTAssertEqual(page.status, 200)
        let html = String(decoding: page.body, as: UTF8.self)
        XCTAssertTrue(html.contains("<script src=\"/maplibre/maplibre-gl.js\">"), html)
        XCTAssertTrue(html.contains("http://127.0.0.1:8080/styles/test-style/style.json"), html)
        let data = String(decoding: s.handle(method: "GET", path: "/data/openmaptiles/").body, as: UTF8.self)
        XCTAssertTrue(data.contains("http://127.0.0.1:8080/data/openmaptiles.json"), data)
        XCTAssertTrue(data.contains("\"source-layer\":\"road\""), data)
        let js = s.handle(method: "GET", path: "/maplibre/maplibre-gl.js")
        XCTAssertEqual(js.status, 200)
        XCTAssertEqual(js.headers.first { $0.0 == "Content-Type" }?.1, "application/javascript")
        XCTAssertEqual(String(decoding: js.body, as: UTF8.self), "/* maplibre stub */")
        XCTAssertEqual(s.handle(method: "GET", path: "/maplibre/maplibre-gl.css").status, 200)
        let index = String(decoding: s.handle(method: "GET", path: "/").body, as: UTF8.self)
        XCTAssertTrue(index.contains("<a href=\"/styles/test-style/\">viewer</a>"), index)
        XCTAssertTrue(index.contains("<a href=\"/data/openmaptiles/\">viewer</a>"), index)

        let without = try service(maplibre: nil)
        XCTAssertEqual(without.handle(method: "GET", path: "/styles/test-style/").status, 404)
        XCTAssertEqual(without.handle(method: "GET", path: "/maplibre/maplibre-gl.js").status, 404)
        XCTAssertTrue(String(decoding: without.handle(method: "GET", path: "/").body, as: UTF8.self).contains("openmaptiles"))
    }

    /// Headless Chromium (Debian's `chromium`) opens the viewer of the style and of the data set and
    /// draws a map from the service alone. Needs MapLibre GL JS: GLSNAP_MAPLIBRE names a folder with
    /// maplibre-gl.js, else .build/maplibre-js where tools/maplibre-js.sh puts it (tools/test.sh runs
    /// that and sets GLSNAP_MAPLIBRE); skipped when neither is there. tools/viewer-shot.py drives
    /// Chromium through the DevTools protocol and takes the screenshot only once the page says its map
    /// went idle (everything loaded and drawn): no race against a fixed wait, no retry.
    func testBrowserDrawsTheViewers() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let named = ProcessInfo.processInfo.environment["GLSNAP_MAPLIBRE"]
        let lib = named ?? root + "/.build/maplibre-js"
        guard FileManager.default.fileExists(atPath: lib + "/maplibre-gl.js") else {
            if let named { XCTFail("GLSNAP_MAPLIBRE=\(named) has no maplibre-gl.js (tools/maplibre-js.sh fetches one)"); return }
            throw XCTSkip("no MapLibre GL JS: run tools/maplibre-js.sh or set GLSNAP_MAPLIBRE")
        }
        guard let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: FileManager.default.isExecutableFile) else {
            // Asked for explicitly (the test command sets GLSNAP_MAPLIBRE): a missing browser is a failure, not a skip.
            if named != nil { XCTFail("no /usr/bin/chromium (Debian package chromium; tools/install-deps.sh installs it)"); return }
            throw XCTSkip("no chromium")
        }
        guard let f = TileserverGL.fixtures else { throw XCTSkip("../shared/fixtures is not here") }
        let folder = NSTemporaryDirectory() + "tsgl-browser-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var config = try ServerConfig.load(path: try TileserverGL.writeConfig(into: folder, fixtures: f))
        config.maplibreFolder = lib
        config.port = 0
        config.workers = 1
        let server = try MapServer(config: config)
        try server.start()
        defer { server.shutdown(grace: 2) }
        for (name, page) in [("style", "/styles/test-style/#14/41.8800/-87.6300"), ("data", "/data/openmaptiles/#14/41.8800/-87.6300")] {
            let shot = folder + "/\(name).png"
            try? FileManager.default.removeItem(atPath: shot)
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = ["python3", root + "/tools/viewer-shot.py", chromium, "http://127.0.0.1:\(server.port)\(page)", shot, "120"]
            let started = Date()
            try p.run()
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 0, "\(name): viewer-shot.py failed (its reason is on stderr above)")
            guard let png = FileManager.default.contents(atPath: shot) else { XCTFail("\(name): no screenshot"); continue }
            let img = try PNGDecoder().decode([UInt8](png))
            let (drawn, total) = mapPixels(img)
            print(String(format: "viewer %@: %d of %d map pixels away from the background, %.1f s, %@", name, drawn, total, Date().timeIntervalSince(started), shot))
            XCTAssertGreaterThan(drawn, total / 50, "\(name): the map area is nearly uniform: no map drawn (\(shot))")
        }
        let metrics = String(decoding: server.service.metricsResponse().body, as: UTF8.self)
        XCTAssertTrue(metrics.contains("tileserver_tiles_served_total{type=\"vector\""), "the browser read no vector tile from the service")
        XCTAssertTrue(metrics.contains("type=\"font\""), "the browser read no glyphs from the service")
    }

    /// Pixels of the map area (without the controls at the top right and the attribution at the
    /// bottom) away from its most common color: what the map drew; and the area's pixel count.
    func mapPixels(_ img: RGBAImage) -> (Int, Int) {
        var counts: [UInt32: Int] = [:]
        var pixels: [UInt32] = []
        for y in 0..<min(img.height, 300) {
            for x in 0..<min(img.width, 420) {
                let i = (y * img.width + x) * 4
                let c = UInt32(img.pixels[i]) << 16 | UInt32(img.pixels[i + 1]) << 8 | UInt32(img.pixels[i + 2])
                counts[c, default: 0] += 1
                pixels.append(c)
            }
        }
        let common = counts.max { $0.value < $1.value }!.key
        func far(_ a: UInt32, _ b: UInt32) -> Bool {
            for shift: UInt32 in [16, 8, 0] {
                let ca = Int((a >> shift) & 255), cb = Int((b >> shift) & 255)
                if abs(ca - cb) > 24 { return true }
            }
            return false
        }
        return (pixels.filter { far($0, common) }.count, pixels.count)
    }
}
