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
    /// maplibre-gl.js (the PyPI package `maplibre` ships one in maplibre/srcjs); skipped without it.
    func testBrowserDrawsTheViewers() throws {
        guard let lib = ProcessInfo.processInfo.environment["GLSNAP_MAPLIBRE"],
              FileManager.default.fileExists(atPath: lib + "/maplibre-gl.js") else { throw XCTSkip("GLSNAP_MAPLIBRE is not set") }
        guard let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: FileManager.default.isExecutableFile) else {
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
            // Chromium takes the screenshot after a wait it cannot tie to the map's `idle` event, and on a
            // busy machine the map may not be drawn yet: up to 5 tries, alternating virtual time and
            // longer real waits (about 1 run in 3 needs a second try here).
            var attempt = 0
            var img: RGBAImage?
            var drawn = 0, total = 0
            repeat {
                attempt += 1
                try? FileManager.default.removeItem(atPath: shot)
                let p = Process()
                p.executableURL = URL(fileURLWithPath: chromium)
                p.arguments = ["--headless", "--no-sandbox", "--disable-gpu-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
                               "--hide-scrollbars", "--window-size=480,360", "--run-all-compositor-stages-before-draw",
                               attempt % 2 == 1 ? "--virtual-time-budget=30000" : "--timeout=\(8000 * attempt)", "--screenshot=\(shot)",
                               "--user-data-dir=\(folder)/profile-\(name)-\(attempt)", "http://127.0.0.1:\(server.port)\(page)"]
                p.standardOutput = FileHandle.nullDevice
                p.standardError = FileHandle.nullDevice
                try p.run()
                p.waitUntilExit()
                guard let png = FileManager.default.contents(atPath: shot) else { continue }
                img = try PNGDecoder().decode([UInt8](png))
                (drawn, total) = mapPixels(img!)
                print("viewer \(name), try \(attempt): \(drawn) of \(total) map pixels away from the background, \(shot)")
            } while drawn <= total / 50 && attempt < 5
            XCTAssertNotNil(img, "\(name): no screenshot")
            XCTAssertGreaterThan(drawn, total / 50, "\(name): the map area is nearly uniform: no map drawn")
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
