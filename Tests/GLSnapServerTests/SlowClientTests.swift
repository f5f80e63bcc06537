import Foundation
import XCTest
@testable import GLSnapServer

/// Slowloris: clients that trickle their headers cannot hold the connections. A request's headers
/// have a deadline however slowly they come, a new client evicts the longest-waiting connection
/// when the slots run out, and one address may hold only so many connections.
final class SlowClientTests: XCTestCase {
    func server(_ adjust: (inout ServerConfig) -> Void) throws -> MapServer {
        var config = try ServerConfig.singleStyle(path: try Fixtures.style("bright-v9-chicago"))
        config.port = 0
        config.workers = 1
        config.connectionTimeout = 30
        adjust(&config)
        let server = try MapServer(config: config)
        try server.start()
        addTeardownBlock { server.shutdown(grace: 1) }
        return server
    }

    /// Opens a connection from `from` and sends a request line and one header line.
    func slowClient(port: Int, from: String, _ i: Int) -> Int32? {
        guard let fd = RawHTTP.connect(port: port, from: from) else { return nil }
        RawHTTP.send(fd, Array("GET /health HTTP/1.1\r\nHost: x\r\nX-Slow-\(i): 1\r\n".utf8))
        return fd
    }

    func testHeadersTricklingPastTheDeadlineAreCutOff() throws {
        try checkDeadline(threading: .perConnection)
    }

    func testHeadersTricklingPastTheDeadlineAreCutOffInThePoolMode() throws {
        try checkDeadline(threading: .pool(threads: 2))
    }

    func checkDeadline(threading: ServerConfig.Threading) throws {
        let s = try server { $0.headerTimeout = 1; $0.threading = threading }
        let fd = try XCTUnwrap(slowClient(port: s.port, from: "127.0.0.1", 0))
        defer { close(fd) }
        let start = Date()
        var closedAfter: Double?
        var line = 0
        while Date().timeIntervalSince(start) < 4 {
            Thread.sleep(forTimeInterval: 0.2)
            if RawHTTP.isClosedByPeer(fd) { closedAfter = Date().timeIntervalSince(start); break }
            line += 1
            RawHTTP.send(fd, Array("X-More-\(line): 1\r\n".utf8))  // never idle: the idle timeout is 30 s
        }
        let t = try XCTUnwrap(closedAfter, "a connection sending a header line every 0.2 s was kept for 4 s")
        XCTAssertGreaterThan(t, 0.8)
        XCTAssertLessThan(t, 2.0)
        XCTAssertEqual(RawHTTP.get(port: s.port, "/health")?.status, 200)
    }

    func testTricklingClientsCannotKeepANewOneOut() throws {
        let limit = 16
        let s = try server { $0.connectionLimit = limit; $0.headerTimeout = 2; $0.connectionsPerAddress = 0 }
        var fds: [Int32] = []
        defer { fds.forEach { close($0) } }
        for i in 0..<limit + 4 {
            if let fd = slowClient(port: s.port, from: "127.0.0.\(2 + i % 4)", i) { fds.append(fd) }
        }
        Thread.sleep(forTimeInterval: 0.3)
        let t0 = Date()
        let r = RawHTTP.get(port: s.port, "/health")
        XCTAssertEqual(r?.status, 200, "a new client is served while \(fds.count) trickling connections are open")
        XCTAssertLessThan(Date().timeIntervalSince(t0), 1)
        // The deadline then frees every slot the trickling clients held.
        Thread.sleep(forTimeInterval: 3)
        XCTAssertEqual(fds.filter(RawHTTP.isClosedByPeer).count, fds.count)
    }

    func testOneAddressMayHoldOnlyItsShare() throws {
        let s = try server { $0.connectionsPerAddress = 4; $0.headerTimeout = 30 }
        var fds: [Int32] = []
        defer { fds.forEach { close($0) } }
        for i in 0..<6 { if let fd = slowClient(port: s.port, from: "127.0.0.5", i) { fds.append(fd) } }
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(fds.count, 6)
        XCTAssertEqual(fds.map(RawHTTP.isClosedByPeer), [true, true, false, false, false, false],
                       "past 4 connections, the address's longest-waiting ones are closed")
        XCTAssertEqual(RawHTTP.get(port: s.port, "/health")?.status, 200, "other addresses are served")
        let fd = try XCTUnwrap(RawHTTP.connect(port: s.port, from: "127.0.0.5"))
        defer { close(fd) }
        RawHTTP.send(fd, Array("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        XCTAssertEqual(RawHTTP.parse(RawHTTP.readAll(fd))?.status, 200, "a client sharing the address gets in too")
        XCTAssertEqual(fds.filter(RawHTTP.isClosedByPeer).count, 3)
    }

    func testGuardEvictsTheLongestWaitingAndSparesAnswering() {
        let g = ConnectionGuard(headerTimeout: 10, connectionLimit: 4)  // soft limit 3
        var pair: [Int32] = [0, 0]
        var sockets: [[Int32]] = []
        for _ in 0..<4 {
            XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair), 0)
            sockets.append(pair)
        }
        defer { sockets.joined().forEach { close($0) } }
        g.started(1, fd: sockets[0][0]); g.headersComplete(1)   // answering: never evicted
        g.started(2, fd: sockets[1][0])
        g.started(3, fd: sockets[2][0])
        g.started(4, fd: sockets[3][0])                          // over the soft limit: 2 goes
        XCTAssertEqual(g.evicted, 1)
        XCTAssertTrue(RawHTTP.isClosedByPeer(sockets[1][1]))
        XCTAssertFalse(RawHTTP.isClosedByPeer(sockets[0][1]))
        XCTAssertFalse(RawHTTP.isClosedByPeer(sockets[2][1]))
        let later = DispatchTime.now().uptimeNanoseconds + 11_000_000_000
        XCTAssertEqual(g.sweep(now: later), 2, "3 and 4 are past the deadline; 2 is already closing, 1 is answering")
        g.responseSent(1)
        let sent = DispatchTime.now().uptimeNanoseconds
        XCTAssertEqual(g.sweep(now: sent + 9_000_000_000), 0, "1's next request has its own deadline")
        XCTAssertEqual(g.sweep(now: sent + 11_000_000_000), 1)
    }
}

extension SlowClientTests {
    func testPerAddressCapEvictsThatAddressOnly() {
        let g = ConnectionGuard(headerTimeout: 10, connectionLimit: 100, perAddress: 2)
        var pair: [Int32] = [0, 0]
        var sockets: [[Int32]] = []
        for _ in 0..<5 {
            XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair), 0)
            sockets.append(pair)
        }
        defer { sockets.joined().forEach { close($0) } }
        g.started(1, fd: sockets[0][0], address: 7)
        g.started(2, fd: sockets[1][0], address: 8)
        g.started(3, fd: sockets[2][0], address: 7)
        g.started(4, fd: sockets[3][0], address: 7)   // address 7 over 2: 1 goes, not 2
        XCTAssertEqual(sockets.prefix(4).map { RawHTTP.isClosedByPeer($0[1]) }, [true, false, false, false])
        g.headersComplete(3); g.headersComplete(4)
        g.started(5, fd: sockets[4][0], address: 7)   // 3 and 4 answering: the new one is refused
        XCTAssertTrue(RawHTTP.isClosedByPeer(sockets[4][1]))
        XCTAssertFalse(RawHTTP.isClosedByPeer(sockets[2][1]))
        g.closed(1); g.closed(5); g.closed(3)
        g.started(6, fd: sockets[0][0], address: 7)   // 7 holds 4 and 6 now: within the cap
        XCTAssertEqual(g.evicted, 1)
    }
}
