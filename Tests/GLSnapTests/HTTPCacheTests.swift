import Foundation
@testable import GLSnapData
import GLSnapTestSupport
import XCTest

/// Cache-Control, ETag / Last-Modified revalidation, the disk cache and the connection bound,
/// against a server on 127.0.0.1.
final class HTTPCacheTests: XCTestCase {
    private func client(maxConnections: Int = 8, disk: String? = nil, diskBytes: Int = 1 << 20) -> HTTPClient {
        HTTPClient(options: HTTPOptions(connectTimeout: 5, totalTimeout: 5, retries: 0, maxConnections: maxConnections,
                                        diskCachePath: disk, diskCacheBytes: diskBytes))
    }

    private func count(_ server: LoopbackServer, _ path: String) -> Int { server.requests.filter { $0 == path }.count }

    func testCacheControlDecidesWhatIsReused() throws {
        let server = try LoopbackServer { path in
            let control = ["/fresh": "public, max-age=600", "/stale": "max-age=0", "/nostore": "no-store",
                           "/nocache": "no-cache", "/aged": "max-age=60"][path]
            var headers = control.map { ["Cache-Control: \($0)"] } ?? []
            if path == "/aged" { headers.append("Age: 100") }
            if path == "/expired" { headers.append("Expires: Thu, 01 Jan 1998 00:00:00 GMT") }
            return .headers(status: 200, headers: headers, bytes: Array(path.utf8))
        }
        defer { server.stop() }
        let http = client()
        for path in ["/fresh", "/stale", "/nostore", "/nocache", "/aged", "/expired", "/plain"] {
            for _ in 0..<2 { XCTAssertEqual(try http.fetch(server.baseURL + path), Array(path.utf8)) }
        }
        // Fresh for 10 minutes, or without any header: the second fetch asks nobody.
        XCTAssertEqual(count(server, "/fresh"), 1)
        XCTAssertEqual(count(server, "/plain"), 1)
        // Stale at once and without a validator: fetched again each time.
        XCTAssertEqual(count(server, "/stale"), 2)
        XCTAssertEqual(count(server, "/nostore"), 2)
        XCTAssertEqual(count(server, "/nocache"), 2)
        XCTAssertEqual(count(server, "/aged"), 2, "Age 100 is past max-age 60")
        XCTAssertEqual(count(server, "/expired"), 2)
    }

    func testHeaderParsing() {
        let date = { (s: String) -> Double? in ["A": 1000, "B": 1300][s] }
        func lifetime(_ cc: String?, expires: String? = nil, dateHeader: String? = nil, age: String? = nil) -> Double? {
            HTTPCacheHeaders(cacheControl: cc, expires: expires, date: dateHeader, age: age, etag: nil, lastModified: nil,
                             parseDate: date).lifetime
        }
        XCTAssertEqual(lifetime("max-age=300, must-revalidate"), 300)
        XCTAssertEqual(lifetime("MAX-AGE=\"20\"", age: "5"), 15)
        XCTAssertEqual(lifetime("max-age=banana"), 0, "a malformed max-age is stale")
        XCTAssertEqual(lifetime("max-age=100, no-cache"), 0)
        XCTAssertEqual(lifetime(nil, expires: "B", dateHeader: "A"), 300)
        XCTAssertEqual(lifetime("max-age=5", expires: "B", dateHeader: "A"), 5, "max-age wins over Expires")
        XCTAssertEqual(lifetime(nil, expires: "garbage", dateHeader: "A"), 0)
        XCTAssertNil(lifetime("public"))
        XCTAssertTrue(HTTPCacheHeaders(cacheControl: "no-store", expires: nil, date: nil, age: nil, etag: nil, lastModified: nil).noStore)
        XCTAssertEqual(HTTPCacheHeaders.parseDate("Thu, 01 Jan 1998 00:00:00 GMT"), 883_612_800)
        let long = String(repeating: "x", count: 2000)
        XCTAssertNil(HTTPCacheHeaders(cacheControl: nil, expires: nil, date: nil, age: nil, etag: long, lastModified: nil).etag)
    }

