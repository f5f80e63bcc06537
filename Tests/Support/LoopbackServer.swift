import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for the tests of every module (GLSnapTestSupport): one thread per connection, one request per
/// connection (`Connection: close`), answers chosen by a handler from the request path.
public final class LoopbackServer: @unchecked Sendable {
    public enum Reply {
        case body(status: Int, bytes: [UInt8], contentType: String)
        /// Accepts the request and never answers (until the server stops).
        case hang
        /// Announces `contentLength` bytes, sends a few, then waits.
        case hugeLength(Int)
        /// Sends body bytes without end and without a length until the client gives up.
        case endless
        /// A 302 to `location`.
        case redirect(String)
        /// A status with extra response headers ("Name: value" lines) and a body.
        case headers(status: Int, headers: [String], bytes: [UInt8])
    }

    /// A request as the handler sees it: the path (percent-decoded) and the header lines.
    public struct Request {
        public var path: String
        public var headers: [String: String]
        /// The value of header `name` (case-insensitive).
        public func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    public let port: Int
    private let listener: Int32
    private let handler: @Sendable (Request) -> Reply
    private let lock = NSLock()
    private var stopped = false
    private var requestLog: [String] = []

    public var baseURL: String { "http://127.0.0.1:\(port)" }
    /// The paths requested so far.
    public var requests: [String] { lock.lock(); defer { lock.unlock() }; return requestLog }
    private var isStopped: Bool { lock.lock(); defer { lock.unlock() }; return stopped }

    public convenience init(handler: @escaping @Sendable (String) -> Reply) throws {
        try self.init(requestHandler: { handler($0.path) })
    }

    /// A server whose handler sees the request's headers too.
    public static func withRequests(_ handler: @escaping @Sendable (Request) -> Reply) throws -> LoopbackServer {
        try LoopbackServer(requestHandler: handler)
    }

    private init(requestHandler: @escaping @Sendable (Request) -> Reply) throws {
        self.handler = requestHandler
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr = in_addr(s_addr: inet_addr("127.0.0.1"))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit { stop() }

    public func stop() {
        lock.lock()
        let wasStopped = stopped
        stopped = true
        lock.unlock()
        if !wasStopped { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        while !isStopped {
            var p = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 100) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            Thread.detachNewThread { [self] in serve(client) }
        }
        close(listener)
    }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while request.count < 65536 {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, 4096, 0) }
            guard n > 0 else { return }
            request += buffer[0..<n]
            if request.count >= 4, request.suffix(4).elementsEqual([13, 10, 13, 10]) { break }
        }
        let lines = String(decoding: request, as: UTF8.self).components(separatedBy: "\r\n")
        let line = (lines.first ?? "").split(separator: " ")
        guard line.count >= 2 else { return }
        let path = String(line[1]).removingPercentEncoding ?? String(line[1])
        var headers: [String: String] = [:]
        for header in lines.dropFirst() {
            guard let colon = header.firstIndex(of: ":") else { continue }
            headers[header[..<colon].lowercased()] = header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        lock.lock(); requestLog.append(path); lock.unlock()
        switch handler(Request(path: path, headers: headers)) {
        case let .headers(status, extra, bytes):
            let head = extra.map { $0 + "\r\n" }.joined()
            send(fd, "HTTP/1.1 \(status) X\r\n\(head)Content-Length: \(bytes.count)\r\nConnection: close\r\n\r\n")
            send(fd, bytes)
        case let .body(status, bytes, contentType):
            send(fd, "HTTP/1.1 \(status) X\r\nContent-Type: \(contentType)\r\nContent-Length: \(bytes.count)\r\nConnection: close\r\n\r\n")
            send(fd, bytes)
        case .hang:
            waitUntilStopped(seconds: 30)
        case .hugeLength(let length):
            send(fd, "HTTP/1.1 200 OK\r\nContent-Length: \(length)\r\nConnection: close\r\n\r\n")
            send(fd, [UInt8](repeating: 0x41, count: 1024))
            waitUntilStopped(seconds: 10)
        case .endless:
            send(fd, "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n")
            let chunk = [UInt8](repeating: 0x42, count: 65536)
            while !isStopped, send(fd, chunk) { }
        case .redirect(let location):
            send(fd, "HTTP/1.1 302 Found\r\nLocation: \(location)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        }
    }

    private func waitUntilStopped(seconds: Double) {
        let end = Date().addingTimeInterval(seconds)
        while !isStopped && Date() < end { usleep(20_000) }
    }

    @discardableResult
    private func send(_ fd: Int32, _ text: String) -> Bool { send(fd, Array(text.utf8)) }

    /// Writes all of `bytes`; false when the peer went away.
    @discardableResult
    private func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }
}
