import CCurl
import Foundation

/// Limits and timeouts of HTTP(S) fetches.
public struct HTTPOptions: Sendable, Equatable {
    /// Seconds to wait for the TCP (and TLS) connection.
    public var connectTimeout: Double
    /// Seconds for the whole transfer, redirects included.
    public var totalTimeout: Double
    /// The most body bytes one response may have; a larger `Content-Length` is refused before
    /// the body is read, and a body that grows past it is cut off.
    public var maxBytes: Int
    /// The most redirects followed for one request.
    public var maxRedirects: Int
    /// Extra attempts after a 5xx answer or a failed connection (not after a timeout), with a
    /// backoff that doubles from `retryDelay` seconds.
    public var retries: Int
    public var retryDelay: Double
    /// The most bytes of responses (bodies and "not found" answers) kept in memory by URL.
    public var cacheBytes: Int

    public init(connectTimeout: Double = 10, totalTimeout: Double = 30, maxBytes: Int = DataLimits.maxResourceBytes,
                maxRedirects: Int = 5, retries: Int = 2, retryDelay: Double = 0.25, cacheBytes: Int = 32 << 20) {
        self.connectTimeout = connectTimeout; self.totalTimeout = totalTimeout; self.maxBytes = maxBytes
        self.maxRedirects = maxRedirects; self.retries = retries; self.retryDelay = retryDelay; self.cacheBytes = cacheBytes
    }
}

/// Fetches `http://` and `https://` resources through libcurl. Thread-safe: each request takes an
/// easy handle from a small pool (connections are kept alive between requests of one handle).
/// Successful and "not found" answers are kept in a bounded in-memory cache keyed by URL.
public final class HTTPClient: @unchecked Sendable {
    public let options: HTTPOptions
    /// The client every resolver uses unless given another.
    public static let shared = HTTPClient()

    private let lock = NSLock()
    // Guarded by `lock`.
    private var idle: [UnsafeMutableRawPointer] = []
    private var cache: [String: [UInt8]?] = [:]
    private var cacheOrder: [String] = []
    private var cacheOrderStart = 0
    private var cachedBytes = 0
    /// Idle handles kept for reuse.
    static let maxIdleHandles = 8
    /// Responses above this share of the cache are not cached.
    static let maxCachedShare = 8

    private static let globalInit: Bool = curl_global_init(3) == CURLE_OK  // CURL_GLOBAL_ALL

    public init(options: HTTPOptions = HTTPOptions()) {
        self.options = options
    }

    deinit { idle.forEach { curl_easy_cleanup($0) } }

