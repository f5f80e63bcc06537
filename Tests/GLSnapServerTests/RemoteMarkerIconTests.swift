import Foundation
import GLSnapImage
import GLSnapTestSupport
import XCTest
@testable import GLSnapServer

/// tileserver-gl's `allowRemoteMarkerIcons`: a marker's icon as an http(s) URL, fetched through
/// GLSnapData's HTTPClient (at most 1 MiB, 512 px a side) when set, refused when not.
final class RemoteMarkerIconTests: XCTestCase {
    func testRemoteIconIsDrawnWhenAllowedAndRefusedWhenNot() throws {
        guard let f = TileserverGL.fixtures else { throw XCTSkip("../shared/fixtures is not here") }
        let green = try PNGEncoder().encode(RGBAImage(width: 16, height: 16, pixels: [UInt8]((0..<256).flatMap { _ in [0, 255, 0, 255] as [UInt8] })))
        let wide = try PNGEncoder().encode(RGBAImage(width: 600, height: 1, pixels: [UInt8](repeating: 255, count: 600 * 4)))
        let icons = try LoopbackServer { path in
            switch path {
            case "/green.png": return .body(status: 200, bytes: green, contentType: "image/png")
            case "/wide.png": return .body(status: 200, bytes: wide, contentType: "image/png")
            case "/huge.png": return .body(status: 200, bytes: [UInt8](repeating: 0x89, count: 2 << 20), contentType: "image/png")
            default: return .body(status: 404, bytes: [], contentType: "text/plain")
            }
        }
        defer { icons.stop() }
        let folder = NSTemporaryDirectory() + "glsnap-remote-icons-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        var config = try ServerConfig.load(path: try TileserverGL.writeConfig(into: folder, fixtures: f))
        XCTAssertFalse(config.allowRemoteMarkerIcons)
        let path = "/styles/\(TileserverGL.styleID)/static/-87.63,41.88,14/64x64.png"
        func marker(_ name: String) -> [(key: String, value: String)] { [(key: "marker", value: "-87.63,41.88|\(icons.baseURL)/\(name)")] }

        let off = try MapService(config: config).handle(method: "GET", path: path, query: marker("green.png"))
        XCTAssertEqual(off.status, 400)
        XCTAssertTrue(String(decoding: off.body, as: UTF8.self).contains("allowRemoteMarkerIcons"), String(decoding: off.body, as: UTF8.self))
        XCTAssertTrue(icons.requests.isEmpty, "nothing is fetched when off")

        // Read from the configuration file as tileserver-gl's key.
        config = try ServerConfig.load(path: try TileserverGL.writeConfig(into: folder, fixtures: f, extraOptions: #", "allowRemoteMarkerIcons": true"#))
        XCTAssertTrue(config.allowRemoteMarkerIcons)
        let service = try MapService(config: config)
        let on = service.handle(method: "GET", path: path, query: marker("green.png"))
        XCTAssertEqual(on.status, 200, String(decoding: on.body, as: UTF8.self))
        let img = try PNGDecoder().decode(on.body)
        XCTAssertGreaterThanOrEqual(TileserverGL.count(img, r: 0, g: 255, b: 0, tolerance: 8), 200, "the 16x16 green icon is drawn")
        XCTAssertEqual(icons.requests, ["/green.png"])

        for (name, words) in [("missing.png", "not found"), ("wide.png", "512 px"), ("huge.png", "could not be fetched")] {
            let r = service.handle(method: "GET", path: path, query: marker(name))
            let text = String(decoding: r.body, as: UTF8.self)
            XCTAssertEqual(r.status, 400, name)
            XCTAssertTrue(text.contains(name) && text.contains(words), "\(name): \(text)")
        }
    }
}
