import Foundation

/// Counters for `/metrics`, in Prometheus' text format.
final class ServerMetrics: @unchecked Sendable {
    static let buckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
    private let lock = NSLock()
    private var byStatus: [Int: Int] = [:]
    private var bucketCounts = [Int](repeating: 0, count: ServerMetrics.buckets.count)
    private var latencySum = 0.0
    private var latencyCount = 0
    private(set) var renders = 0
    private(set) var renderErrors = 0
    private(set) var notModified = 0
    /// tileserver-gl's series: requests by method, route and status; tiles served by type and name.
    private var byRoute: [String: Int] = [:]
    private var served: [String: Int] = [:]

    func record(status: Int, seconds: Double) {
        lock.lock()
        byStatus[status, default: 0] += 1
        for (i, b) in ServerMetrics.buckets.enumerated() where seconds <= b { bucketCounts[i] += 1 }
        latencySum += seconds
        latencyCount += 1
        if status == 304 { notModified += 1 }
        lock.unlock()
    }

    /// One request for tileserver-gl's `tileserver_http_requests_total` (labels already escaped).
    func record(method: String, route: String, status: Int) {
        let key = "method=\"\(method)\",route=\"\(route)\",status_code=\"\(status)\""
        lock.lock(); byRoute[key, default: 0] += 1; lock.unlock()
    }

    /// One tile, image, style or glyph range served, for `tileserver_tiles_served_total`.
    func recordServed(type: String, name: String) {
        let key = "type=\"\(type)\",name=\"\(ServerMetrics.label(name))\""
        lock.lock(); served[key, default: 0] += 1; lock.unlock()
    }

    /// A Prometheus label value: backslash, quote and newline escaped, at most 128 bytes.
    static func label(_ s: String) -> String {
        var out = ""
        for c in s.prefix(128) {
            switch c {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(c)
            }
        }
        return out
    }

    func recordRender(ok: Bool) {
        lock.lock()
        if ok { renders += 1 } else { renderErrors += 1 }
        lock.unlock()
    }

    /// Requests answered with `status` so far.
    func count(status: Int) -> Int {
        lock.lock(); defer { lock.unlock() }
        return byStatus[status, default: 0]
    }

    func text(queue: (waiting: Int, rendering: Int), inFlight: Int, styles: [String] = [], workers: Int = 0) -> String {
        var s = glsnapText(queue: queue, inFlight: inFlight)
        lock.lock(); defer { lock.unlock() }
        // tileserver-gl's names, for its dashboards. The render pool is shared by every style here:
        // each style reports the whole pool.
        s += "# HELP tileserver_http_requests_total Total number of HTTP requests\n# TYPE tileserver_http_requests_total counter\n"
        for key in byRoute.keys.sorted() { s += "tileserver_http_requests_total{\(key)} \(byRoute[key] ?? 0)\n" }
        s += "# HELP tileserver_tiles_served_total Total number of tiles served\n# TYPE tileserver_tiles_served_total counter\n"
        for key in served.keys.sorted() { s += "tileserver_tiles_served_total{\(key)} \(served[key] ?? 0)\n" }
        s += "# HELP tileserver_tile_errors_total Total number of tile errors\n# TYPE tileserver_tile_errors_total counter\n"
        s += "tileserver_tile_errors_total{type=\"rendered\",name=\"all\"} \(renderErrors)\n"
        for (metric, help, value) in [("tileserver_render_pool_size", "Total objects in render pool", workers),
                                      ("tileserver_render_pool_active", "Active (borrowed) objects in render pool", queue.rendering),
                                      ("tileserver_render_pool_waiting", "Clients waiting for a render pool object", queue.waiting)] {
            s += "# HELP \(metric) \(help)\n# TYPE \(metric) gauge\n"
            for id in styles { s += "\(metric){name=\"\(ServerMetrics.label(id))\"} \(value)\n" }
        }
        return s
    }

    private func glsnapText(queue: (waiting: Int, rendering: Int), inFlight: Int) -> String {
        lock.lock(); defer { lock.unlock() }
        var s = "# HELP glsnap_http_requests_total HTTP requests answered, by status code.\n"
        s += "# TYPE glsnap_http_requests_total counter\n"
        for code in byStatus.keys.sorted() { s += "glsnap_http_requests_total{code=\"\(code)\"} \(byStatus[code] ?? 0)\n" }
        s += "# HELP glsnap_http_request_duration_seconds Time from request to response.\n"
        s += "# TYPE glsnap_http_request_duration_seconds histogram\n"
        for (i, b) in ServerMetrics.buckets.enumerated() {
            s += "glsnap_http_request_duration_seconds_bucket{le=\"\(b)\"} \(bucketCounts[i])\n"
        }
        s += "glsnap_http_request_duration_seconds_bucket{le=\"+Inf\"} \(latencyCount)\n"
        s += "glsnap_http_request_duration_seconds_sum \(latencySum)\n"
        s += "glsnap_http_request_duration_seconds_count \(latencyCount)\n"
        s += "# HELP glsnap_renders_total Images rendered.\n# TYPE glsnap_renders_total counter\nglsnap_renders_total \(renders)\n"
        s += "# HELP glsnap_render_errors_total Renders that failed.\n# TYPE glsnap_render_errors_total counter\n"
        s += "glsnap_render_errors_total \(renderErrors)\n"
        s += "# HELP glsnap_cache_hits_total Requests answered 304 from their ETag without rendering.\n"
        s += "# TYPE glsnap_cache_hits_total counter\nglsnap_cache_hits_total \(notModified)\n"
        s += "# HELP glsnap_queue_depth Requests waiting for a render worker.\n# TYPE glsnap_queue_depth gauge\n"
        s += "glsnap_queue_depth \(queue.waiting)\n"
        s += "# HELP glsnap_renders_in_progress Requests holding a render worker.\n# TYPE glsnap_renders_in_progress gauge\n"
        s += "glsnap_renders_in_progress \(queue.rendering)\n"
        s += "# HELP glsnap_http_requests_in_flight Requests being handled.\n# TYPE glsnap_http_requests_in_flight gauge\n"
        s += "glsnap_http_requests_in_flight \(inFlight)\n"
        return s
    }
}
