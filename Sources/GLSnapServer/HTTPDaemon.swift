import CMicroHTTPD
import Foundation

/// The HTTP transport: libmicrohttpd with its own polling thread, answering each request through
/// `MapService` on a connection thread. Owns the listening socket (so port 0 gives a free port).
final class HTTPDaemon: @unchecked Sendable {
    /// The service answering: replaced whole by `replace(_:)` (a reload); a request keeps the one it started with.
    var service: MapService { serviceLock.lock(); defer { serviceLock.unlock() }; return current }
    private var current: MapService
    private let serviceLock = NSLock()
    /// The port to listen on: `config.port` unless given.
    private let requestedPort: Int?
    /// Answers only `/metrics` (the `--metrics` listener).
    let metricsOnly: Bool
    private(set) var port = 0
    private var daemon: OpaquePointer?
    private var listenFD: Int32 = -1
    /// Header deadline and eviction of slow connections (see `ConnectionGuard`).
    let guardian: ConnectionGuard

    init(service: MapService, port: Int? = nil, metricsOnly: Bool = false) {
        current = service
        requestedPort = port
        self.metricsOnly = metricsOnly
        let c = service.config
        guardian = ConnectionGuard(headerTimeout: c.headerTimeout, connectionLimit: max(1, c.connectionLimit),
                                   perAddress: max(0, c.connectionsPerAddress))
    }

    deinit { stop() }

    /// Answers new requests with `service`; requests in progress finish on the old one.
    func replace(_ service: MapService) {
        serviceLock.lock(); current = service; serviceLock.unlock()
    }

    /// Binds, listens and starts the daemon.
    func start() throws {
        let config = service.config
        listenFD = try HTTPDaemon.listen(address: config.bind, port: requestedPort ?? config.port)
        port = boundPort()
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_ITC.rawValue
        let cls = Unmanaged.passUnretained(self).toOpaque()
        guardian.start()
        var options = [
            MHD_OptionItem(option: .LISTEN_SOCKET, value: Int(listenFD), ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: max(1, config.connectionTimeout), ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: max(1, config.connectionLimit), ptr_value: nil),
            // Request line + headers must fit here: longer ones get 414/431 from libmicrohttpd.
            MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: 64 << 10, ptr_value: nil),
            MHD_OptionItem(option: .THREAD_STACK_SIZE, value: 8 << 20, ptr_value: nil),
            MHD_OptionItem(option: .NOTIFY_CONNECTION, value: unsafeBitCast(connectionNotifier, to: Int.self), ptr_value: cls),
            MHD_OptionItem(option: .NOTIFY_COMPLETED, value: unsafeBitCast(completionNotifier, to: Int.self), ptr_value: cls),
        ]
        switch config.threading {
        case .perConnection:
            flags |= MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_POLL.rawValue
        case .pool(let threads):
            flags |= MHD_USE_EPOLL.rawValue
            options.append(MHD_OptionItem(option: .THREAD_POOL_SIZE, value: max(1, threads), ptr_value: nil))
        }
        options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
        daemon = options.withUnsafeMutableBufferPointer { buffer -> OpaquePointer? in
            guard let base = buffer.baseAddress else { return nil }
            let args: [CVarArg] = [Int32(truncatingIfNeeded: MHD_OPTION.ARRAY.rawValue), base,
                                   Int32(truncatingIfNeeded: MHD_OPTION.END.rawValue)]
            return withVaList(args) { va in
                MHD_start_daemon_va(flags, 0, nil, nil, accessHandler, cls, va)
            }
        }
        guard daemon != nil else {
            guardian.stop()
            close(listenFD)
            listenFD = -1
            throw ServerError.listen(call: "MHD_start_daemon", message: "libmicrohttpd refused the options (see its log)")
        }
    }

    /// Stops accepting new connections; requests in progress continue.
    func quiesce() {
        guard let daemon else { return }
        let fd = MHD_quiesce_daemon(daemon)
        if fd >= 0 { close(fd) }
        listenFD = -1
    }

    /// Stops the daemon, closing every connection.
    func stop() {
        if let daemon { MHD_stop_daemon(daemon) }
        daemon = nil
        guardian.stop()
        if listenFD >= 0 { close(listenFD) }
        listenFD = -1
    }

    /// A listening IPv4 TCP socket; records the port it got.
    private static func listen(address: String, port: Int) throws -> Int32 {
        guard (0...65535).contains(port) else { throw ServerError.listen(call: "bind", message: "port \(port) is outside 0-65535") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port)).bigEndian
        guard inet_pton(AF_INET, address, &addr.sin_addr) == 1 else {
            throw ServerError.listen(call: "inet_pton", message: "'\(address)' is not an IPv4 address")
        }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError.listen(call: "socket", message: String(cString: strerror(errno))) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let m = String(cString: strerror(errno))
            close(fd)
            throw ServerError.listen(call: "bind", message: "\(address):\(port): \(m)")
        }
        guard Glibc.listen(fd, 1024) == 0 else {
            let m = String(cString: strerror(errno))
            close(fd)
            throw ServerError.listen(call: "listen", message: m)
        }
        return fd
    }

    /// The port the socket is bound to.
    func boundPort() -> Int {
        var addr = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let r = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listenFD, $0, &len) }
        }
        return r == 0 ? Int(UInt16(bigEndian: addr.sin_port)) : 0
    }

    fileprivate func answer(_ connection: OpaquePointer, url: String, method: String, body: RequestBody? = nil) -> MHD_Result {
        guardian.headersComplete(connectionKey(connection))
        var box = QueryBox()
        withUnsafeMutablePointer(to: &box) { ptr in
            _ = MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, queryIterator, ptr)
        }
        let ifNoneMatch = MHD_lookup_connection_value(connection, .HEADER_KIND, "If-None-Match").map { String(cString: $0) }
        let service = self.service
        let r = metricsOnly
            ? (url == "/metrics" ? service.metricsResponse() : HTTPResponse.error(.notFound("this port serves /metrics only")))
            : box.overflow
            ? HTTPResponse.error(.badRequest("more than \(QueryBox.maxItems) query arguments"))
            : service.handle(method: method, path: url, query: box.items, ifNoneMatch: ifNoneMatch,
                             body: body.map { $0.tooLarge ? .tooLarge : .bytes($0.bytes) })
        let response = r.body.withUnsafeBytes { raw in
            MHD_create_response_from_buffer(raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let response else { return .NO }
        defer { MHD_destroy_response(response) }
        for (name, value) in r.headers { _ = MHD_add_response_header(response, name, value) }
        return MHD_queue_response(connection, UInt32(r.status), response)
    }
}

