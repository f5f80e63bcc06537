import Foundation
import XCTest
@testable import GLSnapServer

/// tileserver-gl's test/static.js: static maps by center, by area, fitted to paths, and by POST.
final class TileserverGLStaticTests: XCTestCase {
    typealias Check = TileserverGL.Check

    /// `testStatic(prefix, q, format, status, scale, type, query)` of theirs; images are checked for
    /// their format and size too.
    static func image(_ q: String, _ size: (Int, Int), _ format: String, status: Int = 200, scale: Int? = nil, query: String = "") -> Check {
        let path = "/styles/\(TileserverGL.styleID)/static/\(q)/\(size.0)x\(size.1)" + (scale.map { "@\($0)x" } ?? "") + ".\(format)" + query
        let kind = format == "jpg" ? "jpeg" : format
        let s = scale ?? 1
        return Check(name: path, path: path, status: status, type: status == 200 ? "image/\(kind)" : nil,
                     image: status == 200 ? (kind, size.0 * s, size.1 * s) : nil)
    }

    static func refused(_ q: String, _ size: String, _ format: String, _ status: Int, scale: Int? = nil, query: String = "") -> Check {
        let path = "/styles/\(TileserverGL.styleID)/static/\(q)/\(size)" + (scale.map { "@\($0)x" } ?? "") + ".\(format)" + query
        return Check(name: path, path: path, status: status)
    }

    static let centerChecks: [Check] = [
        image("0,0,0", (256, 256), "png"), image("0,0,0", (256, 256), "jpg"),
        image("0,0,0", (256, 256), "jpeg"), image("0,0,0", (256, 256), "webp"),
        image("0,0,0", (300, 300), "png", scale: 2), image("0,0,0", (300, 300), "png", scale: 3),
        image("0,0,1.5", (256, 256), "png"),
        image("80,40,20", (600, 300), "png", scale: 3),
        image("8.5,40.5,20", (300, 150), "png", scale: 3), image("-8.5,-40.5,20", (300, 150), "png", scale: 3),
        image("8,40,2@0,0", (300, 150), "png"), image("8,40,2@180,45", (300, 150), "png", scale: 2),
        image("8,40,2@10", (300, 150), "png", scale: 3), image("8,40,2@10.3,20.4", (300, 300), "png"),
        // Pitch 120: tileserver-gl clamps it to 85.
        image("0,0,2@390,120", (300, 300), "png"),
        refused("190,0,0", "256x256", "png", 400), refused("0,86,0", "256x256", "png", 400),
        refused("80,40,20", "0x0", "png", 400), refused("0,0,0", "256x256", "gif", 400),
        refused("0,0,0", "256x256", "png", 404, scale: 1),
        refused("0,0,-1", "256x256", "png", 404), refused("0,0,0", "256.5x256.5", "png", 400),
        refused("0,0,0,", "256x256", "png", 404), refused("0,0,0,0,", "256x256", "png", 404),
    ]

    static let areaChecks: [Check] = [
        image("-180,-80,180,80", (10, 10), "png"), image("-180,-80,180,80", (10, 10), "jpg"),
        image("-180,-80,180,80", (10, 10), "jpeg"), image("-180,-80,180,80", (10, 10), "webp"),
        image("-180,-90,180,90", (20, 20), "png", scale: 2), image("0,0,1,1", (200, 200), "png", scale: 3),
        image("-280,-80,0,80", (280, 160), "png"),
        refused("0,87,1,88", "5x2", "png", 400), refused("0,0,1,1", "1x1", "gif", 400),
        refused("-180,-80,180,80", "0.5x2.6", "png", 400),
    ]

