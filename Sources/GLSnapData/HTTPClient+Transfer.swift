import CCurl
import Foundation

/// One transfer's outcome: a body (nil for "not found"), or "not modified" after a conditional request.
struct HTTPAnswer {
    var body: [UInt8]?
    var notModified: Bool
    var headers: HTTPCacheHeaders
}

extension HTTPClient {
    func takeHandle() throws -> UnsafeMutableRawPointer {
        lock.lock()
        if let h = idle.popLast() { lock.unlock(); curl_easy_reset(h); return h }
        lock.unlock()
        guard HTTPClient.globalInit, let h = curl_easy_init() else {
            throw SourceError.httpFailed(url: "", reason: "libcurl could not be initialized")
        }
        return h
    }

    func returnHandle(_ h: UnsafeMutableRawPointer) {
        lock.lock()
        if idle.count < HTTPClient.maxIdleHandles { idle.append(h); lock.unlock(); return }
        lock.unlock()
        curl_easy_cleanup(h)
    }

    /// One request (with `conditional` headers such as If-None-Match) and its answer; throws for
    /// a failed transfer or a status that is neither success, "not found" nor "not modified".
    func fetchOnce(_ url: String, conditional: [String] = []) throws -> HTTPAnswer {
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
        var requestHeaders: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(requestHeaders) }
        for header in conditional { requestHeaders = curl_slist_append(requestHeaders, header) ?? requestHeaders }
        var setupStatus = setup.first(where: { $0 != CURLE_OK })
        if let requestHeaders, setupStatus == nil {
            let s = glsnap_curl_set_pointer(handle, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(requestHeaders))
            if s != CURLE_OK { setupStatus = s }
        }
        if let bad = setupStatus {
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
        let headers = HTTPCacheHeaders(cacheControl: HTTPClient.header(handle, "Cache-Control"),
                                       expires: HTTPClient.header(handle, "Expires"), date: HTTPClient.header(handle, "Date"),
                                       age: HTTPClient.header(handle, "Age"), etag: HTTPClient.header(handle, "ETag"),
                                       lastModified: HTTPClient.header(handle, "Last-Modified"))
        switch code {
        case 200..<300: return HTTPAnswer(body: sink.bytes, notModified: false, headers: headers)
        case 304 where !conditional.isEmpty: return HTTPAnswer(body: nil, notModified: true, headers: headers)
        case 404, 410: return HTTPAnswer(body: nil, notModified: false, headers: headers)
        default: throw SourceError.httpStatus(url: url, status: code)
        }
    }

    /// The value of response header `name` of the last request (after redirects); several
    /// headers of that name are joined with ", ".
    static func header(_ handle: UnsafeMutableRawPointer, _ name: String) -> String? {
        var values: [String] = []
        var index = 0
        while true {
            var found: UnsafeMutablePointer<curl_header>?
            guard curl_easy_header(handle, name, index, 1 /* CURLH_HEADER */, -1, &found) == CURLHE_OK,
                  let value = found?.pointee.value else { break }
            values.append(String(cString: value))
            index += 1
            guard let amount = found?.pointee.amount, index < min(amount, 64) else { break }
        }
        return values.isEmpty ? nil : values.joined(separator: ", ")
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