    /// Whether `url` is fetched by this client (an `http://` or `https://` URL).
    public static func handles(_ url: String) -> Bool {
        let lower = url.prefix(8).lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// The body of `url`, or nil for 404 and 410 (a missing resource). Throws `SourceError`
    /// (`httpStatus`, `httpTimeout`, `httpFailed`, `responseTooLarge`) naming the URL otherwise.
    public func fetch(_ url: String) throws -> [UInt8]? {
        lock.lock()
        if let hit = cache[url] { lock.unlock(); return hit }
        lock.unlock()
        var attempt = 0
        while true {
            do {
                let body = try fetchOnce(url)
                store(url, body)
                return body
            } catch let error as SourceError {
                guard attempt < options.retries, HTTPClient.isTransient(error) else { throw error }
                Thread.sleep(forTimeInterval: options.retryDelay * Double(1 << min(attempt, 10)))
                attempt += 1
            }
        }
    }

    static func isTransient(_ error: SourceError) -> Bool {
        switch error {
        case .httpStatus(_, let status): return status >= 500
        case .httpFailed: return true
        default: return false
        }
    }

    private func store(_ url: String, _ body: [UInt8]?) {
        let size = (body?.count ?? 0) + url.utf8.count
        guard size <= options.cacheBytes / HTTPClient.maxCachedShare else { return }
        lock.lock(); defer { lock.unlock() }
        guard cache.updateValue(body, forKey: url) == nil else { return }
        cacheOrder.append(url)
        cachedBytes += size
        // Oldest first out until the cache fits.
        while cachedBytes > options.cacheBytes, cacheOrderStart < cacheOrder.count {
            let old = cacheOrder[cacheOrderStart]
            cacheOrderStart += 1
            if let removed = cache.removeValue(forKey: old) { cachedBytes -= (removed?.count ?? 0) + old.utf8.count }
        }
        if cacheOrderStart > 1024, cacheOrderStart * 2 > cacheOrder.count {
            cacheOrder.removeFirst(cacheOrderStart)
            cacheOrderStart = 0
        }
    }

    private func takeHandle() throws -> UnsafeMutableRawPointer {
        lock.lock()
        if let h = idle.popLast() { lock.unlock(); curl_easy_reset(h); return h }
        lock.unlock()
        guard HTTPClient.globalInit, let h = curl_easy_init() else {
            throw SourceError.httpFailed(url: "", reason: "libcurl could not be initialized")
        }
        return h
    }

    private func returnHandle(_ h: UnsafeMutableRawPointer) {
        lock.lock()
        if idle.count < HTTPClient.maxIdleHandles { idle.append(h); lock.unlock(); return }
        lock.unlock()
        curl_easy_cleanup(h)
    }

    private func fetchOnce(_ url: String) throws -> [UInt8]? {
        let handle: UnsafeMutableRawPointer
        do { handle = try takeHandle() } catch { throw SourceError.httpFailed(url: url, reason: "libcurl could not be initialized") }
        defer { returnHandle(handle) }
        let sink = ResponseSink(limit: options.maxBytes)
        var status = CURLE_OK
        let setup: [CURLcode] = [
            glsnap_curl_set_string(handle, CURLOPT_URL, url),
            glsnap_curl_set_long(handle, CURLOPT_NOSIGNAL, 1),
            glsnap_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
            glsnap_curl_set_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
            glsnap_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 1),
            glsnap_curl_set_long(handle, CURLOPT_MAXREDIRS, max(0, options.maxRedirects)),
            glsnap_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, HTTPClient.milliseconds(options.connectTimeout)),
            glsnap_curl_set_long(handle, CURLOPT_TIMEOUT_MS, HTTPClient.milliseconds(options.totalTimeout)),
            glsnap_curl_set_offset(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(options.maxBytes)),
            glsnap_curl_set_string(handle, CURLOPT_ACCEPT_ENCODING, ""),
            glsnap_curl_set_string(handle, CURLOPT_USERAGENT, "glsnap"),
            glsnap_curl_set_write_function(handle, responseSinkWrite),
            glsnap_curl_set_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(sink).toOpaque()),
        ]
        if let bad = setup.first(where: { $0 != CURLE_OK }) {
            throw SourceError.httpFailed(url: url, reason: String(cString: curl_easy_strerror(bad)))
        }
        withExtendedLifetime(sink) { status = curl_easy_perform(handle) }
        switch status {
        case CURLE_OK: break
        case CURLE_OPERATION_TIMEDOUT:
            throw SourceError.httpTimeout(url: url, seconds: options.totalTimeout)
        case CURLE_FILESIZE_EXCEEDED:
            throw SourceError.responseTooLarge(url: url, limit: options.maxBytes)
        case CURLE_WRITE_ERROR where sink.overLimit:
            throw SourceError.responseTooLarge(url: url, limit: options.maxBytes)
        case CURLE_TOO_MANY_REDIRECTS:
            throw SourceError.httpFailed(url: url, reason: "more than \(options.maxRedirects) redirects")
        default:
            throw SourceError.httpFailed(url: url, reason: String(cString: curl_easy_strerror(status)))
        }
        var code = 0
        _ = glsnap_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &code)
        switch code {
        case 200..<300: return sink.bytes
        case 404, 410: return nil
        default: throw SourceError.httpStatus(url: url, status: code)
        }
    }

    static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }  // 0: libcurl's own default
        return Int(min(seconds * 1000, 86_400_000).rounded(.up))
    }
}

/// Collects a response body, refusing bytes past the limit.
final class ResponseSink {
    var bytes: [UInt8] = []
    let limit: Int
    var overLimit = false
    init(limit: Int) { self.limit = limit }
}

/// libcurl's write callback: appends to the `ResponseSink` in `user`; returning less than
/// offered aborts the transfer (CURLE_WRITE_ERROR).
private let responseSinkWrite: glsnap_curl_write_fn = { data, size, count, user in
    guard let data, let user else { return 0 }
    let sink = Unmanaged<ResponseSink>.fromOpaque(user).takeUnretainedValue()
    let n = size &* count
    guard n <= sink.limit - sink.bytes.count else { sink.overLimit = true; return 0 }
    data.withMemoryRebound(to: UInt8.self, capacity: n) { sink.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: n)) }
    return n
}
