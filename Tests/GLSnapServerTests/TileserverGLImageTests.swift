import Foundation
import XCTest
import GLSnapImage
@testable import GLSnapServer

/// tileserver-gl's test/static_images.js (its URLs, over Zurich, where the Chicago fixture draws only
/// the background: the overlays are what is checked) and test/metrics.js. Their pixel comparison
/// against images of their data cannot carry over; each check keeps status, type, format and size
/// and asks for what the request draws (colors present, options that change the picture).
final class TileserverGLImageTests: XCTestCase {
    typealias Check = TileserverGL.Check
    static let base = "/styles/\(TileserverGL.styleID)/static/"

    /// Pixels near the color at least `atLeast` times.
    static func has(_ name: String, r: Int, g: Int, b: Int, atLeast: Int = 30) -> (RawResponse) -> String? {
        { res in
            guard let img = TileserverGL.decodePNG(res) else { return "not a PNG" }
            let n = TileserverGL.count(img, r: r, g: g, b: b)
            return n >= atLeast ? nil : "\(n) \(name) pixels, expected at least \(atLeast)"
        }
    }

    static func shot(_ name: String, _ url: String, size: (Int, Int) = (400, 300), more: ((RawResponse) -> String?)? = nil) -> Check {
        Check(name: name, path: base + url, status: 200, type: "image/png", image: ("png", size.0, size.1), more: more)
    }

    static let line = "path=enc:uhd%60Hqk_s%40kiA%7DnAnfAqpA"

    static var checks: [Check] {
        [
            shot("static-lat-lng", "8.5375,47.379,12/400x300.png"),
            shot("static-bearing", "8.5375,47.379,12@180/400x300.png"),
            shot("static-bearing-pitch", "8.5375,47.379,12@15,80/400x300.png"),
            shot("static-pixel-ratio-2x", "8.5375,47.379,11/200x150@2x.png"),
            shot("path-auto", "auto/400x300.png?fill=%23ff000080&path=8.53180,47.38713|8.53841,47.38248|8.53320,47.37457",
                 more: has("red fill", r: 250, g: 125, b: 120, atLeast: 500)),
            shot("encoded-path-auto", "auto/400x300.png?stroke=red&width=5&path=enc:wwg%60Hyu%7Dr%40fNgn%40hKyh%40rR%7BZlP%7BYrJmM%60PJhNbH%60P%60VjUbNfJ%7CLzM~TtLnKxQZ",
                 more: has("red", r: 255, g: 0, b: 0, atLeast: 300)),
            shot("linecap-linejoin-round-round", "8.5375,47.379,12/400x300.png?width=30&linejoin=round&linecap=round&" + line),
            shot("linecap-linejoin-bevel-square", "8.5375,47.379,12/400x300.png?width=30&linejoin=bevel&linecap=square&" + line),
            shot("static-markers", "8.5375,47.379,12/400x300.png?marker=8.531,47.38|marker-icon.png|scale:0.8&marker=8.545,47.375|marker-icon-2x.png|offset:5,-10"),
            shot("static-bbox", "8.5,47.35,8.6,47.4/400x300.png"),
            shot("static-multiple-paths", "8.5375,47.379,12/400x300.png?path=stroke:blue|width:8|fill:none|8.53,47.38|8.54,47.385&path=stroke:red|width:3|fill:yellow|8.53,47.37|8.54,47.375",
                 more: has("blue", r: 0, g: 0, b: 255, atLeast: 200)),
            shot("static-path-latlng", "auto/400x300.png?latlng=true&path=47.38,8.53|47.385,8.54&fill=rgba(0,0,255,0.5)"),
            shot("static-path-border-stroke", "8.5375,47.379,12/400x300.png?path=stroke:yellow|width:10|border:black|borderwidth:2|8.53,47.37|8.54,47.38|8.53,47.39",
                 more: { r in has("yellow", r: 255, g: 255, b: 0, atLeast: 300)(r) ?? has("black border", r: 0, g: 0, b: 0, atLeast: 150)(r) }),
            shot("static-path-border-isolated", "8.5375,47.379,12/400x300.png?path=border:black|borderwidth:10|8.53,47.37|8.54,47.38|8.53,47.39",
                 more: has("black border", r: 0, g: 0, b: 0, atLeast: 500)),
            shot("static-border-global", "8.5375,47.379,12/400x300.png?stroke=yellow&width=10&border=black&borderwidth=2&path=8.53,47.37|8.54,47.38|8.53,47.39",
                 more: { r in has("yellow", r: 255, g: 255, b: 0, atLeast: 300)(r) ?? has("black border", r: 0, g: 0, b: 0, atLeast: 150)(r) }),
        ]
    }