    /// Answers `/e` with an ETag and `/m` with a Last-Modified, both to be revalidated on every
    /// use, and 304 when the request carries the matching validator.
    private func validatingServer(body: [UInt8], notModified: Gauge) throws -> LoopbackServer {
        try LoopbackServer.withRequests({ request in
            if request.path == "/e" {
                if request.header("If-None-Match") == "\"v1\"" {
                    notModified.enter()
                    return .headers(status: 304, headers: ["ETag: \"v1\""], bytes: [])
                }
                return .headers(status: 200, headers: ["ETag: \"v1\"", "Cache-Control: no-cache"], bytes: body)
            }
            if request.path == "/m" {
                let stamp = "Wed, 21 Oct 2015 07:28:00 GMT"
                if request.header("If-Modified-Since") == stamp {
                    return .headers(status: 304, headers: ["Cache-Control: max-age=600"], bytes: [])
                }
                return .headers(status: 200, headers: ["Last-Modified: \(stamp)", "Cache-Control: max-age=0"], bytes: body)
            }
            return .body(status: 404, bytes: [], contentType: "text/plain")
        })
    }

    func testETagAndLastModifiedRevalidation() throws {
        let body = Array("tile bytes".utf8)
        let notModified = Gauge()
        let server = try validatingServer(body: body, notModified: notModified)
        defer { server.stop() }
        let http = client()
        for _ in 0..<3 { XCTAssertEqual(try http.fetch(server.baseURL + "/e"), body) }
        XCTAssertEqual(count(server, "/e"), 3, "no-cache: every use asks the server")
        XCTAssertEqual(notModified.peak, 2, "the second and third asked with If-None-Match and reused the body")
        // The 304 of /m says max-age=600: after one revalidation the body is fresh again.
        for _ in 0..<3 { XCTAssertEqual(try http.fetch(server.baseURL + "/m"), body) }
        XCTAssertEqual(count(server, "/m"), 2)
    }

    func testDiskCacheSurvivesANewClient() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("cache/http.db").path
        let body = [UInt8]((0..<5000).map { UInt8($0 % 251) })
        let notModified = Gauge()
        let server = try LoopbackServer.withRequests({ request in
            switch request.path {
            case "/fresh.png": return .headers(status: 200, headers: ["Cache-Control: max-age=600"], bytes: body)
            case "/missing.pbf": return .headers(status: 404, headers: ["Cache-Control: max-age=600"], bytes: [])
            case "/e":
                if request.header("If-None-Match") == "\"v1\"" {
                    notModified.enter()
                    return .headers(status: 304, headers: [], bytes: [])
                }
                return .headers(status: 200, headers: ["ETag: \"v1\"", "Cache-Control: no-cache"], bytes: body)
            default: return .headers(status: 200, headers: ["Cache-Control: no-store"], bytes: body)
            }
        })
        defer { server.stop() }
        let first = client(disk: path)
        for p in ["/fresh.png", "/missing.pbf", "/e", "/secret"] { _ = try first.fetch(server.baseURL + p) }
        XCTAssertEqual(first.warnings, [])
        XCTAssertEqual(server.requests.count, 4)

