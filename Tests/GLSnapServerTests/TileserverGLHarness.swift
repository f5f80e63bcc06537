import Foundation
import GLSnapTestSupport
import XCTest
import GLSnapImage
@testable import GLSnapServer

/// tileserver-gl's HTTP test suite (maptiler/tileserver-gl `test/*.js`) restated on the shared
/// fixtures: its `test-style` is bright-v9-chicago, its `openmaptiles` data chicago-z13.mbtiles,
/// its "Open Sans" fonts the fixtures' "Noto Sans", its public URL `/test/` as in its setup.js.
/// Each check is one `it(...)` of theirs: a request and what the answer must be (status, content
/// type, and for images the format and size). Every check prints `TSGL-CHECK PASS|FAIL name`, so
/// a run can be counted (`grep -c 'TSGL-CHECK PASS'`).
enum TileserverGL {
    static let styleID = "test-style"
    static let dataID = "openmaptiles"

    final class Running: @unchecked Sendable {
        let server: MapServer
        let folder: String
        init(server: MapServer, folder: String) { self.server = server; self.folder = folder }
        var port: Int { server.port }
    }

    nonisolated(unsafe) private static var shared: Running?
    private static let lock = NSLock()

    static var fixtures: String? {
        guard let style = try? SharedFolder.require("fixtures/styles/bright-v9-chicago.json") else { return nil }
        return style.deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// The configuration file tileserver-gl's tests run on, over the shared fixtures.
    static func writeConfig(into folder: String, fixtures f: String, extraOptions: String = "") throws -> String {
        let config = """
        {"options": {"paths": {"root": "\(f)", "fonts": "glyphs", "styles": "styles", "mbtiles": "tiles", "icons": "icons"}\(extraOptions)},
         "styles": {"\(styleID)": {"style": "bright-v9-chicago.json"}},
         "data": {"\(dataID)": {"mbtiles": "chicago-z13.mbtiles"}}}
        """
        let path = folder + "/config.json"
        try config.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// One server for every tileserver-gl check, started on first use.
    static func server() throws -> Running {
        lock.lock(); defer { lock.unlock() }
        if let s = shared { return s }
        guard let f = fixtures else { throw XCTSkip("../shared/fixtures is not here") }
        let folder = NSTemporaryDirectory() + "tsgl-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var config = try ServerConfig.load(path: try writeConfig(into: folder, fixtures: f))
        config.port = 0
        config.workers = 2
        config.queue = 64
        config.publicURL = "/test/"
        configure(&config)
        let server = try MapServer(config: config)
        try server.start()
        let running = Running(server: server, folder: folder)
        shared = running
        return running
    }

    /// Settings the suite needs beyond tileserver-gl's file (the metrics port).
    static func configure(_ config: inout ServerConfig) { config.metricsPort = 0 }

    /// The port of the server's separate metrics listener, when it has one.
    static func metricsPort(_ r: Running) -> Int? { r.server.metricsPort }
    static func metricsPort(_ s: MapServer) -> Int? { s.metricsPort }

    /// A request and what tileserver-gl's test expects of its answer.
    struct Check {
        var name: String
        var method = "GET"
        var path: String
        var body: [UInt8]? = nil
        var status: Int
        /// The Content-Type must start with this.
        var type: String? = nil
        /// For images: the format ("png", "jpeg", "webp") and the size in pixels.
        var image: (format: String, width: Int, height: Int)? = nil
        /// More conditions on the answer; a failure returns what was wrong.
        var more: ((RawResponse) -> String?)? = nil
    }

    /// Sends each check and reports each failure; returns (passed, total).
    @discardableResult
    static func run(_ checks: [Check], port: Int, file: StaticString = #filePath, line: UInt = #line) -> (Int, Int) {
        var passed = 0
        for c in checks {
            let problem = verdict(c, port: port)
            if let problem {
                print("TSGL-CHECK FAIL \(c.name): \(problem)")
                XCTFail("\(c.name): \(problem)", file: file, line: line)
            } else {
                print("TSGL-CHECK PASS \(c.name)")
                passed += 1
            }
        }
        return (passed, checks.count)
    }

    static func verdict(_ c: Check, port: Int) -> String? {
        guard let r = request(port: port, method: c.method, path: c.path, body: c.body) else { return "no answer" }
        let message = String(decoding: r.body.prefix(200), as: UTF8.self)
        guard r.status == c.status else { return "status \(r.status), expected \(c.status) (\(message))" }
        if let t = c.type {
            guard let got = r.headers["content-type"], got.hasPrefix(t) else { return "content type \(r.headers["content-type"] ?? "none"), expected \(t)" }
        }
        if let want = c.image {
            guard let got = imageInfo(r.body) else { return "the body is not a PNG, JPEG or WebP image" }
            guard got.format == want.format, got.width == want.width, got.height == want.height else {
                return "image \(got.format) \(got.width)x\(got.height), expected \(want.format) \(want.width)x\(want.height)"
            }
        }
        return c.more?(r)
    }

    static func request(port: Int, method: String, path: String, body: [UInt8]?, headers: [String: String] = [:]) -> RawResponse? {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (k, v) in headers { head += "\(k): \(v)\r\n" }
        if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        head += "\r\n"
        return RawHTTP.exchange(port: port, raw: Array(head.utf8) + (body ?? []))
    }

    /// Format and size of a PNG (IHDR), JPEG (first SOFn) or WebP (VP8, VP8L, VP8X) file.
    static func imageInfo(_ b: [UInt8]) -> (format: String, width: Int, height: Int)? {
        func be16(_ o: Int) -> Int { Int(b[o]) << 8 | Int(b[o + 1]) }
        func be32(_ o: Int) -> Int { be16(o) << 16 | be16(o + 2) }
        if b.count > 24, b[0] == 0x89, b[1] == 0x50, b[2] == 0x4E, b[3] == 0x47 { return ("png", be32(16), be32(20)) }
        if b.count > 4, b[0] == 0xFF, b[1] == 0xD8 {
            var i = 2
            while i + 9 < b.count {
                guard b[i] == 0xFF else { return nil }
                let marker = b[i + 1]
                if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                    return ("jpeg", be16(i + 7), be16(i + 5))
                }
                i += 2 + be16(i + 2)
            }
            return nil
        }
        if b.count > 30, Array(b[0..<4]) == Array("RIFF".utf8), Array(b[8..<12]) == Array("WEBP".utf8) {
            let chunk = String(decoding: b[12..<16], as: UTF8.self)
            func le(_ o: Int, _ n: Int) -> Int { (0..<n).reduce(0) { $0 | Int(b[o + $1]) << (8 * $1) } }
            switch chunk {
            case "VP8 ": return ("webp", le(26, 2) & 0x3FFF, le(28, 2) & 0x3FFF)
            case "VP8L":
                let bits = le(21, 4)
                return ("webp", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
            case "VP8X": return ("webp", le(24, 3) + 1, le(27, 3) + 1)
            default: return nil
            }
        }
        return nil
    }

    static func json(_ r: RawResponse) -> Any? { try? JSONSerialization.jsonObject(with: Data(r.body)) }

    static func text(_ r: RawResponse) -> String { String(decoding: r.body, as: UTF8.self) }

    static func decodePNG(_ r: RawResponse) -> RGBAImage? { try? PNGDecoder().decode(r.body) }

    /// Pixels of `image` within `tolerance` (per channel) of the color.
    static func count(_ image: RGBAImage, r: Int, g: Int, b: Int, tolerance: Int = 40) -> Int {
        var n = 0
        for i in stride(from: 0, to: image.pixels.count, by: 4)
        where abs(Int(image.pixels[i]) - r) <= tolerance && abs(Int(image.pixels[i + 1]) - g) <= tolerance
            && abs(Int(image.pixels[i + 2]) - b) <= tolerance {
            n += 1
        }
        return n
    }
}
