import Foundation

/// `glsnap serve`: the map service on HTTP.
///
///     let server = try MapServer(config: try ServerConfig.load(path: "config.json"))
///     try server.start()          // listening on config.bind:config.port (0: a free port, see `port`)
///     ...
///     try server.reload(config: newConfig)   // SIGHUP: new styles and data, no request dropped
///     server.shutdown()           // stop accepting, finish requests in progress, stop
public final class MapServer: @unchecked Sendable {
    /// The service answering new requests (a reload replaces it).
    public var service: MapService { daemon.service }
    private let daemon: HTTPDaemon
    /// The `--metrics` listener, when `config.metricsPort` is set.
    private let metricsDaemon: HTTPDaemon?
    private let log: @Sendable (String) -> Void
    private let lock = NSLock()
    /// Services replaced by a reload, held weakly: a request still running holds its own.
    private var retired: [Weak] = []
    private struct Weak { weak var service: MapService? }

    /// Loads every style; `log` receives a line per refused or failed request.
    public init(config: ServerConfig, log: @escaping @Sendable (String) -> Void = { _ in }) throws {
        let service = try MapService(config: config, log: log)
        self.log = log
        daemon = HTTPDaemon(service: service)
        metricsDaemon = config.metricsPort.map { HTTPDaemon(service: service, port: $0, metricsOnly: true) }
    }

    /// The port listened on (after `start`).
    public var port: Int { daemon.port }
    /// The metrics listener's port (after `start`), nil without one.
    public var metricsPort: Int? { metricsDaemon?.port }

    public func start() throws {
        try daemon.start()
        service.publicBase = MapService.base(config: service.config, port: daemon.port)
        service.listeningPort = daemon.port
        do { try metricsDaemon?.start() } catch {
            daemon.stop()
            throw error
        }
    }

    /// Loads `config` (styles, data, fonts, limits; not the listening address, port or connection
    /// settings, which stay as started) into a new service and answers new requests with it;
    /// requests in progress finish on the old one. A configuration that cannot be loaded throws
    /// and leaves the running service as it was.
    public func reload(config: ServerConfig) throws {
        let old = service
        var c = config
        c.bind = old.config.bind
        c.port = old.config.port
        c.metricsPort = old.config.metricsPort
        let fresh = try MapService(config: c, metrics: old.metrics, log: log)
        fresh.publicBase = MapService.base(config: c, port: daemon.port)
        fresh.listeningPort = daemon.port
        lock.lock()
        retired = retired.filter { $0.service != nil } + [Weak(service: old)]
        daemon.replace(fresh)
        metricsDaemon?.replace(fresh)
        lock.unlock()
    }

    /// Graceful stop: no new connections, requests in progress finish (up to `grace` seconds),
    /// then every connection closes.
    public func shutdown(grace: Double = 30) {
        daemon.quiesce()
        let deadline = Date().addingTimeInterval(grace)
        func busy() -> Bool {
            lock.lock(); defer { lock.unlock() }
            return service.inFlight > 0 || retired.contains { ($0.service?.inFlight ?? 0) > 0 }
        }
        while busy() && Date() < deadline { usleep(10_000) }
        daemon.stop()
        metricsDaemon?.stop()
        // Render workers end in order, so the process may exit right after (see Snapshotter.close).
        lock.lock()
        let services = [service] + retired.compactMap(\.service)
        lock.unlock()
        services.forEach { $0.styles.values.forEach { $0.snapshotter.close() } }
    }
}
