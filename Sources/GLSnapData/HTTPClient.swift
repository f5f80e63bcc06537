import CCurl
import Foundation

/// Limits, timeouts and caches of HTTP(S) fetches.
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
    /// The most transfers in progress at once (default 8); more requests wait for a free one.
    public var maxConnections: Int
    /// An SQLite file that keeps responses between runs (created with its folder when missing);
    /// nil (the default) keeps them in memory only. A file that is not a usable cache is
    /// deleted and made anew, with a warning in `HTTPClient.warnings`.
    public var diskCachePath: String?
    /// The most bytes the disk cache holds; the least recently used responses go first (default 512 MiB).
    public var diskCacheBytes: Int

    public init(connectTimeout: Double = 10, totalTimeout: Double = 30, maxBytes: Int = DataLimits.maxResourceBytes,
                maxRedirects: Int = 5, retries: Int = 2, retryDelay: Double = 0.25, cacheBytes: Int = 32 << 20,
                maxConnections: Int = 8, diskCachePath: String? = nil, diskCacheBytes: Int = 512 << 20) {
        self.connectTimeout = connectTimeout; self.totalTimeout = totalTimeout; self.maxBytes = maxBytes
        self.maxRedirects = maxRedirects; self.retries = retries; self.retryDelay = retryDelay; self.cacheBytes = cacheBytes
        self.maxConnections = maxConnections; self.diskCachePath = diskCachePath; self.diskCacheBytes = diskCacheBytes
    }
}

/// Fetches `http://` and `https://` resources through libcurl. Thread-safe: each request takes an
/// easy handle from a small pool (connections are kept alive between requests of one handle),
/// and at most `options.maxConnections` transfers run at once.
///
/// Responses (bodies and "not found" answers) are kept in a bounded in-memory cache, and in the
/// disk cache when `options.diskCachePath` is set, as their headers allow: `Cache-Control:
/// no-store` is never kept; `max-age` (or `Expires`) says how long a response is used without
/// asking the server; `no-cache` or an expired one is revalidated with `If-None-Match` /
/// `If-Modified-Since` when it has an `ETag` / `Last-Modified`, and a 304 reuses the kept body.
/// A response without any of these headers stays fresh (as in MapLibre Native).
public final class HTTPClient: @unchecked Sendable {
    public let options: HTTPOptions
    /// The client every resolver uses unless given another.
    public static let shared = HTTPClient()

    let lock = NSLock()
    // Guarded by `lock`.
    var idle: [UnsafeMutableRawPointer] = []
    private var cache: [String: CachedResponse] = [:]
    private var cacheOrder: [String] = []
    private var cacheOrderStart = 0
    private var cachedBytes = 0
    /// Free transfer slots (`options.maxConnections`).
    private let connections: DispatchSemaphore
    private let disk: HTTPDiskCache?
    /// Idle handles kept for reuse.
    static let maxIdleHandles = 8
    /// Responses above this share of the cache are not cached.
    static let maxCachedShare = 8

    static let globalInit: Bool = curl_global_init(3) == CURLE_OK  // CURL_GLOBAL_ALL

    public init(options: HTTPOptions = HTTPOptions()) {
        self.options = options
        connections = DispatchSemaphore(value: max(1, options.maxConnections))
        disk = options.diskCachePath.map { HTTPDiskCache(path: $0, budget: options.diskCacheBytes) }
    }

    deinit { idle.forEach { curl_easy_cleanup($0) } }

    /// Problems of the disk cache (a corrupt file that was reset, a cache turned off); fetches
    /// go on without it.
    public var warnings: [String] { disk?.warnings ?? [] }

    /// Whether `url` is fetched by this client (an `http://` or `https://` URL).
    public static func handles(_ url: String) -> Bool {
        let lower = url.prefix(8).lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// The body of `url`, or nil for 404 and 410 (a missing resource). Throws `SourceError`
    /// (`httpStatus`, `httpTimeout`, `httpFailed`, `responseTooLarge`) naming the URL otherwise.
    public func fetch(_ url: String) throws -> [UInt8]? {
        var kept = memoryLookup(url)
        if kept == nil, let disk, let found = disk.lookup(url) {
            kept = found
            remember(url, found)
        }
        let now = Date().timeIntervalSince1970
        if let kept, kept.isFresh(at: now) { return kept.body }
        let validating = kept.flatMap { $0.canRevalidate ? $0 : nil }
        var attempt = 0
        while true {
            do {
                let answer = try withConnection { try fetchOnce(url, conditional: validating?.conditionalHeaders ?? []) }
                let received = Date().timeIntervalSince1970
                if answer.notModified, var response = validating {
                    response.revalidated(by: answer.headers, at: received)
                    remember(url, response)
                    disk?.refresh(url, response)
                    return response.body
                }
                if answer.notModified { throw SourceError.httpStatus(url: url, status: 304) }
                let response = CachedResponse(body: answer.body, headers: answer.headers, fetched: received)
                if answer.headers.noStore {
                    forget(url)
                    disk?.remove(url)
                } else {
                    remember(url, response)
                    disk?.store(url, response)
                }
                return response.body
            } catch let error as SourceError {
                guard attempt < options.retries, HTTPClient.isTransient(error) else { throw error }
                Thread.sleep(forTimeInterval: options.retryDelay * Double(1 << min(attempt, 10)))
                attempt += 1
            }
        }
    }

    /// Runs a transfer in one of the `maxConnections` slots (waiting for a free one).
    private func withConnection<T>(_ body: () throws -> T) rethrows -> T {
        connections.wait()
        defer { connections.signal() }
        return try body()
    }

    static func isTransient(_ error: SourceError) -> Bool {
        switch error {
        case .httpStatus(_, let status): return status >= 500
        case .httpFailed: return true
        default: return false
        }
    }

    // MARK: - In-memory cache

    private func memoryLookup(_ url: String) -> CachedResponse? {
        lock.lock(); defer { lock.unlock() }
        return cache[url]
    }

    private func forget(_ url: String) {
        lock.lock(); defer { lock.unlock() }
        if let removed = cache.removeValue(forKey: url) { cachedBytes -= removed.cost(url: url) }
    }

    /// Keeps `response` (replacing what was kept for `url`), oldest out first past `cacheBytes`.
    private func remember(_ url: String, _ response: CachedResponse) {
        let size = response.cost(url: url)
        guard size <= options.cacheBytes / HTTPClient.maxCachedShare else { forget(url); return }
        lock.lock(); defer { lock.unlock() }
        if let old = cache.updateValue(response, forKey: url) {
            cachedBytes += size - old.cost(url: url)
        } else {
            cacheOrder.append(url)
            cachedBytes += size
        }
        while cachedBytes > options.cacheBytes, cacheOrderStart < cacheOrder.count {
            let old = cacheOrder[cacheOrderStart]
            cacheOrderStart += 1
            if let removed = cache.removeValue(forKey: old) { cachedBytes -= removed.cost(url: old) }
        }
        if cacheOrderStart > 1024, cacheOrderStart * 2 > cacheOrder.count {
            cacheOrder.removeFirst(cacheOrderStart)
            cacheOrderStart = 0
        }
    }
}
