import Foundation
import XCTest
@testable import GLSnapServer

/// The configuration file's `options.publicUrl` (tileserver-gl's): URLs in TileJSON and styles
/// start with it; `--public-url` is set after the file is read, so the command line wins.
final class PublicURLConfigTests: XCTestCase {
    private func load(options: String) throws -> ServerConfig {
        let dir = NSTemporaryDirectory() + "glsnap-public-url-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        try """
        {"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#fff"}}]}
        """.write(toFile: dir + "/s.json", atomically: true, encoding: .utf8)
        try """
        {"options": {"paths": {"root": "", "styles": ""}\(options)}, "styles": {"s": {"style": "s.json"}}}
        """.write(toFile: dir + "/config.json", atomically: true, encoding: .utf8)
        return try ServerConfig.load(path: dir + "/config.json")
    }

    func testPublicUrlStartsTheTileJSONURLs() throws {
        var config = try load(options: #", "publicUrl": "https://maps.example.com/tiles/""#)
        XCTAssertEqual(config.publicURL, "https://maps.example.com/tiles/")
        config.workers = 1
        let service = try MapService(config: config)
        let tj = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(service.handle(method: "GET", path: "/styles/s.json").body)) as? [String: Any])
        let tiles = try XCTUnwrap(tj["tiles"] as? [String])
        XCTAssertEqual(tiles.first, "https://maps.example.com/tiles/styles/s/{z}/{x}/{y}.png")
    }

    func testBadPublicUrlIsRefusedNamingTheKey() throws {
        for value in [#"42"#, #""ftp://x/""#, #""https://a b/""#] {
            XCTAssertThrowsError(try load(options: ", \"publicUrl\": \(value)"), value) { error in
                XCTAssertTrue("\(error)".contains("options.publicUrl") && "\(error)".contains("config.json"), "\(error)")
            }
        }
        XCTAssertNil(try load(options: "").publicURL)
    }
}
