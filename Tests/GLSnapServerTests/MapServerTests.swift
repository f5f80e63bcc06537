import Foundation
import GLSnapData
import XCTest
import GLSnapTestSupport
@testable import GLSnapServer
import GLSnap

/// Starts one server on 127.0.0.1 (free port) over the shared Chicago fixture for all tests.
final class MapServerTests: XCTestCase {
    static var server: MapServer?
    static var logged = LogCounter()
    static let id = "bright-v9-chicago"

    final class LogCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var lines = 0
        func add() { lock.lock(); lines += 1; lock.unlock() }
        var count: Int { lock.lock(); defer { lock.unlock() }; return lines }
    }

    static func sharedStyle() -> String? {
        try? SharedFolder.require("fixtures/styles/bright-v9-chicago.json").path
    }

    func port() throws -> Int {
        if let s = MapServerTests.server { return s.port }
        guard let style = MapServerTests.sharedStyle() else { throw XCTSkip("../shared/fixtures is not here") }
        var config = try ServerConfig.singleStyle(path: style)
        config.port = 0
        config.workers = 2
        config.queue = 16
        config.connectionTimeout = 1
        config.cacheControl = "public, max-age=60"
        let counter = MapServerTests.logged
        let server = try MapServer(config: config) { _ in counter.add() }
        try server.start()
        MapServerTests.server = server
        return server.port
    }

    func get(_ target: String, _ headers: [String: String] = [:], method: String = "GET") throws -> RawResponse {
        let p = try port()
        guard let r = RawHTTP.get(port: p, target, headers: headers, method: method) else {
            XCTFail("no answer to \(target)")
            throw XCTSkip("no answer")
        }
        return r
    }

    /// Width and height from a PNG's IHDR.
    func pngSize(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count > 24, b[0] == 0x89, b[1] == 0x50 else { return nil }
        func be(_ o: Int) -> Int { Int(b[o]) << 24 | Int(b[o + 1]) << 16 | Int(b[o + 2]) << 8 | Int(b[o + 3]) }
        return (be(16), be(20))
    }

    func errorMessage(_ r: RawResponse) -> String? {
        guard r.headers["content-type"] == "application/json",
              let o = try? JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any] else { return nil }
        return o["error"] as? String
    }

    func testServiceEndpoints() throws {
        let id = MapServerTests.id
        let p = try port()
        var r = try get("/health")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(String(decoding: r.body, as: UTF8.self), "OK")

        r = try get("/styles.json")
        let list = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.body)) as? [[String: Any]])
        XCTAssertEqual(list.count, 1)
        XCTAssertEqual(list[0]["id"] as? String, id)
        XCTAssertEqual(list[0]["url"] as? String, "http://127.0.0.1:\(p)/styles/\(id)/style.json")

        r = try get("/styles/\(id).json")
        let tj = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any])
        XCTAssertEqual(tj["tiles"] as? [String], ["http://127.0.0.1:\(p)/styles/\(id)/{z}/{x}/{y}.png"])
        XCTAssertEqual(tj["tileSize"] as? Int, 256)
        r = try get("/styles/512/\(id).json")
        let tj512 = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any])
        XCTAssertEqual(tj512["tiles"] as? [String], ["http://127.0.0.1:\(p)/styles/\(id)/512/{z}/{x}/{y}.png"])

        r = try get("/styles/\(id)/style.json")
        let style = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any])
        let source = try XCTUnwrap((style["sources"] as? [String: Any])?["mapbox"] as? [String: Any])
        XCTAssertEqual(source["url"] as? String, "http://127.0.0.1:\(p)/data/chicago-z13.json", "\(source)")

        r = try get("/")
        XCTAssertTrue(String(decoding: r.body, as: UTF8.self).contains("<img src=\"/styles/\(id)/static/"))
    }

    func testImagesAndETags() throws {
        let id = MapServerTests.id
        var r = try get("/styles/\(id)/static/-87.64,41.88,13.5@30,20/320x200.png")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.headers["content-type"], "image/png")
        XCTAssertEqual(r.headers["cache-control"], "public, max-age=60")
        XCTAssertTrue(pngSize(r.body)! == (320, 200))
        for (ext, type, magic) in [("jpg", "image/jpeg", [UInt8]([0xFF, 0xD8, 0xFF])), ("webp", "image/webp", Array("RIFF".utf8))] {
            let other = try get("/styles/\(id)/static/-87.64,41.88,13.5/64x48.\(ext)")
            XCTAssertEqual(other.status, 200, ext)
            XCTAssertEqual(other.headers["content-type"], type)
            XCTAssertEqual(Array(other.body.prefix(magic.count)), magic, ext)
        }
        let tag = try XCTUnwrap(r.headers["etag"])
        XCTAssertTrue(tag.hasPrefix("\"") && tag.hasSuffix("\""))

        let renders = MapServerTests.server!.service.metrics.renders
        r = try get("/styles/\(id)/static/-87.64,41.88,13.5@30,20/320x200.png", ["If-None-Match": tag])
        XCTAssertEqual(r.status, 304)
        XCTAssertEqual(r.body.count, 0)
        XCTAssertEqual(MapServerTests.server!.service.metrics.renders, renders, "a 304 renders nothing")

        r = try get("/styles/\(id)/static/-87.64,41.88,13.5/100x80@2x.png")
        XCTAssertTrue(pngSize(r.body)! == (200, 160))
        r = try get("/styles/\(id)/13/2101/3045.png")
        XCTAssertTrue(pngSize(r.body)! == (256, 256))
        r = try get("/styles/\(id)/0/0/0.png")
        XCTAssertTrue(pngSize(r.body)! == (256, 256))
        r = try get("/styles/\(id)/512/13/2101/3045@2x.png")
        XCTAssertTrue(pngSize(r.body)! == (1024, 1024))
        r = try get("/styles/\(id)/static/-87.66,41.86,-87.62,41.9/300x300.png")
        XCTAssertEqual(r.status, 200)
        r = try get("/styles/\(id)/static/auto/300x200.png?path=-87.65,41.87%7C-87.62,41.89&marker=-87.64,41.88%7Cpin.png&stroke=red&width=3&padding=0.2&maxzoom=14")
        XCTAssertTrue(pngSize(r.body)! == (300, 200))

        r = try get("/metrics")
        let text = String(decoding: r.body, as: UTF8.self)
        XCTAssertTrue(text.contains("glsnap_http_requests_total{code=\"304\"} "), text)
        XCTAssertTrue(text.contains("glsnap_cache_hits_total "))
        XCTAssertTrue(text.contains("glsnap_http_request_duration_seconds_bucket{le=\"+Inf\"}"))
        XCTAssertTrue(text.contains("glsnap_queue_depth 0"))
    }

    /// Each hostile or malformed request gets its exact status and a JSON error.
    func testBadRequests() throws {
        let id = MapServerTests.id
        let cases: [(String, Int, String)] = [
            ("/styles/nope/static/0,0,1/10x10.png", 404, "no style 'nope'"),
            ("/styles/\(id)/static/0,0,1/99999x10.png", 400, "exceeds maxSize"),
            ("/styles/\(id)/static/0,0,1/1500x10@2x.png", 400, "exceeds maxSize"),
            ("/styles/\(id)/static/0,0,1/10x10@4x.png", 400, "maxScaleFactor"),
            ("/styles/\(id)/static/0,0,1/10x10.gif", 400, "unknown image format"),
            ("/styles/\(id)/static/0,0,1/0x10.png", 400, "at least 1x1"),
            ("/styles/\(id)/static/200,0,1/10x10.png", 400, "invalid center"),
            ("/styles/\(id)/static/0,89,1/10x10.png", 400, "invalid center"),
            ("/styles/\(id)/static/0,0,30/10x10.png", 400, "zoom 30.0 is outside"),
            ("/styles/\(id)/static/0,0,1@0,90000/10x10.png", 400, "pitch"),
            ("/styles/\(id)/static/nan,0,1/10x10.png", 400, "not a number"),
            ("/styles/\(id)/static/1e3,0,1/10x10.png", 400, "not a number"),
            ("/styles/\(id)/static/3,0,1,0/10x10.png", 400, "invalid bounds"),
            ("/styles/\(id)/static/0,87,1,88/10x10.png", 400, "invalid bounds"),
            ("/styles/\(id)/static/0,0,0,/10x10.png", 404, "empty number"),
            ("/styles/\(id)/static/0,0,-1/10x10.png", 404, "below 0"),
            ("/styles/\(id)/static/auto/10x10.png", 400, "auto needs"),
            ("/styles/\(id)/static/auto/10x10.png?path=1,2%7Cx,y", 400, "not a lng,lat pair"),
            ("/styles/\(id)/static/auto/10x10.png?marker=1,2%7C..%2F..%2Fetc%2Fpasswd", 400, "invalid marker icon"),
            ("/styles/\(id)/static/auto/10x10.png?path=1,2&stroke=notacolor", 400, "not a CSS color"),
            ("/styles/\(id)/static/auto/10x10.png?path=enc:%7B%7B", 400, "polyline"),
            ("/styles/\(id)/static/0,0,1/10x10.png?padding=-1", 400, "padding"),
            ("/styles/%2e%2e/static/0,0,1/10x10.png", 400, "invalid style id"),
            ("/styles/..%2F..%2Fetc/style.json", 400, "invalid style id"),
            ("/styles/\(id)/23/0/0.png", 400, "above 22"),
            ("/styles/\(id)/2/4/0.png", 400, "outside the 4x4 grid"),
            ("/styles/\(id)/2/-1/0.png", 400, "non-negative integers"),
            ("/nothing", 404, "nothing is served"),
        ]
        for (target, status, message) in cases {
            let r = try get(target)
            XCTAssertEqual(r.status, status, target)
            XCTAssertTrue(errorMessage(r)?.contains(message) == true, "\(target): \(errorMessage(r) ?? "no JSON error")")
        }
        let long = "/styles/\(id)/static/auto/10x10.png?path=" + Array(repeating: "1,2", count: 2500).joined(separator: "%7C")
        XCTAssertEqual(try get(long).status, 400)
        XCTAssertEqual(try get("/health", method: "POST").status, 405)
        XCTAssertGreaterThanOrEqual(MapServerTests.logged.count, cases.count, "refused requests are logged")
    }

    /// A seeded storm of malformed requests, then slowloris clients; the server answers each with
    /// the expected 4xx, never a 5xx, and serves valid requests afterwards.
    func testFuzzAndSlowloris() throws {
        let id = MapServerTests.id
        let p = try port()
        var rng = SplitMix(seed: 42)
        let alphabet = Array("abcxyz0123456789.,@-_/%~x?&=|:".utf8)
        var statuses: [Int: Int] = [:]
        for i in 0..<3000 {
            let target: String
            var expected: Set<Int>
            switch i % 6 {
            case 0: // random bytes after /styles/
                let n = 1 + Int(rng.next() % 60)
                target = "/styles/" + String(decoding: (0..<n).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }, as: UTF8.self)
                expected = [400, 404]
            case 1: // huge sizes
                let w = 2049 + Int(rng.next() % 1_000_000_000), h = 1 + Int(rng.next() % 100)
                target = "/styles/\(id)/static/0,0,1/\(w)x\(h).png"
                expected = [400]
            case 2: // out-of-range centers and zooms
                let lon = Double(rng.next() % 100_000) / 10 - 5000, zoom = 23 + Double(rng.next() % 1000)
                target = "/styles/\(id)/static/\(lon),0,\(zoom)/10x10.png"
                expected = [400]
            case 3: // traversal attempts in every name
                let t = ["..", "..%2F..", "%2e%2e", "....//", "%00", ".hidden"][Int(rng.next() % 6)]
                target = ["/styles/\(t)/style.json", "/styles/\(t).json", "/styles/\(t)/static/0,0,1/1x1.png",
                          "/styles/\(id)/static/auto/5x5.png?marker=0,0%7C\(t)"][Int(rng.next() % 4)]
                expected = [400, 404]
            case 4: // bad overlays
                let junk = ["1,2,3", "a,b", "999,0", "0,999", "enc:~~~~", "fill:xx%7C1,2", "width:1000%7C1,2"][Int(rng.next() % 7)]
                target = "/styles/\(id)/static/auto/10x10.png?path=\(junk)"
                expected = [400]
            default: // bad tiles
                let z = Int(rng.next() % 40), x = Int(rng.next() % 1_000_000_000)
                target = "/styles/\(id)/\(z)/\(x)/\(x).png"
                expected = z == 0 && x == 0 ? [200] : (z > 22 || x >= 1 << min(z, 22) ? [400] : [200])
            }
            guard let r = RawHTTP.get(port: p, target) else { XCTFail("no answer to \(target)"); continue }
            statuses[r.status, default: 0] += 1
            XCTAssertTrue(expected.contains(r.status), "\(target) answered \(r.status), expected \(expected.sorted())")
            if r.status >= 400 { XCTAssertNotNil(errorMessage(r), "\(target): error body is not JSON") }
        }
        XCTAssertNil(statuses.keys.first { $0 >= 500 }, "\(statuses)")

        // Slowloris: partial requests are closed after the 1 s connection timeout.
        var sockets: [Int32] = []
        for i in 0..<32 {
            guard let fd = RawHTTP.connect(port: p) else { XCTFail("connect"); continue }
            RawHTTP.send(fd, Array("GET /styles/\(id)/static/0,0,1/10x10.png HTTP/1.1\r\nHost: x\r\nX-Slow-\(i): ".utf8))
            sockets.append(fd)
        }
        // Valid requests still succeed while they hang.
        XCTAssertEqual(try get("/health").status, 200)
        Thread.sleep(forTimeInterval: 2.5)
        for fd in sockets {
            var b = [UInt8](repeating: 0, count: 64)
            let n = b.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            XCTAssertLessThanOrEqual(n, 0, "the server closed the stalled connection")
            close(fd)
        }
        // A request line alone, never finished, and garbage instead of HTTP.
        let garbage = RawHTTP.exchange(port: p, raw: Array("\u{1}\u{2}\u{3} nonsense\r\n\r\n".utf8))
        XCTAssertEqual(garbage?.status, 400)
        let r = try get("/styles/\(id)/static/-87.64,41.88,13.5/64x64.png")
        XCTAssertEqual(r.status, 200)
        XCTAssertTrue(pngSize(r.body)! == (64, 64))
    }

    func testRenderQueueAdmission() {
        let q = RenderQueue(slots: 1, maxWaiting: 1)
        XCTAssertEqual(q.acquire(deadline: Date().addingTimeInterval(1)), .admitted)
        let t0 = Date()
        XCTAssertEqual(q.acquire(deadline: Date().addingTimeInterval(0.1)), .timedOut)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(t0), 0.09)
        let waiter = Thread { _ = q.acquire(deadline: Date().addingTimeInterval(5)); q.release() }
        waiter.start()
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertEqual(q.depth.waiting, 1)
        XCTAssertEqual(q.acquire(deadline: Date().addingTimeInterval(1)), .full, "a full queue refuses at once")
        q.release()
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertEqual(q.depth.waiting, 0)
        XCTAssertEqual(q.depth.rendering, 0)
    }

    func testBoundsFitMatchesTheBox() throws {
        // A box 1/4 of the world wide in a 512-px image with no padding fits at zoom 2.
        let box = CoordinateBounds(west: 0, south: -10, east: 90, north: 10)
        let f = try MapService.fit(box, width: 512, height: 512, padding: 0, maxZoom: 22)
        XCTAssertEqual(try XCTUnwrap(f.zoom), 2, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(f.center?.longitude), 45, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(f.center?.latitude), 0, accuracy: 1e-9)
        let padded = try MapService.fit(box, width: 512, height: 512, padding: 0.5, maxZoom: 22)
        XCTAssertEqual(try XCTUnwrap(padded.zoom), 1, accuracy: 1e-9)
        // As tileserver-gl: never below the zoom where the world fills the larger side (1 for 1024).
        let world = try MapService.fit(CoordinateBounds(west: -180, south: -80, east: 180, north: 80), width: 1024, height: 256,
                                       padding: 0.1, maxZoom: 22)
        XCTAssertEqual(try XCTUnwrap(world.zoom), 1, accuracy: 1e-9)
        // A point fits at maxzoom.
        let point = try MapService.fit(CoordinateBounds(west: 5, south: 5, east: 5, north: 5), width: 512, height: 512,
                                       padding: 0.1, maxZoom: 15)
        XCTAssertEqual(point.zoom, 15)
    }
}

struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
