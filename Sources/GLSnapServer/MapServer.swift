import Foundation

/// `glsnap serve`: the map service on HTTP.
///
///     let server = try MapServer(config: try ServerConfig.load(path: "config.json"))
///     try server.start()          // listening on config.bind:config.port (0: a free port, see `port`)
///     ...
///     server.shutdown()           // stop accepting, finish requests in progress, stop
public final class MapServer: @unchecked Sendable {
    public let service: MapService
    private let daemon: HTTPDaemon

    /// Loads every style; `log` receives a line per refused or failed request.
    public init(config: ServerConfig, log: @escaping @Sendable (String) -> Void = { _ in }) throws {
        service = try MapService(config: config, log: log)
        daemon = HTTPDaemon(service: service)
    }

    /// The port listened on (after `start`).
    public var port: Int { daemon.port }

    public func start() throws {
        try daemon.start()
        service.publicBase = MapService.base(config: service.config, port: daemon.port)
    }

    /// Graceful stop: no new connections, requests in progress finish (up to `grace` seconds),
    /// then every connection closes.
    public func shutdown(grace: Double = 30) {
        daemon.quiesce()
        let deadline = Date().addingTimeInterval(grace)
        while service.inFlight > 0 && Date() < deadline { usleep(10_000) }
        daemon.stop()
        // Render workers end in order, so the process may exit right after (see Snapshotter.close).
        service.styles.values.forEach { $0.snapshotter.close() }
    }
}
