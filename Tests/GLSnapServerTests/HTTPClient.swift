import Foundation

/// A raw-socket HTTP/1.1 client for tests: one request per connection (`Connection: close`).
struct RawResponse {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
}

enum RawHTTP {
    /// A connection to 127.0.0.1:`port` from the loopback address `from` (127.0.0.2, ... act as other clients).
    static func connect(port: Int, from: String? = nil) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        if let from {
            var src = sockaddr_in()
            src.sin_family = sa_family_t(AF_INET)
            src.sin_addr.s_addr = inet_addr(from)
            let bound = withUnsafePointer(to: &src) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { close(fd); return nil }
        }
        var tv = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port)).bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard r == 0 else { close(fd); return nil }
        return fd
    }

    static func send(_ fd: Int32, _ bytes: [UInt8]) {
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            off += n
        }
    }

    /// Whether the server has closed or reset `fd` (without waiting).
    static func isClosedByPeer(_ fd: Int32) -> Bool {
        var b = [UInt8](repeating: 0, count: 256)
        while true {
            let n = b.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 { continue }
            return n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
        }
    }

    static func readAll(_ fd: Int32) -> [UInt8] {
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            out += buf[0..<n]
        }
        return out
    }

    /// Sends `raw` (a full request) and parses the answer; nil when the server closed without one.
    static func exchange(port: Int, raw: [UInt8]) -> RawResponse? {
        guard let fd = connect(port: port) else { return nil }
        defer { close(fd) }
        send(fd, raw)
        return parse(readAll(fd))
    }

    static func get(port: Int, _ target: String, headers: [String: String] = [:], method: String = "GET") -> RawResponse? {
        var req = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (k, v) in headers { req += "\(k): \(v)\r\n" }
        req += "\r\n"
        return exchange(port: port, raw: Array(req.utf8))
    }

    static func parse(_ data: [UInt8]) -> RawResponse? {
        let sep: [UInt8] = [13, 10, 13, 10]
        guard data.count >= 4, let end = (0...(data.count - 4)).first(where: { Array(data[$0..<$0 + 4]) == sep }) else { return nil }
        let head = String(decoding: data[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            if let colon = line.firstIndex(of: ":") {
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return RawResponse(status: status, headers: headers, body: Array(data[(end + 4)...]))
    }
}
