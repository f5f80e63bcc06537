import Foundation
import GLSnap
import GLSnapGL

/// One configured style, loaded: its snapshotter (with its own GL workers, sharing nothing with
/// other styles), its revision (a hash of the style file, part of every ETag), and what its pages show.
final class ServedStyle: @unchecked Sendable {
    let id: String
    let name: String
    let snapshotter: Snapshotter
    /// 16 hex digits of the FNV-1a hash of the style file's bytes.
    let revision: String
    /// The style JSON with its source, sprite and glyph URLs resolved to what glsnap reads.
    let resolvedJSON: String
    /// The view the index page previews: the data's center, else the style's camera.
    let preview: (lon: Double, lat: Double, zoom: Double)
    /// The data's bounds (west, south, east, north), when a source declares them.
    let bounds: [Double]?

    init(style: ServerConfig.Style, config: ServerConfig) throws {
        id = style.id
        guard let data = FileManager.default.contents(atPath: style.path) else {
            throw ServerError.config(file: style.path, message: "cannot read style '\(style.id)'")
        }
        let bytes = [UInt8](data)
        revision = hex(fnv1a(bytes))
        var options = MapSnapshotOptions(size: Size(width: 512, height: 512), workers: config.workers, sourceErrors: .skip)
        var rasterizer = SoftwareRasterizer.automatic(workers: config.workers)
        if let threads = config.llvmpipeThreads { rasterizer.threads = threads }
        options.rasterizer = rasterizer
        snapshotter = Snapshotter(options: options)
        let cfg = config
        snapshotter.resourceRewrite = { cfg.rewrite($0) }
        do { try snapshotter.setStyle(path: style.path) } catch {
            throw ServerError.config(file: style.path, message: "\(error)")
        }
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        name = object["name"] as? String ?? style.id
        resolvedJSON = ServedStyle.resolve(object, styleFolder: (style.path as NSString).deletingLastPathComponent, config: config)
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

    /// Source URLs, tile templates, sprite and glyphs resolved as glsnap reads them: `mbtiles://{name}`
    /// to the configured file, relative paths to absolute `file://`/`mbtiles://` URLs; remote URLs kept.
    static func resolve(_ style: [String: Any], styleFolder: String, config: ServerConfig) -> String {
        func resolveURL(_ url: String) -> String {
            if let r = config.rewrite(url) { return r }
            if url.hasPrefix("mbtiles://") {
                return "mbtiles://" + absolutePath(String(url.dropFirst("mbtiles://".count)), base: styleFolder)
            }
            if url.contains("://") { return url }
            return "file://" + absolutePath(url, base: styleFolder)
        }
        var s = style
        if var sources = s["sources"] as? [String: Any] {
            for (name, value) in sources {
                guard var src = value as? [String: Any] else { continue }
                if let u = src["url"] as? String { src["url"] = resolveURL(u) }
                if let t = src["tiles"] as? [String] { src["tiles"] = t.map(resolveURL) }
                sources[name] = src
            }
            s["sources"] = sources
        }
        if let sprite = s["sprite"] as? String { s["sprite"] = resolveURL(sprite) }
        if let glyphs = s["glyphs"] as? String { s["glyphs"] = resolveURL(glyphs) }
        guard let out = try? JSONSerialization.data(withJSONObject: s, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: out, as: UTF8.self)
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
