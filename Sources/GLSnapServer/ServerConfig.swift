import Foundation

/// What `glsnap serve` serves, read from a tileserver-gl style configuration file:
///
///     {"options": {"paths": {"root": "", "styles": "styles", "fonts": "fonts", "sprites": "sprites",
///                            "mbtiles": "data", "icons": "icons"},
///                  "maxSize": 2048, "maxScaleFactor": 3,
///                  "formatOptions": {"png": {"compressionLevel": 1}}},
///      "styles": {"bright": {"style": "bright.json"}},
///      "data": {"openmaptiles": {"mbtiles": "chicago.mbtiles"}}}
///
/// Paths are relative to `root`, which is relative to the file's folder. A style's
/// `mbtiles://{name}` source URL names an entry of `data` (tileserver-gl's convention); other
/// URLs resolve against the style file's folder. Remote (http) sources are not read.
public struct ServerConfig: Sendable {
    /// Folders, absolute.
    public struct Paths: Sendable, Equatable {
        public var root, styles, fonts, sprites, mbtiles, icons: String
        /// tileserver-gl's `paths.files` (default `public/files`): served at `/files/{name}`.
        public var files: String = ""
    }
    /// One served style: its id (the URL name) and its style file, absolute.
    public struct Style: Sendable, Equatable {
        public var id: String
        public var path: String
        /// tileserver-gl's `serve_rendered`: false serves no tiles, static maps or raster TileJSON.
        public var serveRendered = true
        /// tileserver-gl's `serve_data`: false serves no style.json and sprite of the style.
        public var serveData = true
        /// tileserver-gl's `tilejson`: keys (a JSON object's text) put over the raster TileJSON;
        /// its `format` also sets the tiles' extension.
        public var tileJSON: String?
        /// The style's own `watermark` and `staticAttributionText`, over the options' (as tileserver-gl).
        public var watermark: String?
        public var staticAttributionText: String?

        public init(id: String, path: String) { self.id = id; self.path = path }
    }

    public var paths: Paths
    /// Styles sorted by id.
    public var styles: [Style]
    /// Data ids to absolute MBTiles paths.
    public var data: [String: String]
    /// Data ids to their entry's `encoding` (`mapbox` or `terrarium`, checked when asked), which
    /// serves `/data/{id}/elevation/...` for a raster-dem file, as tileserver-gl's.
    public var dataEncodings: [String: String] = [:]
    /// Data ids to their entry's `tileSize` (the elevation API's pixel grid); none: the tile's width.
    public var dataTileSizes: [String: Int] = [:]
    /// Largest image side in pixels, after the scale factor (tileserver-gl's `maxSize`, default 2048).
    public var maxSize = 2048
    /// Largest `@{n}x` scale (default 3, at most 9).
    public var maxScaleFactor = 3
    /// zlib level of PNG responses (`formatOptions.png.compressionLevel`; default 1: fast, unfiltered).
    public var pngCompressionLevel = 1
    /// JPEG quality 1-100 (`formatOptions.jpeg.quality`, tileserver-gl's default 80).
    public var jpegQuality = 80
    /// WebP quality 0-100 (`formatOptions.webp.quality`, tileserver-gl's default 90).
    public var webpQuality = 90

