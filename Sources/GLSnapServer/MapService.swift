import Foundation
import GLSnapStyle
import GLSnap
import GLSnapData
import GLSnapImage

/// The service without the HTTP transport: a request in, a response out. Thread-safe; each call
/// runs on the caller's thread and renders through the bounded `RenderQueue`.
public final class MapService: @unchecked Sendable {
    public let config: ServerConfig
    let styles: [String: ServedStyle]
    let styleOrder: [String]
    let router: Router
    let queue: RenderQueue
    /// Kept across reloads (`MapServer.reload`), so counters do not restart.
    let metrics: ServerMetrics
    let icons: IconStore
    /// Fetches `http(s)` marker icons when `config.allowRemoteMarkerIcons`; nil: they are refused.
    let remoteIcons: HTTPClient?
    let captions: CaptionText
    let catalog: DataCatalog
    /// Escapes each line (see `logEscaped`) before handing it on.
    let log: @Sendable (String) -> Void
    private let counterLock = NSLock()
    private var inFlightCount = 0
    /// What URLs in styles, the style list and TileJSON start with: `config.publicURL` without its
    /// trailing '/', else `http://{bind}:{port}`, else "" (server-relative URLs) when bound to
    /// 0.0.0.0. The request's Host header is never used: behind a shared cache it would let one
    /// client poison the URLs every other client gets.
    var publicBase: String
    /// The port listened on (`config.port` until the server has started).
    var listeningPort: Int

    /// Loads every configured style (a style that cannot be read fails the whole service).
    /// `log` receives one line per refused or failed request.
    public convenience init(config: ServerConfig, log: @escaping @Sendable (String) -> Void = { _ in }) throws {
        try self.init(config: config, metrics: ServerMetrics(), log: log)
    }

    init(config: ServerConfig, metrics: ServerMetrics, log: @escaping @Sendable (String) -> Void) throws {
        precondition(config.workers >= 1 && config.queue >= 0, "workers must be at least 1 and queue at least 0")
        self.config = config
        self.metrics = metrics
        let catalog = DataCatalog(config: config)
        var loaded: [String: ServedStyle] = [:]
        for s in config.styles { loaded[s.id] = try ServedStyle(style: s, config: config, catalog: catalog) }
        try catalog.open()
        if !config.serveAllFonts { catalog.allowedFonts = loaded.values.reduce(into: Set<String>()) { $0.formUnion($1.fontNames) } }
        self.catalog = catalog
        styles = loaded
        styleOrder = config.styles.map(\.id)
        router = Router(maxSize: config.maxSize, maxScaleFactor: config.maxScaleFactor, pbfAlias: config.pbfAlias)
        queue = RenderQueue(slots: config.workers, maxWaiting: config.queue)
        icons = IconStore(folder: config.paths.icons)
        remoteIcons = config.allowRemoteMarkerIcons ? HTTPClient(options: Overlays.remoteIconOptions) : nil
        captions = CaptionText(catalog: catalog)
        self.log = { log(logEscaped($0)) }
        publicBase = MapService.base(config: config, port: config.port)
        listeningPort = config.port
    }

    /// Requests being handled now.
    public var inFlight: Int { counterLock.lock(); defer { counterLock.unlock() }; return inFlightCount }

