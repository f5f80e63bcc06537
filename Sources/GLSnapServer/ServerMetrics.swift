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

    func record(status: Int, seconds: Double) {
        lock.lock()
        byStatus[status, default: 0] += 1
        for (i, b) in ServerMetrics.buckets.enumerated() where seconds <= b { bucketCounts[i] += 1 }
        latencySum += seconds
        latencyCount += 1
        if status == 304 { notModified += 1 }
        lock.unlock()
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

    func text(queue: (waiting: Int, rendering: Int), inFlight: Int) -> String {
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
