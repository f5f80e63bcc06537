import Foundation
import XCTest
@testable import GLSnapServer

/// `--timeout`: a render past the request's time limit is stopped, answers 504 near the
/// deadline, and its worker serves the next request.
final class RequestTimeoutTests: XCTestCase {
    func testSlowRenderAnswers504AtItsDeadlineAndFreesTheWorker() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("glsnap-timeout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // 3000 translucent full-image layers: about 6 s for a 1024x1024 image on 2 cores.
        let layers = (0..<3000).map { #"{"id": "b\#($0)", "type": "background", "paint": {"background-color": "rgba(0, 80, 160, 0.02)"}}"# }
        let style = #"{"version": 8, "sources": {}, "layers": ["# + layers.joined(separator: ",") + "]}"
        let path = dir.appendingPathComponent("slow.json").path
        try Data(style.utf8).write(to: URL(fileURLWithPath: path))
        var config = try ServerConfig.singleStyle(path: path)
        config.workers = 1
        config.queue = 4
        config.requestTimeout = 0.5
        let service = try MapService(config: config)

        var start = Date()
        let slow = service.handle(method: "GET", path: "/styles/slow/static/0,0,0/1024x1024.png")
        let slowSeconds = Date().timeIntervalSince(start)
        print("slow request: \(slow.status) after \(slowSeconds) s")
        XCTAssertEqual(slow.status, 504)
        XCTAssertTrue(String(decoding: slow.body, as: UTF8.self).contains("0.5"), String(decoding: slow.body, as: UTF8.self))
        XCTAssertLessThan(slowSeconds, 1.5, "answers near the 0.5 s deadline, not when the render would have ended")

        // The one worker is free at once: a small image renders in time.
        start = Date()
        let next = service.handle(method: "GET", path: "/styles/slow/static/0,0,0/32x32.png")
        let nextSeconds = Date().timeIntervalSince(start)
        print("next request: \(next.status) after \(nextSeconds) s")
        XCTAssertEqual(next.status, 200)
        XCTAssertLessThan(nextSeconds, 0.5)
        XCTAssertEqual(service.queue.depth.rendering, 0)
    }
}