    func testVisualRequests() throws {
        let port = try TileserverGL.server().port
        TileserverGL.run(Self.checks, port: port)
        // linecap and linejoin must change the picture (tileserver-gl's two fixtures differ).
        let round = TileserverGL.request(port: port, method: "GET", path: Self.checks[6].path, body: nil)
        let square = TileserverGL.request(port: port, method: "GET", path: Self.checks[7].path, body: nil)
        let a = round.flatMap(TileserverGL.decodePNG), b = square.flatMap(TileserverGL.decodePNG)
        var differing = 0
        if let a, let b, a.pixels.count == b.pixels.count {
            for i in stride(from: 0, to: a.pixels.count, by: 4) where a.pixels[i..<i + 3] != b.pixels[i..<i + 3] { differing += 1 }
        }
        let problem: String? = differing >= 200 ? nil : "round/round and bevel/square differ in \(differing) pixels, expected at least 200"
        print("TSGL-CHECK \(problem == nil ? "PASS" : "FAIL") linecap-linejoin options drawn\(problem.map { ": " + $0 } ?? "")")
        XCTAssertNil(problem)
    }

    /// test/metrics.js: the metrics on their own port, with tileserver-gl's series names.
    func testMetrics() throws {
        let running = try TileserverGL.server()
        var results: [(String, String?)] = []
        if let mp = TileserverGL.metricsPort(running) {
            let r = TileserverGL.request(port: mp, method: "GET", path: "/metrics", body: nil)
            results.append(("GET /metrics on the metrics port: 200 text/plain",
                            r?.status == 200 && (r?.headers["content-type"] ?? "").hasPrefix("text/plain") ? nil : "status \(r?.status ?? 0)"))
            let body = r.map(TileserverGL.text) ?? ""
            let names = ["tileserver_http_requests_total", "tileserver_tiles_served_total", "tileserver_render_pool_size"]
            let missing = names.filter { !body.contains($0) }
            results.append(("metrics name tileserver-gl's series", missing.isEmpty ? nil : "missing \(missing)"))
            _ = TileserverGL.request(port: running.port, method: "GET", path: "/health", body: nil)
            let after = TileserverGL.request(port: mp, method: "GET", path: "/metrics", body: nil).map(TileserverGL.text) ?? ""
            let counted = after.split(separator: "\n").contains { line in
                line.hasPrefix("tileserver_http_requests_total{") && (Int(line.split(separator: " ").last ?? "") ?? 0) > 0
            }
            results.append(("a request increments tileserver_http_requests_total", counted ? nil : "no labelled count above 0"))
        } else {
            results.append(("GET /metrics on the metrics port: 200 text/plain", "no metrics port"))
            results.append(("metrics name tileserver-gl's series", "no metrics port"))
            results.append(("a request increments tileserver_http_requests_total", "no metrics port"))
        }
        // Without a metrics port configured, no second listener is opened.
        let folder = running.folder
        var config = try ServerConfig.load(path: folder + "/config.json")
        config.port = 0
        config.workers = 1
        let plain = try MapServer(config: config)
        try plain.start()
        results.append(("no metrics server unless asked", TileserverGL.metricsPort(plain) == nil ? nil : "a metrics port is open"))
        plain.shutdown(grace: 1)
        for (name, problem) in results {
            print("TSGL-CHECK \(problem == nil ? "PASS" : "FAIL") \(name)\(problem.map { ": " + $0 } ?? "")")
            XCTAssertNil(problem, name)
        }
    }
}