    // Service settings: command-line options, not part of tileserver-gl's file.
    /// Address to listen on (IPv4 dotted quad; default 127.0.0.1).
    public var bind = "127.0.0.1"
    /// Port; 0 picks a free one (see `MapServer.port`).
    public var port = 8080
    /// Render workers (one GL context each) shared by all styles: at most this many renders at once.
    public var workers = 2
    /// Mesa's rasterizer threads per copy (`SoftwareRasterizer.threads`); nil: chosen from the
    /// cores and `workers`.
    public var llvmpipeThreads: Int?
    /// Requests that may wait for a worker; past this the service answers 503 at once.
    public var queue = 64
    /// Seconds a request may wait and render before it answers 504.
    public var requestTimeout: Double = 30
    /// Seconds a connection may stay idle (no byte read or written) before it is closed.
    public var connectionTimeout = 10
    /// Seconds a request's headers may take from the connection's start (or the end of its
    /// previous response), however slowly they trickle in (default 10: a browser sends them in
    /// one packet; a slowloris client sending a line every few seconds is cut off here).
    public var headerTimeout: Double = 10
    /// Open connections at most (default 512). Past 7/8 of it (`ConnectionGuard.reserve(for:)`)
    /// a new connection closes the one that has waited longest for its headers, so trickling
    /// clients cannot keep others out.
    public var connectionLimit = 512
    /// Open connections per client address at most (default 128, a quarter of the connections);
    /// 0: no cap. Past it, a new connection from the address closes that address's connection that
    /// has waited longest for its headers (or is refused when all are answering). Behind a
    /// reverse proxy every client has the proxy's address: raise it or use 0.
    public var connectionsPerAddress = 128
    /// Base of the URLs in styles, the style list and TileJSON (`--public-url`, tileserver-gl's
    /// `publicUrl`), e.g. `https://maps.example.com/`; nil: `http://{bind}:{port}`, or
    /// server-relative URLs when bound to 0.0.0.0. The Host header is never trusted.
    public var publicURL: String?
    /// `Cache-Control` of images, TileJSON and styles.
    public var cacheControl = "public, max-age=3600"
    /// Overlay limits per request: points over all paths, paths, markers.
    public var maxOverlayPoints = 2000
    public var maxPaths = 20
    public var maxMarkers = 100
    /// Most layers one static-map request may add with its style edits (`addlayer`, each
    /// `geojson` overlay counting 3), default 10: each is laid out for that request alone.
    public var maxAddedLayers = 10
    /// Most features one `/styles/{id}/query` answer may hold (default 10000, a few MB of
    /// GeoJSON): past it the query answers 400 asking for a smaller box or named layers.
    public var maxQueryFeatures = 10_000
    /// Most points of one batch elevation request (`POST /data/{id}/elevation`), default 10000:
    /// each may read and decode another tile (tileserver-gl has no limit but its body size).
    public var maxElevationPoints = 10_000
    /// Largest POST body of a static map, in bytes (default 5 MiB, tileserver-gl's JSON limit);
    /// a larger one answers 413, its bytes read and dropped, never held.
    public var maxRequestBody = 5 << 20
    /// `Access-Control-Allow-Origin: *` on every answer and 204 to preflight `OPTIONS` (default on,
    /// as tileserver-gl; `--no-cors` turns it off).
    public var cors = true
    /// Refuse a style with a value glsnap cannot use (`--strict`) instead of serving it with the
    /// value left out, as MapLibre does (default; the first render logs a warning per value).
    public var strictStyles = false
    /// Port of a second listener answering only `/metrics` (`--metrics PORT`, tileserver-gl's
    /// `--metrics`); nil: none (0 picks a free one, see `MapServer.metricsPort`).
    public var metricsPort: Int?
    /// A folder holding `maplibre-gl.js` and `maplibre-gl.css` (MapLibre GL JS, e.g. the PyPI
    /// package `maplibre`'s `maplibre/srcjs`), served at `/maplibre/` for the map viewers at
    /// `/styles/{id}/` and `/data/{id}/` (`--maplibre FOLDER`); nil: no viewers.
    public var maplibreFolder: String?
    /// tileserver-gl's `serveStaticMaps` (default true): false answers 404 to static maps.
    public var serveStaticMaps = true
    /// tileserver-gl's `frontPage`: the built-in page (default), none (404), or an HTML file.
    public var frontPage: FrontPage = .builtIn
    public enum FrontPage: Sendable, Equatable {
        case builtIn
        case none
        case file(String)
    }
    /// tileserver-gl's `pbfAlias` without its leading '.' (e.g. `pbf.pict`): vector tiles at
    /// `/data/{id}/{z}/{x}/{y}.{alias}` too (some CDNs mishandle `.pbf`); nil: none.
    public var pbfAlias: String?
    /// tileserver-gl's `domains`: host names (with an optional port) TileJSON lists tile URLs on,
    /// one URL each, to spread a browser's requests; empty: the public URL alone. Entries with
    /// `*` (tileserver-gl fills them from the request's Host, which is not trusted here) are refused.
    public var domains: [String] = []
    /// tileserver-gl's `allowInlineMarkerImages` (default false): markers may give their icon as
    /// `data:image/png;base64,...` (at most 1 MiB, 512 px a side).
    public var allowInlineMarkerImages = false
    /// tileserver-gl's `allowRemoteMarkerIcons` (default false): markers may give their icon as an
    /// `http(s)://` URL, fetched by the server (at most 1 MiB, 512 px a side, 10 s) on each request
    /// that names it (kept in memory as the answer's headers allow). Any URL the server can reach,
    /// internal ones too: only set it where every client may make the server fetch them.
    public var allowRemoteMarkerIcons = false
    /// tileserver-gl's `serveAllFonts`: every font of the font folders is served; false (the
    /// default, as there): only the fonts the styles' `text-font` name.
    public var serveAllFonts = false
    /// tileserver-gl's `watermark`: text drawn at the bottom left of tiles and static maps; nil: none.
    public var watermark: String?
    /// tileserver-gl's `staticAttributionText`: a boxed line at the bottom right of static maps; nil: none.
    public var staticAttributionText: String?
    /// libmicrohttpd's threading: one thread per connection (default), or a fixed pool.
    public var threading: Threading = .perConnection

