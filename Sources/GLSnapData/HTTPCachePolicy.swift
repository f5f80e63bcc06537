import CCurl
import Foundation

/// What a response's headers say about keeping and reusing it (RFC 9111, the parts a map
/// client needs): `Cache-Control` `max-age`, `no-store` and `no-cache`, `Expires`, `Age`, and
/// the validators `ETag` and `Last-Modified`.
struct HTTPCacheHeaders: Equatable, Sendable {
    /// Seconds the response stays fresh after it was received; nil when the headers say nothing.
    var lifetime: Double?
    /// `no-store`: the response must not be kept at all.
    var noStore = false
    var etag: String?
    var lastModified: String?

    /// Longest validator kept (a longer one is ignored: it is sent back in a request header).
    static let maxValidatorLength = 1024

    /// Reads the headers. `cacheControl` may join several `Cache-Control` headers with commas;
    /// `expires` and `date` are HTTP dates, turned into seconds by `parseDate`.
    init(cacheControl: String?, expires: String?, date: String?, age: String?, etag: String?, lastModified: String?,
         parseDate: (String) -> Double? = HTTPCacheHeaders.parseDate) {
        var maxAge: Double?
        var noCache = false
        for directive in (cacheControl ?? "").split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1)
            let name = parts.first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            let value = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : ""
            switch name {
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "max-age":
                // A malformed max-age makes the response stale (RFC 9111 4.2.1).
                maxAge = Double(value).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } ?? 0
            default: break
            }
        }
        let ageSeconds = age.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }.map { max(0, $0) } ?? 0
        if noCache {
            lifetime = 0
        } else if let maxAge {
            lifetime = max(0, maxAge - ageSeconds)
        } else if let expires {
            // An invalid date ("0", "-1") means "already expired".
            let end = parseDate(expires) ?? 0
            let start = date.flatMap(parseDate) ?? Date().timeIntervalSince1970
            lifetime = max(0, end - start - ageSeconds)
        }
        self.etag = HTTPCacheHeaders.validator(etag)
        self.lastModified = HTTPCacheHeaders.validator(lastModified)
    }

    private static func validator(_ value: String?) -> String? {
        guard let v = value?.trimmingCharacters(in: .whitespaces), !v.isEmpty, v.utf8.count <= maxValidatorLength,
              !v.contains(where: { $0 == "\r" || $0 == "\n" }) else { return nil }
        return v
    }

    /// Seconds since 1970 of an HTTP date ("Wed, 21 Oct 2015 07:28:00 GMT" and the older forms).
    static func parseDate(_ text: String) -> Double? {
        let t = curl_getdate(text, nil)
        return t < 0 ? nil : Double(t)
    }
}

/// A response kept in a cache: its body (nil for "not found"), when it was received, how long
/// it stays fresh, and the validators to ask the server whether it changed.
struct CachedResponse: Equatable, Sendable {
    var body: [UInt8]?
    var etag: String?
    var lastModified: String?
    /// Seconds since 1970 when the response was received (or last confirmed unchanged).
    var fetched: Double
    /// Seconds it stays fresh after `fetched`; nil when the server said nothing, which keeps
    /// the response fresh (as MapLibre Native does for responses without an expiry).
    var lifetime: Double?

    init(body: [UInt8]?, headers: HTTPCacheHeaders, fetched: Double) {
        self.body = body; etag = headers.etag; lastModified = headers.lastModified
        self.fetched = fetched; lifetime = headers.lifetime
    }

    init(body: [UInt8]?, etag: String?, lastModified: String?, fetched: Double, lifetime: Double?) {
        self.body = body; self.etag = etag; self.lastModified = lastModified; self.fetched = fetched; self.lifetime = lifetime
    }

    func isFresh(at now: Double) -> Bool {
        guard let lifetime else { return true }
        return now < fetched + lifetime
    }

    /// Whether a conditional request can confirm it (it has a validator).
    var canRevalidate: Bool { etag != nil || lastModified != nil }

    /// The request headers of a conditional request.
    var conditionalHeaders: [String] {
        var out: [String] = []
        if let etag { out.append("If-None-Match: \(etag)") }
        if let lastModified { out.append("If-Modified-Since: \(lastModified)") }
        return out
    }

    /// After a 304: fresh again from `now`, with the lifetime and validators the 304 gives
    /// (the stored ones where it gives none).
    mutating func revalidated(by headers: HTTPCacheHeaders, at now: Double) {
        fetched = now
        if let l = headers.lifetime { lifetime = l }
        if let e = headers.etag { etag = e }
        if let m = headers.lastModified { lastModified = m }
    }

    /// Bytes it takes in a cache, with its key.
    func cost(url: String) -> Int {
        (body?.count ?? 0) + url.utf8.count + (etag?.utf8.count ?? 0) + (lastModified?.utf8.count ?? 0) + 64
    }
}