    /// Answers one request. `query` holds the decoded query arguments in order (repeated keys kept).
    public func handle(method: String, path: String, query: [(key: String, value: String)] = [],
                       ifNoneMatch: String? = nil, body: RequestBodyContent? = nil) -> HTTPResponse {
        let start = DispatchTime.now().uptimeNanoseconds
        counterLock.lock(); inFlightCount += 1; counterLock.unlock()
        var response: HTTPResponse
        do {
            response = try respond(method: method, path: path, query: query, ifNoneMatch: ifNoneMatch, body: body)
        } catch let e as ServerError {
            response = .error(e)
            log("\(e.status) \(method.prefix(16)) \(path.prefix(200)): \(e)")
        } catch {
            response = .error(.renderFailed("\(error)"))
            log("500 \(method.prefix(16)) \(path.prefix(200)): \(error)")
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        metrics.record(status: response.status, seconds: seconds)
        let route = try? router.route(path)
        metrics.record(method: ["GET", "HEAD", "POST", "OPTIONS"].contains(method) ? method : "other",
                       route: route?.metricsName ?? "<unknown>", status: response.status)
        if response.status == 200, let type = route?.servedType(path: path) {
            metrics.recordServed(type: type.type, name: type.name)
        }
        if config.cors { response.headers.append(("Access-Control-Allow-Origin", "*")) }
        counterLock.lock(); inFlightCount -= 1; counterLock.unlock()
        return response
    }

    private func respond(method: String, path: String, query: [(key: String, value: String)],
                         ifNoneMatch: String?, body: RequestBodyContent?) throws -> HTTPResponse {
        if method == "OPTIONS" && config.cors {
            // A CORS preflight, as tileserver-gl's cors() answers it.
            return HTTPResponse(status: 204, headers: [("Access-Control-Allow-Methods", "GET, HEAD, POST, OPTIONS"),
                                                       ("Access-Control-Allow-Headers", "Content-Type, If-None-Match"),
                                                       ("Access-Control-Max-Age", "86400")])
        }
        guard method == "GET" || method == "HEAD" || method == "POST" else {
            throw ServerError.methodNotAllowed("method \(method.prefix(16)) is not allowed: use GET")
        }
        let base = publicBase
        let route = try router.route(path)
        var query = query
        if method == "POST" {
            if case .elevationBatch(let id) = route { return try elevationBatch(id, body: body ?? .bytes([])) }
            guard case .staticImage = route else { throw ServerError.methodNotAllowed("POST is only for static maps and batch elevations: use GET") }
            query = try StaticPOST.merge(query: query, body: body ?? .bytes([]), limit: config.maxRequestBody)
        }
        try checkServed(route)
        switch route {
        case .index:
            switch config.frontPage {
            case .builtIn: return .text(indexPage(), type: "text/html; charset=utf-8")
            case .none: throw ServerError.notFound("there is no front page (frontPage: false)")
            case .file(let file): return try frontPageFile(file)
            }
        case .health: return .text("OK")
        case .metrics:
            return metricsResponse()
        case .stylesList:
            let items = styleOrder.compactMap { styles[$0] }.map { s in
                "{\"version\": 8, \"name\": \(JSON.quote(s.name)), \"id\": \(JSON.quote(s.id)), "
                    + "\"url\": \(JSON.quote("\(base)/styles/\(s.id)/style.json"))}"
            }
            return .json("[" + items.joined(separator: ", ") + "]")
        case .style(let id):
            let s = try style(id)
            return try conditional(.json(s.servedJSON(base: base)), etag: etag(s, path: path + "|" + base, query: []), ifNoneMatch: ifNoneMatch)
        case let .tileJSON(id, tileSize):
            let s = try style(id)
            return try conditional(.json(tileJSON(s, tileSize: tileSize, base: base)), etag: etag(s, path: path + "|" + base, query: []),
                                   ifNoneMatch: ifNoneMatch)
        case .tile(let t):
            let s = try style(t.id)
            let tag = etag(s, path: path, query: [])
            if matches(ifNoneMatch, tag) { return notModified(tag) }
            return try render(s, etag: tag, format: t.format, path: path) { try self.renderTile(s, t, timeLimit: $0) }
        case let .sprite(id, highDensity, json):
            return try sprite(try style(id), highDensity: highDensity, json: json)
        case let .glyphs(stack, range):
            return try glyphs(stack: stack, range: range)
        case .fontList:
            return .json("[" + catalog.fontNames().map(JSON.quote).joined(separator: ", ") + "]", extra: [("Cache-Control", config.cacheControl)])
        case .wmts(let id):
            let s = try style(id)
            return HTTPResponse(status: 200, headers: [("Content-Type", "text/xml; charset=utf-8"), ("Cache-Control", config.cacheControl)],
                                body: Array(wmtsCapabilities(s).utf8))
        case let .viewer(id, data):
            guard hasViewer else { throw ServerError.notFound("no map viewer: the service was started without --maplibre") }
            return .text(data ? try dataViewer(id) : styleViewer(try style(id)), type: "text/html; charset=utf-8")
        case .file(let segments):
            return try staticFile(segments)
        case .viewerAsset(let js):
            guard let folder = config.maplibreFolder else { throw ServerError.notFound("no map viewer: the service was started without --maplibre") }
            return try viewerAsset(folder: folder, js: js)
        case let .tileJSONList(rendered, data):
            return try tileJSONList(rendered: rendered, data: data, base: base)
        case .dataJSON(let id):
            return try dataTileJSON(id, base: base)
        case let .dataTile(id, tile, ext):
            return try dataTile(id, tile: tile, ext: ext)
        case let .elevation(id, z, x, y):
            return try elevation(id, z: z, x: x, y: y)
        case .elevationBatch:
            throw ServerError.methodNotAllowed("batch elevations are asked with POST {\"points\": [...]}: use GET /data/{id}/elevation/{z}/{lon}/{lat} for one")
        case .staticImage(let r):
            let s = try style(r.id)
            var overlays = try Overlays.parse(query, limits: .init(maxPoints: config.maxOverlayPoints, maxPaths: config.maxPaths,
                                                                   maxMarkers: config.maxMarkers, inlineMarkers: config.allowInlineMarkerImages,
                                                                   remoteIcons: remoteIcons),
                                              raw: r.raw)
            let mapbox = try r.overlay.map(MapboxOverlay.parse) ?? (pins: [], geoJSON: [])
            guard overlays.markers.count + mapbox.pins.count <= config.maxMarkers else {
                throw ServerError.badRequest("more than \(config.maxMarkers) markers and pins")
            }
            overlays.pins = mapbox.pins
            let edits = try StaticStyleEdits.parse(query, overlayGeoJSON: mapbox.geoJSON, maxLayers: config.maxAddedLayers)
            let attribution = try StaticStyleEdits.flag(query, "attribution") ?? true
            // glsnap draws no logo: `logo` is checked and has nothing to turn off.
            _ = try StaticStyleEdits.flag(query, "logo")
            let camera = try staticCamera(view: r.view, width: Double(r.width), height: Double(r.height),
                                          coordinates: overlays.coordinates, query: query)
            // The path (with Mapbox's overlay segment) and the query (with a POST body's
            // arguments) make the ETag, so it covers every edit.
            let tag = etag(s, path: path, query: query)
            if matches(ifNoneMatch, tag) { return notModified(tag) }
            let variant = edits.isEmpty ? nil : try s.variant(edits.key) { try edits.variant(of: s.snapshotter) }
            return try render(s, etag: tag, format: r.format, path: path) { timeLimit in
                try s.snapshotter.snapshot(camera: camera, size: Size(width: Double(r.width), height: Double(r.height)),
                                           pixelRatio: Double(r.scale), timeLimit: timeLimit, variant: variant) { o in
                    overlays.draw(on: &o, icons: self.icons)
                    for pin in overlays.pins { pin.draw(on: &o, captions: self.captions) }
                    self.caption(&o.image, style: s, width: Double(r.width), height: Double(r.height), pixelRatio: Double(r.scale),
                                 attribution: attribution)
                }
            }
        case .query(let r):
            return try featureQuery(r, style: try style(r.id), path: path, query: query, ifNoneMatch: ifNoneMatch)
        }
    }

    /// 404 for what the configuration turns off: static maps (`serveStaticMaps`), a style's
    /// rendered tiles, static maps and TileJSON (`serve_rendered`), its style.json and sprite (`serve_data`).
    private func checkServed(_ route: Route) throws {
        let id: String, rendered: Bool
        switch route {
        case .staticImage(let r):
            guard config.serveStaticMaps else { throw ServerError.notFound("static maps are not served (serveStaticMaps: false)") }
            (id, rendered) = (r.id, true)
        case .query(let r):
            // A query renders the static map of its view.
            guard config.serveStaticMaps else { throw ServerError.notFound("static maps and their queries are not served (serveStaticMaps: false)") }
            (id, rendered) = (r.id, true)
        case .tile(let t): (id, rendered) = (t.id, true)
        case .tileJSON(let i, _), .wmts(let i): (id, rendered) = (i, true)
        case .style(let i), .sprite(let i, _, _): (id, rendered) = (i, false)
        default: return
        }
        guard let s = styles[id] else { return }
        if rendered && !s.serveRendered { throw ServerError.notFound("style '\(id)' is not rendered here (serve_rendered: false)") }
        if !rendered && !s.serveData { throw ServerError.notFound("style '\(id)' is not served as a style (serve_data: false)") }
    }

    /// `/metrics`: glsnap's series, then tileserver-gl's.
    func metricsResponse() -> HTTPResponse {
        .text(metrics.text(queue: queue.depth, inFlight: inFlight, styles: styleOrder, workers: config.workers), type: "text/plain; version=0.0.4")
    }

    private func style(_ id: String) throws -> ServedStyle {
        guard let s = styles[id] else { throw ServerError.notFound("no style '\(id)' (see /styles.json)") }
        return s
    }

    /// Renders in a render slot (see `inRenderSlot`) and encodes the image.
    private func render(_ s: ServedStyle, etag: String, format: ImageFormat, path: String,
                        _ body: (_ timeLimit: Double?) throws -> Snapshot) throws -> HTTPResponse {
        let image = try inRenderSlot(path: path) { timeLimit in
            let snapshot = try body(timeLimit)
            return (snapshot, snapshot.image)
        }
        let quality = format == .jpeg ? config.jpegQuality : config.webpQuality
        let bytes = try ImageEncoder(format: format, png: PNGEncoder.Options(level: config.pngCompressionLevel),
                                     quality: quality).encode(image)
        return HTTPResponse(status: 200, headers: [("Content-Type", format.contentType), ("ETag", etag),
                                                   ("Cache-Control", config.cacheControl)], body: bytes)
    }

    /// Waits for a render slot (503 when the queue is full, 504 past the time limit) and runs
    /// `body` in it with the seconds left to the deadline (the snapshot stops there and frees its
    /// worker); returns what `body` made of its snapshot. The snapshot's warnings (an icon left
    /// out, a sprite that cannot be loaded) are logged with `path`.
    func inRenderSlot<T>(path: String, _ body: (_ timeLimit: Double?) throws -> (snapshot: Snapshot, result: T)) throws -> T {
        let start = Date()
        switch queue.acquire(deadline: start.addingTimeInterval(config.requestTimeout)) {
        case .full: throw ServerError.overloaded
        case .timedOut: throw ServerError.timedOut(seconds: config.requestTimeout)
        case .admitted: break
        }
        let result: T
        do {
            defer { queue.release() }
            let left = config.requestTimeout - Date().timeIntervalSince(start)
            let made = try body(left.isFinite ? max(0, left) : nil)
            result = made.result
            for warning in made.snapshot.warnings.prefix(20) { log("warning \(path.prefix(200)): \(warning)") }
            metrics.recordRender(ok: true)
        } catch let e as GLSnapError {
            metrics.recordRender(ok: false)
            throw ServerError(e, requestTimeout: config.requestTimeout)
        } catch let e as ServerError {
            metrics.recordRender(ok: false)
            throw e
        } catch {
            metrics.recordRender(ok: false)
            throw ServerError.renderFailed("\(error)")
        }
        guard Date().timeIntervalSince(start) <= config.requestTimeout else { throw ServerError.timedOut(seconds: config.requestTimeout) }
        return result
    }

    /// A 256-px tile at zoom z is a 256×256 view at GL zoom z-1; at z 0, a 512 view at zoom 0 halved.
    /// `watermark` (tiles and static maps) and `staticAttributionText` (static maps) drawn on the image.
    /// The style's own texts come first, then the options' (as tileserver-gl).
    private func caption(_ image: inout RGBAImage, style s: ServedStyle, width: Double, height: Double, pixelRatio: Double, attribution: Bool) {
        if let w = s.watermark ?? config.watermark { captions.watermark(w, width: width, height: height, pixelRatio: pixelRatio, on: &image) }
        if attribution, let a = s.staticAttributionText ?? config.staticAttributionText {
            captions.attribution(a, width: width, height: height, pixelRatio: pixelRatio, on: &image)
        }
    }

    private func renderTile(_ s: ServedStyle, _ t: TileRequest, timeLimit: Double?) throws -> Snapshot {
        var snapshot = try renderTileMap(s, t, timeLimit: timeLimit)
        caption(&snapshot.image, style: s, width: Double(t.tileSize), height: Double(t.tileSize), pixelRatio: Double(t.scale), attribution: false)
        return snapshot
    }

    private func renderTileMap(_ s: ServedStyle, _ t: TileRequest, timeLimit: Double?) throws -> Snapshot {
        let c = Mercator.tileCenter(z: t.z, x: t.x, y: t.y)
        let camera = { (zoom: Double) in CameraOptions(center: Coordinate(latitude: c.lat, longitude: c.lon), zoom: zoom, bearing: 0, pitch: 0) }
        if t.tileSize == 256 && t.z == 0 {
            var big = try s.snapshotter.snapshot(camera: camera(0), size: Size(width: 512, height: 512), pixelRatio: Double(t.scale),
                                                 timeLimit: timeLimit)
            big.image = halve(big.image)
            return big
        }
        let zoom = t.tileSize == 512 ? Double(t.z) : Double(t.z - 1)
        let side = Double(t.tileSize)
        return try s.snapshotter.snapshot(camera: camera(zoom), size: Size(width: side, height: side), pixelRatio: Double(t.scale),
                                          timeLimit: timeLimit)
    }

    /// The camera of a static map's view (`coordinates`: the overlays' points that `auto` fits),
    /// with the query's `padding` and `maxzoom`.
    func staticCamera(view: StaticView, width w: Double, height h: Double, coordinates coords: [(lon: Double, lat: Double)],
                      query: [(key: String, value: String)]) throws -> CameraOptions {
        func value(_ k: String) -> String? { query.first { $0.key == k }?.value }
        var padding = 0.1
        if let p = value("padding") {
            guard let v = parseDecimal(Substring(p)), (0...2).contains(v) else { throw ServerError.badRequest("padding must be 0-2 (a fraction of the box)") }
            padding = v
        }
        var maxZoom = Router.maxZoom
        if let m = value("maxzoom") {
            guard let v = parseDecimal(Substring(m)), (0...Router.maxZoom).contains(v) else { throw ServerError.badRequest("maxzoom must be 0-22") }
            maxZoom = v
        }
        switch view {
        case let .center(lon, lat, zoom, bearing, pitch):
            return CameraOptions(center: Coordinate(latitude: lat, longitude: lon), zoom: zoom, bearing: bearing, pitch: pitch)
        case let .bounds(west, south, east, north):
            return try MapService.fit(CoordinateBounds(west: west, south: south, east: east, north: north), width: w, height: h,
                                      padding: padding, maxZoom: Router.maxZoom)
        case .auto:
            guard let first = coords.first else { throw ServerError.badRequest("auto needs at least one path= or marker= coordinate") }
            var b = (w: first.lon, s: first.lat, e: first.lon, n: first.lat)
            for c in coords { b = (min(b.w, c.lon), min(b.s, c.lat), max(b.e, c.lon), max(b.n, c.lat)) }
            return try MapService.fit(CoordinateBounds(west: b.w, south: b.s, east: b.e, north: b.n), width: w, height: h,
                                      padding: padding, maxZoom: maxZoom)
        }
    }

    /// tileserver-gl's fit of a static map: `bounds` fill `width` × `height` points less
    /// `padding` (a fraction of the box added to each side: 0.1 = 10%), north up, at a zoom of
    /// at most `maxZoom` and never below the zoom where the world fills the larger side. The fit
    /// itself is the library's (`Snapshotter.camera(for:size:)`), into the box the padding leaves.
    static func fit(_ bounds: CoordinateBounds, width: Double, height: Double, padding: Double, maxZoom: Double) throws -> CameraOptions {
        var camera = try Snapshotter.camera(for: bounds, size: Size(width: width / (1 + 2 * padding), height: height / (1 + 2 * padding)),
                                            maxZoom: maxZoom)
        camera.zoom = min(maxZoom, max(log2(max(width, height) / 512), camera.zoom ?? 0))
        return camera
    }

    // MARK: ETags

    /// A strong ETag over the style's revision, the path and the query (sorted, so order does not matter).
    func etag(_ s: ServedStyle, path: String, query: [(key: String, value: String)]) -> String {
        var h = fnv1a(s.revision.utf8)
        h = fnv1a(path.utf8, seed: h)
        for item in query.sorted(by: { ($0.key, $0.value) < ($1.key, $1.value) }) {
            h = fnv1a([0] + Array(item.key.utf8) + [1] + Array(item.value.utf8), seed: h)
        }
        return "\"\(s.revision.prefix(8))-\(hex(h))\""
    }

    func matches(_ ifNoneMatch: String?, _ tag: String) -> Bool {
        guard let header = ifNoneMatch, header.utf8.count <= 8192 else { return false }
        return header.split(separator: ",").contains { candidate in
            var c = candidate.trimmingCharacters(in: .whitespaces)
            if c == "*" { return true }
            if c.hasPrefix("W/") { c.removeFirst(2) }
            return c == tag
        }
    }

    func notModified(_ tag: String) -> HTTPResponse {
        HTTPResponse(status: 304, headers: [("ETag", tag), ("Cache-Control", config.cacheControl)])
    }

    private func conditional(_ r: HTTPResponse, etag: String, ifNoneMatch: String?) throws -> HTTPResponse {
        if matches(ifNoneMatch, etag) { return notModified(etag) }
        var r = r
        r.headers += [("ETag", etag), ("Cache-Control", config.cacheControl)]
        return r
    }

    /// See `publicBase`.
    static func base(config: ServerConfig, port: Int) -> String {
        if var url = config.publicURL {
            while url.hasSuffix("/") { url.removeLast() }
            return url
        }
        return config.bind == "0.0.0.0" ? "" : "http://\(config.bind):\(port)"
    }
}

/// Halves an image with a 2×2 box filter (premultiplied average, straight result).
func halve(_ image: RGBAImage) -> RGBAImage {
    let w = image.width / 2, h = image.height / 2
    var out = [UInt8](repeating: 0, count: w * h * 4)
    image.pixels.withUnsafeBufferPointer { src in
        for y in 0..<h {
            for x in 0..<w {
                var r = 0, g = 0, b = 0, a = 0
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let i = ((2 * y + dy) * image.width + 2 * x + dx) * 4
                    let al = Int(src[i + 3])
                    r += Int(src[i]) * al; g += Int(src[i + 1]) * al; b += Int(src[i + 2]) * al; a += al
                }
                let o = (y * w + x) * 4
                if a > 0 {
                    out[o] = UInt8(min(255, (r + a / 2) / a)); out[o + 1] = UInt8(min(255, (g + a / 2) / a))
                    out[o + 2] = UInt8(min(255, (b + a / 2) / a)); out[o + 3] = UInt8((a + 2) / 4)
                }
            }
        }
    }
    return RGBAImage(width: w, height: h, pixels: out)
}