    public enum Threading: Sendable, Equatable {
        case perConnection
        case pool(threads: Int)
    }

    public init(paths: Paths, styles: [Style], data: [String: String] = [:]) {
        self.paths = paths; self.styles = styles.sorted { $0.id < $1.id }; self.data = data
    }

    /// One style file served under its file name without `.json` (`glsnap serve STYLE.json`).
    public static func singleStyle(path: String) throws -> ServerConfig {
        let abs = absolutePath(path, base: FileManager.default.currentDirectoryPath)
        guard FileManager.default.fileExists(atPath: abs) else { throw ServerError.config(file: path, message: "no such style file") }
        var id = (abs as NSString).lastPathComponent
        if id.lowercased().hasSuffix(".json") { id = String(id.dropLast(5)) }
        guard isSafeName(id) else {
            throw ServerError.config(file: path, message: "the style id '\(id)' may only use letters, digits, '-', '_' and '.'")
        }
        let dir = (abs as NSString).deletingLastPathComponent
        let paths = Paths(root: dir, styles: dir, fonts: dir, sprites: dir, mbtiles: dir, icons: dir)
        return ServerConfig(paths: paths, styles: [Style(id: id, path: abs)])
    }

    /// Reads a tileserver-gl configuration file.
    public static func load(path: String) throws -> ServerConfig {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ServerError.config(file: path, message: "cannot read the configuration file")
        }
        guard data.count <= 16 << 20 else { throw ServerError.config(file: path, message: "larger than 16 MiB") }
        let json: Any
        do { json = try JSONSerialization.jsonObject(with: data) } catch {
            throw ServerError.config(file: path, message: "not valid JSON: \(error.localizedDescription)")
        }
        guard let top = json as? [String: Any] else { throw ServerError.config(file: path, message: "expected a JSON object") }
        let options = top["options"] as? [String: Any] ?? [:]
        let p = options["paths"] as? [String: Any] ?? [:]
        let fileDir = (absolutePath(path, base: FileManager.default.currentDirectoryPath) as NSString).deletingLastPathComponent
        let root = absolutePath(p["root"] as? String ?? "", base: fileDir)
        func folder(_ key: String, _ fallback: String) -> String { absolutePath(p[key] as? String ?? fallback, base: root) }
        var paths = Paths(root: root, styles: folder("styles", "styles"), fonts: folder("fonts", "fonts"),
                          sprites: folder("sprites", "sprites"), mbtiles: folder("mbtiles", ""), icons: folder("icons", "icons"))
        paths.files = folder("files", "public/files")