    static let autoChecks: [Check] = [
        image("auto", (256, 256), "png", query: "?path=10,10|20,20"),
        image("auto", (20, 20), "png", scale: 2, query: "?path=10,10|20,20"),
        image("auto", (200, 200), "png", scale: 3, query: "?path=-10,-10|-20,-20"),
        // encodeURIComponent('enc:{{biGwvyGoUi@s_A|{@'): the polyline holds a '|'.
        image("auto", (20, 20), "png", scale: 2, query: "?path=enc%3A%7B%7BbiGwvyGoUi%40s_A%7C%7B%40"),
        refused("auto", "256x256", "png", 400),
        refused("auto", "256x256", "png", 400, query: "?path=invalid"),
        refused("auto", "2560x2560", "png", 400, query: "?path=10,10|20,20"),
    ]

    static func post(_ name: String, _ path: String, _ body: String, status: Int, png: (Int, Int)? = nil,
                     more: ((RawResponse) -> String?)? = nil) -> Check {
        Check(name: "POST " + name, method: "POST", path: path, body: Array(body.utf8), status: status,
              type: png == nil ? nil : "image/png", image: png.map { ("png", $0.0, $0.1) }, more: more)
    }

    static var postChecks: [Check] {
        let auto = "/styles/\(TileserverGL.styleID)/static/auto/256x256.png"
        let tile = "/styles/\(TileserverGL.styleID)/0/0/0.png"
        let many = (0..<200).map { "\(10 + Double($0) * 0.1),\(20 + Double($0) * 0.1)" }.joined(separator: "|")
        return [
            post("path in JSON body", auto, #"{"path": "10,10|20,20"}"#, status: 200, png: (256, 256)),
            post("long path in body", auto, "{\"path\": \"\(many)\"}", status: 200, png: (256, 256)),
            post("scale and path in body", "/styles/\(TileserverGL.styleID)/static/auto/20x20@2x.png", #"{"path": "10,10|20,20"}"#,
                 status: 200, png: (40, 40)),
            post("path array in body", auto, #"{"path": ["10,10|20,20", "-5,-5|5,5"]}"#, status: 200, png: (256, 256)),
            post("auto without path in body", auto, "{}", status: 400),
            post("invalid JSON body", auto, "not json", status: 400),
            post("to a tile URL", tile, "{}", status: 405),
            post("to a tile URL with invalid JSON", tile, "not json", status: 405),
            post("oversized JSON body", auto, "{\"data\": \"" + String(repeating: "x", count: 6 << 20) + "\"}", status: 413),
            post("prototype pollution", auto, #"{"__proto__": {"admin": true}, }"#, status: 400) { r in
                let t = TileserverGL.text(r)
                return t.contains("Invalid JSON") || t.contains("forbidden") ? nil : "the error does not say Invalid JSON or forbidden: \(t)"
            },
            // getSecureMergedParams, as seen over HTTP:
            post("nested object refused", auto, #"{"path": {"lat": 10, "lon": 10}}"#, status: 400) { r in
                TileserverGL.text(r).contains("nested objects are not allowed") ? nil : "the error does not say nested objects are not allowed"
            },
            // Over HTTP its JSON parser (secure-json-parse) refuses the key before the merge would drop it.
            post("__proto__ key refused", auto, #"{"__proto__": true, "path": "10,10|20,20"}"#, status: 400),
            post("array body refused", auto, #"["not", "an", "object"]"#, status: 400) { r in
                TileserverGL.text(r).contains("Invalid data") ? nil : "the error does not say Invalid data"
            },
            post("query and body paths merged", auto + "?path=-40,-40|-30,-30", #"{"path": "40,40|50,50"}"#, status: 200,
                 png: (256, 256)),
        ]
    }

    func testCenterBased() throws { TileserverGL.run(Self.centerChecks, port: try TileserverGL.server().port) }
    func testAreaBased() throws { TileserverGL.run(Self.areaChecks, port: try TileserverGL.server().port) }
    func testAutofitPath() throws { TileserverGL.run(Self.autoChecks, port: try TileserverGL.server().port) }
    func testPOST() throws { TileserverGL.run(Self.postChecks, port: try TileserverGL.server().port) }
}