        let second = client(disk: path)
        XCTAssertEqual(try second.fetch(server.baseURL + "/fresh.png"), body)
        XCTAssertNil(try second.fetch(server.baseURL + "/missing.pbf"))
        XCTAssertEqual(server.requests.count, 4, "both come from the file")
        XCTAssertEqual(try second.fetch(server.baseURL + "/e"), body, "a 304 reuses the body on disk")
        XCTAssertEqual(notModified.peak, 1)
        XCTAssertEqual(try second.fetch(server.baseURL + "/secret"), body)
        XCTAssertEqual(server.requests.suffix(2), ["/e", "/secret"], "no-store was not written to disk")
        XCTAssertEqual(second.warnings, [])
    }

    func testDiskCacheEvictsTheLeastRecentlyUsed() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("http.db").path
        let server = try LoopbackServer { _ in
            .headers(status: 200, headers: ["Cache-Control: max-age=600"], bytes: [UInt8](repeating: 7, count: 1000))
        }
        defer { server.stop() }
        // Room for three 1000-byte responses (each costs its body, URL and a little more), not four.
        let budget = 3500
        let a = client(disk: path, diskBytes: budget)
        for p in ["/1", "/2", "/3"] { _ = try a.fetch(server.baseURL + p) }
        // /1 is used again through another client (the first keeps it in memory), so /2 is the oldest.
        _ = try client(disk: path, diskBytes: budget).fetch(server.baseURL + "/1")
        _ = try a.fetch(server.baseURL + "/4")
        XCTAssertEqual(server.requests, ["/1", "/2", "/3", "/4"])
        let b = client(disk: path, diskBytes: budget)
        for p in ["/1", "/3", "/4", "/2"] { _ = try b.fetch(server.baseURL + p) }
        XCTAssertEqual(server.requests, ["/1", "/2", "/3", "/4", "/2"], "only /2 was evicted")
    }

    func testCorruptCacheFileIsResetWithAWarning() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("http.db").path
        try Data(repeating: 0x78, count: 8192).write(to: URL(fileURLWithPath: path))
        let server = try LoopbackServer { _ in .headers(status: 200, headers: ["Cache-Control: max-age=600"], bytes: [1, 2, 3]) }
        defer { server.stop() }
        let http = client(disk: path)
        XCTAssertEqual(try http.fetch(server.baseURL + "/a"), [1, 2, 3])
        XCTAssertEqual(http.warnings.count, 1)
        XCTAssertTrue(http.warnings.first?.contains("\(path) was unreadable") == true, "\(http.warnings)")
        XCTAssertTrue(http.warnings.first?.contains("started anew") == true, "\(http.warnings)")
        // The new file works: another client reads the response from it.
        XCTAssertEqual(try client(disk: path).fetch(server.baseURL + "/a"), [1, 2, 3])
        XCTAssertEqual(server.requests, ["/a"])
    }

    func testConcurrentFetchesStayWithinTheConnectionBound() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gauge = Gauge()
        let server = try LoopbackServer { path in
            gauge.enter()
            defer { gauge.leave() }
            usleep(100_000)
            return .headers(status: 200, headers: ["Cache-Control: max-age=600"], bytes: Array(path.utf8))
        }
        defer { server.stop() }
        let http = client(maxConnections: 3, disk: dir.appendingPathComponent("http.db").path)
        let results = Results()
        // 24 threads at once (more than the CPUs), every URL twice: the second fetch may find the
        // first's response, or fetch it itself.
        let group = DispatchGroup()
        let base = server.baseURL
        for i in 0..<24 {
            group.enter()
            Thread.detachNewThread {
                let path = "/t\(i % 12)"
                results.set(i, (try? http.fetch(base + path)) == Array(path.utf8))
                group.leave()
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(results.allTrue(count: 24), true)
        XCTAssertEqual(gauge.peak, 3, "never more than the bound, and the bound is used")
        XCTAssertEqual(http.warnings, [])
    }
}

/// Counts requests in progress and remembers the most at once (`enter` alone counts events).
private final class Gauge: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    private var most = 0
    func enter() { lock.lock(); current += 1; most = max(most, current); lock.unlock() }
    func leave() { lock.lock(); current -= 1; lock.unlock() }
    var peak: Int { lock.lock(); defer { lock.unlock() }; return most }
}

private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int: Bool] = [:]
    func set(_ i: Int, _ v: Bool) { lock.lock(); values[i] = v; lock.unlock() }
    func allTrue(count: Int) -> Bool { lock.lock(); defer { lock.unlock() }; return values.count == count && values.values.allSatisfy { $0 } }
}
