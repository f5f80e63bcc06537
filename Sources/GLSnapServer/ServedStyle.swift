import Foundation
import GLSnap
import GLSnapGL

/// One configured style, loaded: its snapshotter (with its own GL workers, sharing nothing with
/// other styles), its revision (a hash of the style file, part of every ETag), and what its pages show.
final class ServedStyle: @unchecked Sendable {
    let id: String
    let name: String
    /// From the configuration: see `ServerConfig.Style`.
    let serveRendered: Bool, serveData: Bool
    /// The style's own `watermark` and `staticAttributionText` (nil: the options').
    let watermark: String?, staticAttributionText: String?
    let tileJSONOverrides: [String: Any]
    /// Every string in the layers' `text-font` values (font names, and the operators of
    /// expressions, which name no font folder), for `serveAllFonts: false`.
    let fontNames: Set<String>
    let snapshotter: Snapshotter
    /// 16 hex digits of the FNV-1a hash of the style file's bytes.
    let revision: String
    /// The style as clients get it, its URLs on this service's endpoints (`local://` stands for the
    /// service's base URL, put in by `servedJSON(base:)`).
    private let servedObject: [String: Any]
    /// The sprite files without their `[@2x].{json,png}` ending, when the style has a local sprite sheet.
    let spriteBase: String?
    private let jsonLock = NSLock()
    private var servedCache: (base: String, json: String)?
    /// The style variants of recent requests' style edits, by the edits' text (see `variant`).
    private var variants: [String: (variant: StyleVariant, tick: Int)] = [:]
    private var variantTick = 0
    /// Variants kept: a request repeating recent edits reuses their tessellated layers.
    static let maxCachedVariants = 16
    /// Longest edit text whose variant is kept (64 KiB).
    static let maxCachedVariantBytes = 64 << 10

    /// The variant of `edits` (`key`: their text), made once and kept for requests that repeat
    /// them, so their added layers are laid out once, not per request.
    func variant(_ key: String, make: () throws -> StyleVariant) rethrows -> StyleVariant {
        // Large edits (GeoJSON in a body) are made per request rather than held.
        guard key.utf8.count <= ServedStyle.maxCachedVariantBytes else { return try make() }
        jsonLock.lock()
        variantTick += 1
        if let hit = variants[key] {
            variants[key] = (hit.variant, variantTick)
            jsonLock.unlock()
            return hit.variant
        }
        jsonLock.unlock()
        let made = try make()
        jsonLock.lock(); defer { jsonLock.unlock() }
        variants[key] = (made, variantTick)
        if variants.count > ServedStyle.maxCachedVariants, let oldest = variants.min(by: { $0.value.tick < $1.value.tick })?.key {
            variants[oldest] = nil
        }
        return made
    }
    /// The view the index page previews: the data's center, else the style's camera.
    let preview: (lon: Double, lat: Double, zoom: Double)
    /// The data's bounds (west, south, east, north), when a source declares them.
    let bounds: [Double]?

