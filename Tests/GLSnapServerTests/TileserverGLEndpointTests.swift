import Foundation
import XCTest
@testable import GLSnapServer

/// tileserver-gl's test/tiles_rendered.js, style.js and metadata.js.
final class TileserverGLEndpointTests: XCTestCase {
    typealias Check = TileserverGL.Check
    static let id = TileserverGL.styleID

    /// `testTile(prefix, tileSize, z, x, y, format, status, scale, type)` of theirs.
    static func tile(style prefix: String = id, _ size: Int, _ z: Int, _ x: Int, _ y: Int, _ format: String, _ status: Int,
                     scale: Int? = nil) -> Check {
        let path = "/styles/\(prefix)/\(size)/\(z)/\(x)/\(y)" + (scale.map { "@\($0)x" } ?? "") + ".\(format)"
        let kind = format == "jpg" ? "jpeg" : format
        let side = size * (scale ?? 1)
        return Check(name: path, path: path, status: status, type: status == 200 ? "image/\(kind)" : nil,
                     image: status == 200 ? (kind, side, side) : nil)
    }

    static let tileChecks: [Check] = [
        tile(256, 0, 0, 0, "png", 200), tile(512, 0, 0, 0, "png", 200),
        tile(256, 0, 0, 0, "jpg", 200), tile(512, 0, 0, 0, "jpg", 200),
        tile(256, 0, 0, 0, "jpeg", 200), tile(512, 0, 0, 0, "jpeg", 200),
        tile(256, 0, 0, 0, "webp", 200), tile(512, 0, 0, 0, "webp", 200),
        tile(256, 1, 0, 0, "png", 200), tile(512, 1, 0, 0, "png", 200),
        tile(256, 0, 0, 0, "png", 200, scale: 2), tile(512, 0, 0, 0, "png", 200, scale: 2),
        tile(256, 0, 0, 0, "png", 200, scale: 3), tile(512, 0, 0, 0, "png", 200, scale: 3),
        tile(256, 2, 1, 1, "png", 200, scale: 3), tile(512, 2, 1, 1, "png", 200, scale: 3),
        tile(style: "non_existent", 256, 0, 0, 0, "png", 404),
        tile(256, -1, 0, 0, "png", 400), tile(256, 25, 0, 0, "png", 400),
        tile(256, 0, 1, 0, "png", 400), tile(256, 0, 0, 1, "png", 400),
        tile(256, 0, 0, 0, "gif", 400), tile(256, 0, 0, 0, "pbf", 400),
        tile(256, 0, 0, 0, "png", 400, scale: 1), tile(256, 0, 0, 0, "png", 400, scale: 5),
        tile(300, 0, 0, 0, "png", 400),
    ]

    static func its(_ path: String, _ type: String, _ status: Int = 200, more: ((RawResponse) -> String?)? = nil) -> Check {
        Check(name: path, path: path.replacingOccurrences(of: " ", with: "%20"), status: status, type: type.isEmpty ? nil : type, more: more)
    }

    static var styleChecks: [Check] {
        [
            its("/styles/\(id)/style.json", "application/json"),
            its("/styles/\(id)/style.json", "application/json") { r in
                guard let s = TileserverGL.json(r) as? [String: Any] else { return "not a JSON object" }
                guard s["version"] as? Int == 8, s["name"] is String, s["sources"] is [String: Any], s["glyphs"] is String,
                      s["layers"] is [Any] else { return "version, name, sources, glyphs or layers missing" }
                guard let sprite = s["sprite"] as? String, sprite.contains("/test/styles/\(id)/sprite") else {
                    return "sprite \(s["sprite"] ?? "none") does not contain /test/styles/\(id)/sprite"
                }
                return nil
            },
            its("/styles/streets/style.json", "", 404),
            its("/styles/\(id)/sprite.json", "application/json"), its("/styles/\(id)/sprite@2x.json", "application/json"),
            its("/styles/\(id)/sprite.png", "image/png"), its("/styles/\(id)/sprite@2x.png", "image/png"),
            its("/styles/\(id)/sprite/default.json", "application/json"), its("/styles/\(id)/sprite/default@2x.json", "application/json"),
            its("/styles/\(id)/sprite/default.png", "image/png"), its("/styles/\(id)/sprite/default@2x.png", "image/png"),
            its("/styles/\(id)/wmts.xml", "text/xml"),
            its("/styles/\(id)/wmts.xml", "text/xml") { r in
                let t = TileserverGL.text(r)
                guard !t.contains("href=\"/test/"), t.contains("href=\"http://"), t.contains("/test/styles/\(id)/wmts.xml") else {
                    return "baseUrl is not absolute or does not name /test/styles/\(id)/wmts.xml"
                }
                return nil
            },
            its("/styles/\(id)/wmts.xml", "text/xml") { r in
                let t = TileserverGL.text(r)
                guard !t.contains("template=\"/test/"), t.contains("template=\"http://"), t.contains("/test/styles/\(id)/256/"),
                      t.contains("/test/styles/\(id)/512/") else { return "tile templates are not absolute /test/styles/\(id)/{256,512}/ URLs" }
                return nil
            },
            its("/styles/non_existent/wmts.xml", "", 404),
            its("/fonts/Noto Sans Bold/0-255.pbf", "application/x-protobuf"),
            its("/fonts/Noto Sans Regular/65280-65535.pbf", "application/x-protobuf"),
            its("/fonts/Noto Sans Bold,Noto Sans Regular/0-255.pbf", "application/x-protobuf"),
            its("/fonts/Nonsense,Noto Sans Bold/0-255.pbf", "", 400),
            its("/fonts/Nonsense/0-255.pbf", "", 400),
            its("/fonts/Nonsense1,Nonsense2/0-255.pbf", "", 400),
        ]
    }

    static func tileJSONArray(_ path: String) -> [Check] {
        [its(path, "application/json"),
         its(path, "application/json") { r in
             guard let a = TileserverGL.json(r) as? [Any], !a.isEmpty else { return "not a non-empty array" }
             return nil
         }]
    }

    static func tileJSON(_ path: String) -> [Check] {
        [its(path, "application/json"),
         its(path, "application/json") { r in
             guard let o = TileserverGL.json(r) as? [String: Any], let tiles = o["tiles"] as? [Any], !tiles.isEmpty else { return "no tiles" }
             return nil
         }]
    }

    static var metadataChecks: [Check] {
        [its("/health", "")] + tileJSONArray("/index.json") + tileJSONArray("/rendered.json") + tileJSONArray("/data.json")
            + [its("/styles.json", "application/json"),
               its("/styles.json", "application/json") { r in
                   guard let a = TileserverGL.json(r) as? [[String: Any]], let first = a.first else { return "not a non-empty array" }
                   guard first["version"] as? Int == 8, first["id"] is String, first["name"] is String else { return "version, id or name missing" }
                   return nil
               }]
            + tileJSON("/styles/\(id).json") + tileJSON("/data/\(TileserverGL.dataID).json")
    }

    func testRasterTiles() throws { TileserverGL.run(Self.tileChecks, port: try TileserverGL.server().port) }
    func testStylesWMTSFonts() throws { TileserverGL.run(Self.styleChecks, port: try TileserverGL.server().port) }
    func testMetadata() throws { TileserverGL.run(Self.metadataChecks, port: try TileserverGL.server().port) }
}