        var styles: [Style] = []
        for (id, value) in top["styles"] as? [String: Any] ?? [:] {
            guard isSafeName(id) else {
                throw ServerError.config(file: path, message: "style id '\(id)' may only use letters, digits, '-', '_' and '.'")
            }
            guard let entry = value as? [String: Any], let file = entry["style"] as? String, !file.isEmpty else {
                throw ServerError.config(file: path, message: "styles.\(id) needs \"style\": a style file name")
            }
            var style = Style(id: id, path: absolutePath(file, base: paths.styles))
            style.serveRendered = entry["serve_rendered"] as? Bool ?? true
            style.serveData = entry["serve_data"] as? Bool ?? true
            style.watermark = (entry["watermark"] as? String).flatMap { $0.isEmpty ? nil : $0 }
            style.staticAttributionText = (entry["staticAttributionText"] as? String).flatMap { $0.isEmpty ? nil : $0 }
            if let tj = entry["tilejson"] {
                guard let object = tj as? [String: Any], let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
                    throw ServerError.config(file: path, message: "styles.\(id).tilejson must be a JSON object")
                }
                if let f = object["format"] { guard let f = f as? String, ["png", "jpg", "jpeg", "webp"].contains(f) else {
                    throw ServerError.config(file: path, message: "styles.\(id).tilejson.format must be png, jpg, jpeg or webp")
                } }
                style.tileJSON = String(decoding: data, as: UTF8.self)
            }
            styles.append(style)
        }
        // serveAllStyles: every `.json` file of `paths.styles` (no recursion) too, named by its file
        // name; read at start and on each reload (tileserver-gl also watches the folder).
        if options["serveAllStyles"] as? Bool == true {
            let known = Set(styles.map(\.id))
            let files = (try? FileManager.default.contentsOfDirectory(atPath: paths.styles)) ?? []
            for file in files.sorted() where file.hasSuffix(".json") && !file.hasPrefix(".") {
                let id = String(file.dropLast(5))
                guard isSafeName(id), !known.contains(id) else { continue }
                styles.append(Style(id: id, path: absolutePath(file, base: paths.styles)))
            }
        }
        guard !styles.isEmpty else { throw ServerError.config(file: path, message: "no styles configured (\"styles\": {...})") }
        var sources: [String: String] = [:], encodings: [String: String] = [:], tileSizes: [String: Int] = [:]
        for (id, value) in top["data"] as? [String: Any] ?? [:] {
            // tileserver-gl's "mbtiles" and "pmtiles" entries (local files; remote PMTiles are not read:
            // a style naming them fails when loaded).
            guard let entry = value as? [String: Any],
                  let file = (entry["mbtiles"] as? String) ?? (entry["pmtiles"] as? String), !file.isEmpty,
                  !file.hasPrefix("http://"), !file.hasPrefix("https://") else { continue }
            sources[id] = absolutePath(file, base: paths.mbtiles)
            if let e = entry["encoding"] as? String { encodings[id] = e }
            if let t = entry["tileSize"] {
                guard let n = t as? Int, (1...4096).contains(n) else {
                    throw ServerError.config(file: path, message: "data.\(id).tileSize must be a whole number of pixels, 1-4096")
                }
                tileSizes[id] = n
            }
        }
        var config = ServerConfig(paths: paths, styles: styles, data: sources)
        config.dataEncodings = encodings
        config.dataTileSizes = tileSizes
        // The command line's --public-url wins (ServeCommand sets it after loading).
        if let url = options["publicUrl"] {
            guard let url = url as? String, url.hasPrefix("http://") || url.hasPrefix("https://") || url.hasPrefix("/"), url.utf8.count <= 2048,
                  url.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "\\" }) else {
                throw ServerError.config(file: path, message: "options.publicUrl must be an http:// or https:// URL or a path starting with '/' (printable ASCII, no quotes or spaces)")
            }
            config.publicURL = url
        }
        config.serveStaticMaps = options["serveStaticMaps"] as? Bool ?? true
        config.watermark = (options["watermark"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        config.staticAttributionText = (options["staticAttributionText"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        config.serveAllFonts = options["serveAllFonts"] as? Bool ?? false
        config.allowInlineMarkerImages = options["allowInlineMarkerImages"] as? Bool ?? false
        config.allowRemoteMarkerIcons = options["allowRemoteMarkerIcons"] as? Bool ?? false
        switch options["frontPage"] {
        case nil: break
        case let b as Bool: config.frontPage = b ? .builtIn : .none
        case let file as String where !file.isEmpty: config.frontPage = .file(absolutePath(file, base: root))
        default: throw ServerError.config(file: path, message: "options.frontPage must be true, false or an HTML file's path")
        }
        if let alias = options["pbfAlias"] {
            let a = (alias as? String ?? "").hasPrefix(".") ? String((alias as? String ?? "").dropFirst()) : alias as? String ?? ""
            guard !a.isEmpty, a.utf8.count <= 32, a.split(separator: ".", omittingEmptySubsequences: false).allSatisfy({ isSafeName(String($0)) }) else {
                throw ServerError.config(file: path, message: "options.pbfAlias must be an extension such as \".pbf.pict\" (letters, digits, '-', '_', '.')")
            }
            if a != "pbf" { config.pbfAlias = a }
        }
        if let d = options["domains"] {
            let list = (d as? [String]) ?? (d as? String)?.split(separator: ",").map(String.init) ?? []
            guard !list.isEmpty || (d as? [Any])?.isEmpty == true, list.count <= 64, list.allSatisfy({ domain in
                (1...253).contains(domain.utf8.count) && domain.unicodeScalars.allSatisfy {
                    CharacterSet.alphanumerics.contains($0) && $0.isASCII || "-.:[]".unicodeScalars.contains($0)
                }
            }) else {
                throw ServerError.config(file: path, message: "options.domains must list up to 64 host names (letters, digits, '-', '.', ':'; no '*')")
            }
            config.domains = list
        }
        if let v = options["maxSize"] as? Int {
            guard (1...16384).contains(v) else { throw ServerError.config(file: path, message: "options.maxSize must be 1-16384") }
            config.maxSize = v
        }
        if let v = options["maxScaleFactor"] as? Int {
            guard (1...9).contains(v) else { throw ServerError.config(file: path, message: "options.maxScaleFactor must be 1-9") }
            config.maxScaleFactor = v
        }
        if let f = options["formatOptions"] as? [String: Any], let png = f["png"] as? [String: Any],
           let level = png["compressionLevel"] as? Int {
            guard (0...9).contains(level) else {
                throw ServerError.config(file: path, message: "options.formatOptions.png.compressionLevel must be 0-9")
            }
            config.pngCompressionLevel = level
        }
        if let f = options["formatOptions"] as? [String: Any], let jpeg = f["jpeg"] as? [String: Any], let q = jpeg["quality"] as? Int {
            guard (1...100).contains(q) else { throw ServerError.config(file: path, message: "options.formatOptions.jpeg.quality must be 1-100") }
            config.jpegQuality = q
        }
        if let f = options["formatOptions"] as? [String: Any], let webp = f["webp"] as? [String: Any], let q = webp["quality"] as? Int {
            guard (0...100).contains(q) else { throw ServerError.config(file: path, message: "options.formatOptions.webp.quality must be 0-100") }
            config.webpQuality = q
        }
        return config
    }

    /// The data id a style's `mbtiles://{id}` or `pmtiles://{id}` URL names (tileserver-gl takes either).
    static func dataID(inURL url: String) -> String? {
        for scheme in ["mbtiles://{", "pmtiles://{"] where url.hasPrefix(scheme) && url.hasSuffix("}") {
            return String(url.dropFirst(scheme.count).dropLast())
        }
        return nil
    }

    /// Rewrites `mbtiles://{name}` and `pmtiles://{name}` to the configured data file, with the
    /// scheme its contents need (used as the snapshotter's resource rewrite).
    func rewrite(_ url: String) -> String? {
        guard let name = ServerConfig.dataID(inURL: url), let file = data[name] else { return nil }
        return (isPMTiles(file) ? "pmtiles://" : "mbtiles://") + file
    }
}

/// A name safe in URLs and file names: ASCII letters, digits, `-`, `_`, `.`, not starting with `.`,
/// 1-128 characters. Anything else (slashes, `..`, NUL, spaces) is refused.
func isSafeName(_ s: String) -> Bool {
    let u = Array(s.utf8)
    guard (1...128).contains(u.count), u[0] != UInt8(ascii: ".") else { return false }
    return u.allSatisfy { c in
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
            || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") || c == UInt8(ascii: ".")
    }
}

func absolutePath(_ path: String, base: String) -> String {
    let joined = path.hasPrefix("/") ? path : (base as NSString).appendingPathComponent(path)
    return (joined as NSString).standardizingPath
}