    init(style: ServerConfig.Style, config: ServerConfig, catalog: DataCatalog) throws {
        id = style.id
        serveRendered = style.serveRendered
        watermark = style.watermark
        staticAttributionText = style.staticAttributionText
        serveData = style.serveData
        tileJSONOverrides = style.tileJSON.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] } ?? [:]
        guard let data = FileManager.default.contents(atPath: style.path) else {
            throw ServerError.config(file: style.path, message: "cannot read style '\(style.id)'")
        }
        let bytes = [UInt8](data)
        revision = hex(fnv1a(bytes))
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        try ServedStyle.checkDataIDs(object, style: style, config: config)
        // A broken source or tile fails the render (500, logged, counted) instead of drawing around it.
        var options = MapSnapshotOptions(size: Size(width: 512, height: 512), sourceErrors: .fail)
        // A sprite or glyph range that cannot be used is met once per style (it is cached), so
        // it does not fail the one request that met it.
        options.resourceErrors = .skip
        options.styleErrors = config.strictStyles ? .fail : .skip
        var rasterizer = SoftwareRasterizer.automatic(workers: config.workers)
        if let threads = config.llvmpipeThreads { rasterizer.threads = threads }
        snapshotter = Snapshotter(options: options, configuration: .init(workers: config.workers, rasterizer: rasterizer))
        let cfg = config
        snapshotter.resourceRewrite = { cfg.rewrite($0) }
        do { try snapshotter.setStyle(path: style.path) } catch {
            throw ServerError.config(file: style.path, message: "\(error)")
        }
        name = object["name"] as? String ?? style.id
        var fonts = Set<String>()
        func strings(_ v: Any, depth: Int) {
            if let t = v as? String { fonts.insert(t) } else if depth < 16, let a = v as? [Any] { a.forEach { strings($0, depth: depth + 1) } }
        }
        for layer in object["layers"] as? [[String: Any]] ?? [] {
            if let f = (layer["layout"] as? [String: Any])?["text-font"] { strings(f, depth: 0) }
        }
        fontNames = fonts
        let served = ServedStyle.serve(object, id: style.id, styleFolder: (style.path as NSString).deletingLastPathComponent,
                                       config: config, catalog: catalog)
        servedObject = served.object
        spriteBase = served.spriteBase
        if let (b, minzoom) = snapshotter.dataExtent() {
            let w = b.southwest.longitude, s = b.southwest.latitude, e = b.northeast.longitude, n = b.northeast.latitude
            bounds = [w, s, e, n]
            preview = ((w + e) / 2, (s + n) / 2, min(Router.maxZoom, Double(minzoom) + 1))
        } else {
            bounds = nil
            let c = snapshotter.styleCamera
            preview = (c.center?.longitude ?? 0, c.center?.latitude ?? 0, min(Router.maxZoom, max(0, c.zoom ?? 0)))
        }
    }

    /// A style's `mbtiles://{id}` must name an entry of the configuration's `data`: otherwise its
    /// tiles would be drawn blank. Refused at load, naming the style, the source and the id.
    static func checkDataIDs(_ style: [String: Any], style entry: ServerConfig.Style, config: ServerConfig) throws {
        let sources = style["sources"] as? [String: Any] ?? [:]
        for name in sources.keys.sorted() {
            guard let url = (sources[name] as? [String: Any])?["url"] as? String, let dataID = ServerConfig.dataID(inURL: url) else { continue }
            guard config.data[dataID] == nil else { continue }
            let known = config.data.keys.sorted().joined(separator: ", ")
            throw ServerError.config(file: entry.path, message: "style '\(entry.id)': source '\(name)' names data id '\(dataID)', "
                                     + "which is not in the configuration's \"data\" (\(known.isEmpty ? "none configured" : "configured: " + known))")
        }
    }

    /// The style as clients get it (tileserver-gl's layout): MBTiles sources at `/data/{id}.json`,
    /// a local sprite sheet at `/styles/{id}/sprite`, local glyphs at `/fonts/{fontstack}/{range}.pbf`.
    /// Remote URLs are kept. Local files the service does not serve (tile folders, GeoJSON files,
    /// SVG-folder sprites) are left out: no path of this machine reaches a client.
    static func serve(_ style: [String: Any], id: String, styleFolder: String, config: ServerConfig,
                      catalog: DataCatalog) -> (object: [String: Any], spriteBase: String?) {
        func isRemote(_ url: String) -> Bool { url.hasPrefix("http://") || url.hasPrefix("https://") }
        func localPath(_ url: String) -> String {
            var u = url
            for scheme in ["file://", "mbtiles://", "pmtiles://"] where u.hasPrefix(scheme) { u = String(u.dropFirst(scheme.count)) }
            return absolutePath(u, base: styleFolder)
        }
        var s = style
        if var sources = s["sources"] as? [String: Any] {
            for (name, value) in sources {
                guard var src = value as? [String: Any] else { continue }
                if let u = src["url"] as? String, !isRemote(u) {
                    src["url"] = nil
                    if let dataID = ServerConfig.dataID(inURL: u) {
                        src["url"] = "local://data/\(dataID).json"
                    } else if u.hasPrefix("mbtiles://") || u.hasPrefix("pmtiles://") {
                        src["url"] = "local://data/\(catalog.id(forFile: localPath(u))).json"
                    } else if src["tiles"] == nil {
                        src["tiles"] = [String]()
                    }
                }
                if let t = src["tiles"] as? [String] { src["tiles"] = t.filter(isRemote) }
                if let d = src["data"] as? String, !isRemote(d) {
                    src["data"] = ["type": "FeatureCollection", "features": [Any]()] as [String: Any]
                }
                sources[name] = src
            }
            s["sources"] = sources
        }
        var spriteBase: String?
        if let sprite = s["sprite"] as? String, !isRemote(sprite) {
            s["sprite"] = nil
            let base = localPath(sprite)
            if !sprite.hasSuffix("/"), FileManager.default.fileExists(atPath: base + ".json") {
                spriteBase = base
                s["sprite"] = "local://styles/\(id)/sprite"
            }
        } else if let sprites = s["sprite"] as? [Any] {
            s["sprite"] = sprites.filter { (($0 as? [String: Any])?["url"] as? String).map(isRemote) ?? false }
        }
        if let glyphs = s["glyphs"] as? String, !isRemote(glyphs) {
            s["glyphs"] = nil
            let ending = "{fontstack}/{range}.pbf"
            if glyphs.hasSuffix(ending) {
                catalog.addFontFolder(localPath(String(glyphs.dropLast(ending.count))))
                s["glyphs"] = "local://fonts/{fontstack}/{range}.pbf"
            }
        }
        return (s, spriteBase)
    }

    /// The served style with `local://` replaced by `base` (the service's URL, or "" for
    /// server-relative URLs); made once per base.
    func servedJSON(base: String) -> String {
        jsonLock.lock(); defer { jsonLock.unlock() }
        if let c = servedCache, c.base == base { return c.json }
        let prefix = base + "/"
        func rebase(_ v: Any) -> Any {
            if let str = v as? String { return str.hasPrefix("local://") ? prefix + str.dropFirst("local://".count) : str }
            if let a = v as? [Any] { return a.map(rebase) }
            if let o = v as? [String: Any] { return o.mapValues(rebase) }
            return v
        }
        var s = servedObject
        if var sources = s["sources"] as? [String: Any] {
            // Only the URL keys: inline GeoJSON `data` is the style's own and stays as it is.
            for (name, value) in sources {
                guard var src = value as? [String: Any] else { continue }
                for key in ["url", "tiles"] { if let v = src[key] { src[key] = rebase(v) } }
                sources[name] = src
            }
            s["sources"] = sources
        }
        for key in ["sprite", "glyphs"] { if let v = s[key] { s[key] = rebase(v) } }
        let json = (try? JSONSerialization.data(withJSONObject: s, options: [.sortedKeys, .withoutEscapingSlashes]))
            .map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        servedCache = (base, json)
        return json
    }
}

/// FNV-1a, 64 bits.
func fnv1a<S: Sequence>(_ bytes: S, seed: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 where S.Element == UInt8 {
    var h = seed
    for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
    return h
}

func hex(_ v: UInt64) -> String {
    let s = String(v, radix: 16)
    return String(repeating: "0", count: 16 - s.count) + s
}
