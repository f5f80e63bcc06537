import Foundation
import GLSnapData
import GLSnapImage
import GLSnapLayout
import GLSnapStyle

/// A parsed style with its sources opened. Made once per style and shared by every snapshot of it.
final class LoadedStyle: @unchecked Sendable {
    let style: Style
    /// Where the style came from, for error messages ("style.json", "inline JSON").
    let origin: String
    let sources: [String: TileSource]
    /// `image` sources, decoded.
    let imageSources: [String: ImageSource]
    /// The encoding of each `raster-dem` source (its tiles are in `sources`).
    let demEncodings: [String: DEMEncoding]
    let resolver: ResourceResolver
    /// Distinguishes styles in shared caches.
    let generation: Int
    /// Sources that could not be opened (only with `SourceErrorPolicy.skip`), by name.
    let sourceErrors: [String: String]
    /// Glyphs, sprites, SVG icons, their atlases and per-tile symbol layouts.
    let symbolResources: SymbolResources
    /// The images of `*-pattern` properties, packed as they are first drawn.
    let patterns = PatternAtlas()

    private static let counter = Counter()

    init(style: Style, origin: String, resolver: ResourceResolver, policy: SourceErrorPolicy,
         images: [String: StyleImage] = [:], limits: Limits = .default) throws {
        self.style = style
        self.origin = origin
        self.resolver = resolver
        generation = LoadedStyle.counter.next()
        symbolResources = SymbolResources(style: style, resolver: resolver, images: images, svgLimits: limits.svg)
        var sources: [String: TileSource] = [:]
        var errors: [String: String] = [:]
        var imageSources: [String: ImageSource] = [:]
        var demEncodings: [String: DEMEncoding] = [:]
        let used = Set(style.layers.compactMap(\.source))
        for (name, definition) in style.sources where used.contains(name) {
            do {
                let type = definition["type"]?.stringValue
                if type == "geojson" {
                    sources[name] = try LoadedStyle.geoJSONSource(definition, resolver: resolver, maxPositions: limits.maxGeoJSONPositions)
                } else if type == "image" {
                    imageSources[name] = try ImageSource(definition: definition, resolver: resolver)
                } else if type == "raster-dem", case .object(var fields) = definition {
                    let encoding = definition["encoding"]?.stringValue ?? "mapbox"
                    guard let e = DEMEncoding(rawValue: encoding) else {
                        throw GLSnapError.source(name: name, message: "raster-dem 'encoding' must be \"mapbox\" or \"terrarium\", not \"\(encoding)\"")
                    }
                    demEncodings[name] = e
                    // The tiles are fetched like a raster source's; only their decoding differs.
                    fields["type"] = .string("raster")
                    sources[name] = try SourceFactory.make(name: name, definition: .object(fields), resolver: resolver)
                } else if let s = try SourceFactory.make(name: name, definition: definition, resolver: resolver) {
                    sources[name] = s
                }
            } catch {
                guard policy == .skip else { throw GLSnapError.source(name: name, message: "\(error)") }
                errors[name] = "\(error)"
            }
        }
        self.sources = sources
        sourceErrors = errors
        self.imageSources = imageSources
        self.demEncodings = demEncodings
    }

    private static func geoJSONSource(_ definition: JSON, resolver: ResourceResolver, maxPositions: Int) throws -> TileSource {
        var data = definition["data"] ?? .null
        if case .string(let url) = data {
            data = try JSON.parse(resolver.load(url))
        }
        var options = GeoJSONOptions()
        options.maxPositions = maxPositions
        if let z = definition["maxzoom"]?.numberValue { options.maxzoom = Int(z) }
        if let b = definition["buffer"]?.numberValue { options.buffer = b }
        if let t = definition["tolerance"]?.numberValue { options.tolerance = t }
        options.lineMetrics = definition["lineMetrics"]?.boolValue ?? false
        if definition["cluster"]?.boolValue == true {
            var cluster = GeoJSONClusterOptions()
            if let r = definition["clusterRadius"]?.numberValue, r.isFinite, r >= 0 { cluster.radius = r }
            if let z = definition["clusterMaxZoom"]?.numberValue, z.isFinite { cluster.maxZoom = Int(max(0, min(Double(TileID.maxZoom - 1), z))) }
            if let n = definition["clusterMinPoints"]?.numberValue, n.isFinite { cluster.minPoints = Int(max(1, min(1e9, n))) }
            options.cluster = cluster
        }
        if let f = definition["filter"] { options.filter = Filter.parse(f) }
        return try GeoJSONSource(data: data, options: options)
    }

    /// Reads and parses a style file; relative URLs in it resolve against its folder.
    static func load(path: String, rewrite: (@Sendable (String) -> String?)?, http: HTTPClient = .shared,
                     options: MapSnapshotOptions, images: [String: StyleImage] = [:]) throws -> LoadedStyle {
        let limits = options.limits
        let url = URL(fileURLWithPath: path)
        guard let attrs = try? FileManager.default.attributesOfItem(atPath: path) else {
            throw GLSnapError.style(source: path, message: "no such file")
        }
        if let size = attrs[.size] as? Int, size > limits.maxStyleBytes {
            throw GLSnapError.style(source: path, message: "file is \(size) bytes, over the \(limits.maxStyleBytes)-byte limit")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GLSnapError.style(source: path, message: "cannot read the file")
        }
        let resolver = ResourceResolver(baseURL: url.absoluteString, rewrite: rewrite, http: http)
        return try parse(bytes: [UInt8](data), origin: path, resolver: resolver, policy: options.sourceErrors, images: images,
                         limits: limits)
    }

    static func parse(bytes: [UInt8], origin: String, resolver: ResourceResolver, policy: SourceErrorPolicy,
                      images: [String: StyleImage] = [:], limits: Limits = .default) throws -> LoadedStyle {
        let style: Style
        do {
            let json: JSON
            do { json = try JSON.parse(bytes) } catch let e as JSONParseError {
                throw StyleError.syntax(message: e.message, line: e.line, column: e.column)
            }
            // Counted before the layers are compiled: a style of a million layers is refused quickly.
            if let count = json["layers"]?.arrayValue?.count, count > limits.maxStyleLayers {
                throw GLSnapError.style(source: origin, message: "it has \(count) layers, over the limit of \(limits.maxStyleLayers) (Limits.maxStyleLayers)")
            }
            style = try Style(json: json)
        } catch let e as GLSnapError {
            throw e
        } catch {
            throw GLSnapError.style(source: origin, message: "\(error)")
        }
        return try LoadedStyle(style: style, origin: origin, resolver: resolver, policy: policy, images: images, limits: limits)
    }
}

/// A thread-safe increasing number.
final class Counter: @unchecked Sendable {
    private var value = 0
    private let lock = NSLock()
    func next() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value }
}
