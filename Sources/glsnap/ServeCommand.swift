import Foundation
import GLSnapServer

/// `glsnap serve`: parses options, starts `MapServer`, reloads its configuration on SIGHUP, stops it
/// gracefully on SIGTERM or SIGINT.
enum ServeCommand {
    static let help = """
    usage: glsnap serve (--config CONFIG.json | STYLE.json) [--port N] [--bind ADDRESS] [--workers N]
                        [--queue N] [--timeout SECONDS] [--connection-timeout SECONDS]
                        [--header-timeout SECONDS] [--max-connections N]
                        [--max-connections-per-address N] [--public-url URL] [--cache-control VALUE]
                        [--threads per-connection|N] [--llvmpipe-threads N] [--metrics PORT]
                        [--no-cors] [--maplibre FOLDER] [--strict] [--quiet]

    Serves static maps, raster tiles, TileJSON and styles over HTTP (tileserver-gl's endpoints).
    --config reads a tileserver-gl configuration file; a single STYLE.json is served with the id of
    its file name. Defaults: port 8080, bind 127.0.0.1, 2 workers, queue 64 (past it: 503),
    timeout 30 s (past it: 504), connection (idle) timeout 10 s, header timeout 10 s (the whole request
    head, however slowly it trickles in), 512 connections, 128 per client address (0: no cap), one
    thread per connection. URLs in styles and TileJSON start with --public-url (e.g.
    https://maps.example.com/), else http://BIND:PORT (server-relative when bound to 0.0.0.0); the
    Host header is not trusted. CORS headers (Access-Control-Allow-Origin: *) are sent unless
    --no-cors. --metrics PORT also serves /metrics on a port of its own. --maplibre FOLDER (holding
    maplibre-gl.js and .css) serves map viewers at /styles/ID/ and /data/ID/. SIGHUP reloads the
    configuration (styles, data, fonts; not the address, port or connection settings): requests in
    progress finish, none is dropped; one that cannot load is logged and the old one kept.
    Each worker has a copy of Mesa of its own; --llvmpipe-threads sets Mesa's rasterizer threads per
    copy (default: the cores divided among the workers, 0 when that is one or less). A style value
    glsnap cannot use is left out, as MapLibre does, with a warning logged by the first render;
    --strict refuses such a style instead.
    """

    static func run(_ argv: [String]) throws -> Int32 {
        let a = try Arguments(argv, valued: ["--config", "--port", "--bind", "--workers", "--queue", "--timeout",
                                             "--connection-timeout", "--max-connections", "--cache-control", "--threads",
                                             "--llvmpipe-threads", "--header-timeout", "--max-connections-per-address",
                                             "--public-url", "--metrics", "--maplibre"],
                              flags: ["--help", "-h", "--quiet", "--no-cors", "--strict"])
        if a.flags.contains("--help") || a.flags.contains("-h") {
            print(help)
            return 0
        }
        let config = try makeConfig(a)
        let quiet = a.flags.contains("--quiet")
        let log: @Sendable (String) -> Void = { line in
            if !quiet { FileHandle.standardError.write(Data("glsnap serve: \(line)\n".utf8)) }
        }
        let server = try MapServer(config: config, log: log)
        signal(SIGPIPE, SIG_IGN)
        try server.start()
        print("glsnap serve: \(config.styles.count) style(s) on http://\(config.bind):\(server.port)/ with \(config.workers) workers"
              + (server.metricsPort.map { ", metrics on port \($0)" } ?? ""))
        fflush(stdout)
        let stop = DispatchSemaphore(value: 0)
        var sources: [DispatchSourceSignal] = []
        for sig in [SIGTERM, SIGINT] {
            signal(sig, SIG_IGN)
            let s = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            s.setEventHandler { stop.signal() }
            s.resume()
            sources.append(s)
        }
        // SIGHUP: read the configuration again, with the same command-line options, one reload at a time.
        signal(SIGHUP, SIG_IGN)
        let hup = DispatchSource.makeSignalSource(signal: SIGHUP, queue: DispatchQueue(label: "glsnap.reload"))
        hup.setEventHandler {
            do {
                try server.reload(config: try makeConfig(a))
                print("glsnap serve: configuration reloaded (\(server.service.config.styles.count) style(s))")
                fflush(stdout)
            } catch {
                log("reload failed, the previous configuration stays: \(error)")
            }
        }
        hup.resume()
        sources.append(hup)
        stop.wait()
        print("glsnap serve: stopping (finishing requests in progress)")
        server.shutdown()
        return 0
    }

    /// The configuration from the file (or style) and the command-line options.
    static func makeConfig(_ a: Arguments) throws -> ServerConfig {
        var config: ServerConfig
        if let file = a.options["--config"] {
            guard a.positionals.isEmpty else { throw UsageError("give --config or a style file, not both") }
            config = try ServerConfig.load(path: file)
        } else if a.positionals.count == 1 {
            config = try ServerConfig.singleStyle(path: a.positionals[0])
        } else {
            throw UsageError("give --config CONFIG.json or one STYLE.json")
        }
        func int(_ name: String, _ range: ClosedRange<Int>) throws -> Int? {
            guard let v = a.options[name] else { return nil }
            guard let n = Int(v), range.contains(n) else { throw UsageError("\(name) must be \(range.lowerBound)-\(range.upperBound)") }
            return n
        }
        config.port = try int("--port", 0...65535) ?? config.port
        config.bind = a.options["--bind"] ?? config.bind
        config.workers = try int("--workers", 1...64) ?? config.workers
        config.queue = try int("--queue", 0...100_000) ?? config.queue
        config.requestTimeout = Double(try int("--timeout", 1...3600) ?? Int(config.requestTimeout))
        config.connectionTimeout = try int("--connection-timeout", 1...3600) ?? config.connectionTimeout
        config.connectionLimit = try int("--max-connections", 1...100_000) ?? config.connectionLimit
        config.connectionsPerAddress = try int("--max-connections-per-address", 0...100_000) ?? config.connectionsPerAddress
        if let v = a.options["--header-timeout"] {
            guard let t = Double(v), t.isFinite, (0.1...3600).contains(t) else { throw UsageError("--header-timeout must be 0.1-3600 seconds") }
            config.headerTimeout = t
        }
        if let url = a.options["--public-url"] {
            guard url.hasPrefix("http://") || url.hasPrefix("https://"), url.utf8.count <= 2048,
                  url.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "\\" }) else {
                throw UsageError("--public-url must be an http:// or https:// URL (printable ASCII, no quotes or spaces)")
            }
            config.publicURL = url
        }
        config.cacheControl = a.options["--cache-control"] ?? config.cacheControl
        if let t = a.options["--threads"], t != "per-connection" {
            guard let n = Int(t), (1...1024).contains(n) else { throw UsageError("--threads must be per-connection or 1-1024") }
            config.threading = .pool(threads: n)
        }
        config.llvmpipeThreads = try int("--llvmpipe-threads", 0...256)
        config.metricsPort = try int("--metrics", 0...65535)
        if a.flags.contains("--no-cors") { config.cors = false }
        if a.flags.contains("--strict") { config.strictStyles = true }
        if let folder = a.options["--maplibre"] {
            guard FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent("maplibre-gl.js")) else {
                throw UsageError("--maplibre \(folder): no maplibre-gl.js there (e.g. pip install maplibre; use its maplibre/srcjs folder)")
            }
            config.maplibreFolder = folder
        }
        return config
    }
}