/// Query arguments collected by `queryIterator`.
private struct QueryBox {
    static let maxItems = 256
    var items: [(key: String, value: String)] = []
    var overflow = false
}

private let queryIterator: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return .YES }
    let box = cls.assumingMemoryBound(to: QueryBox.self)
    guard box.pointee.items.count < QueryBox.maxItems else { box.pointee.overflow = true; return .NO }
    box.pointee.items.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
    return .YES
}

/// A POST body as it arrives: kept up to `limit` bytes; past it, counted and dropped.
final class RequestBody {
    let limit: Int
    private(set) var bytes: [UInt8] = []
    private(set) var tooLarge = false
    init(limit: Int, tooLarge: Bool = false) { self.limit = limit; self.tooLarge = tooLarge }

    func append(_ data: UnsafeRawBufferPointer) {
        guard !tooLarge else { return }
        guard bytes.count + data.count <= limit else { tooLarge = true; bytes = []; return }
        bytes.append(contentsOf: data)
    }
}

/// GET and HEAD carry no body: answered on the first call. A POST's body is collected over the
/// following calls (kept in `con_cls`, freed by `completionNotifier`) and answered on the last;
/// one declaring more than 4 × `maxRequestBody` gets 413 at once. Other methods get 405 at once
/// (libmicrohttpd then closes the connection instead of reading their body).
private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, data, size, state in
    guard let cls, let connection, let url, let method else { return .NO }
    let daemon = Unmanaged<HTTPDaemon>.fromOpaque(cls).takeUnretainedValue()
    let name = String(cString: method)
    guard name == "POST", let state, let size else { return daemon.answer(connection, url: String(cString: url), method: name) }
    guard let stored = state.pointee else {
        let limit = daemon.service.config.maxRequestBody
        if let declared = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length").flatMap({ Int(String(cString: $0)) }),
           declared > 4 * limit {
            return daemon.answer(connection, url: String(cString: url), method: name, body: RequestBody(limit: limit, tooLarge: true))
        }
        daemon.guardian.headersComplete(connectionKey(connection))
        state.pointee = Unmanaged.passRetained(RequestBody(limit: limit)).toOpaque()
        return .YES
    }
    let body = Unmanaged<RequestBody>.fromOpaque(stored).takeUnretainedValue()
    if size.pointee > 0 {
        body.append(UnsafeRawBufferPointer(start: data, count: size.pointee))
        size.pointee = 0
        return .YES
    }
    return daemon.answer(connection, url: String(cString: url), method: name, body: body)
}

private func connectionKey(_ connection: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection))) }

/// Connection opened or closed: the guard starts or stops tracking it.
private let connectionNotifier: MHD_NotifyConnectionCallback = { cls, connection, _, code in
    guard let cls, let connection else { return }
    let daemon = Unmanaged<HTTPDaemon>.fromOpaque(cls).takeUnretainedValue()
    if code.rawValue == 0 { // MHD_CONNECTION_NOTIFY_STARTED (the Swift import names the cases oddly)
        daemon.guardian.started(connectionKey(connection), fd: glsnap_mhd_connection_fd(connection),
                                address: glsnap_mhd_connection_ipv4(connection))
    } else {
        daemon.guardian.closed(connectionKey(connection))
    }
}

/// A response was sent (or the request failed): the next request's header clock starts.
private let completionNotifier: MHD_RequestCompletedCallback = { cls, connection, state, _ in
    if let state, let stored = state.pointee {
        Unmanaged<RequestBody>.fromOpaque(stored).release()
        state.pointee = nil
    }
    guard let cls, let connection else { return }
    Unmanaged<HTTPDaemon>.fromOpaque(cls).takeUnretainedValue().guardian.responseSent(connectionKey(connection))
}
