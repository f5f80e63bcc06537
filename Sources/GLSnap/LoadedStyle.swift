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
    /// Cache generations (see StyleReuse): of each opened source's tiles, of each layer's
    /// tessellation and symbol layout, and of each layer's paint.
    private(set) var sourceGenerations: [String: Int] = [:]
    private(set) var layoutGenerations: [String: Int] = [:]
    private(set) var paintGenerations: [String: Int] = [:]
    /// What each layer's layout generation stands for (see `layoutSignature`).
    private var layoutSignatures: [String: JSON] = [:]
    private let resourcesGeneration: Int
    /// What `["global-state", name]` reads: the style's `state` defaults with the values of
    /// `Snapshotter.setGlobalStateProperty` over them.
    let globalState: [String: JSON]
    /// What was left out of the style when it was loaded (`MapSnapshotOptions.styleErrors`
    /// `.skip`), one sentence per problem with its JSON path, worded as `glsnap validate` words it,
    /// then what it asks for that glsnap does not draw (`NotDrawn`).
    let styleWarnings: [String]
    /// The part of `styleWarnings` about values left out (the rest is `NotDrawn`'s).
    let loadWarnings: [String]
    private let warningsReported = OnceFlag()
    /// The style's `light`, compiled once (`Style.lightProperties()`).
    let lightProperties: [String: PropertyValue]
    /// The style's `sky` (nil: none), compiled once with `globalState`.
    let sky: SkyProperties?

    /// Generations of styles, sources and layers: process-wide on purpose. A generation keys a
    /// snapshotter's caches and its workers' GPU buffers, and a `StyleVariant` (public, Sendable)
    /// made by one snapshotter may be drawn by another (`snapshot(camera:variant:)`), whose caches
    /// hold its own styles: numbers unique in the process can never meet another style's entries
    /// (SnapshotterHubTests.testAVariantDrawnByAnotherSnapshotterIsItsOwn). The cost is one lock
    /// per style load or edit, none per frame.
    static let counter = Counter()

    /// `reuse` (a runtime edit of `reuse.previous`): sources not changed stay open with their
    /// cached tiles, and layers whose layout did not change keep their tessellation.
    init(style: Style, origin: String, resolver: ResourceResolver, policy: SourceErrorPolicy,
         images: [String: StyleImage] = [:], limits: Limits = .default, reuse: StyleReuse? = nil,
         styleWarnings: [String] = []) throws {
        self.style = style
        self.origin = origin
        loadWarnings = styleWarnings
        lightProperties = style.lightProperties()
        self.styleWarnings = styleWarnings + NotDrawn.warnings(style)
        self.resolver = resolver
        generation = LoadedStyle.counter.next()
        globalState = reuse?.globalState ?? style.globalStateDefaults
        sky = style.skyProperties(globalState: globalState)
        if let reuse, reuse.keepResources {
            symbolResources = reuse.previous.symbolResources
            resourcesGeneration = reuse.previous.resourcesGeneration
        } else {
            symbolResources = SymbolResources(style: style, resolver: resolver, images: images, svgLimits: limits.svg)
            resourcesGeneration = generation
        }
        var sources: [String: TileSource] = [:]
        var errors: [String: String] = [:]
        var imageSources: [String: ImageSource] = [:]
        var demEncodings: [String: DEMEncoding] = [:]
        var used = Set(style.layers.compactMap(\.source))
        if let terrain = style.json["terrain"]?["source"]?.stringValue { used.insert(terrain) }
        var sourceGenerations: [String: Int] = [:]
        for (name, definition) in style.sources where used.contains(name) {
            if let reuse, let kept = reuse.previous.sourceGenerations[name], !reuse.changedSources.contains(name) {
                let p = reuse.previous
                sources[name] = p.sources[name]; imageSources[name] = p.imageSources[name]
                demEncodings[name] = p.demEncodings[name]; errors[name] = p.sourceErrors[name]
                sourceGenerations[name] = kept
                continue
            }
            sourceGenerations[name] = generation
            do {
                let type = definition["type"]?.stringValue
                if type == "geojson" {
                    sources[name] = try LoadedStyle.geoJSONSource(definition, resolver: resolver, maxPositions: limits.maxGeoJSONPositions)
                } else if type == "canvas" {
                    // Its picture is the snapshotter's canvas, taken per snapshot (Snapshotter+Canvas.swift).
                    continue
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
                guard policy == .skip else { throw GLSnapError.source(name: name, tile: nil, location: nil, underlying: error) }
                errors[name] = "\(error)"
            }
        }
        self.sources = sources
        sourceErrors = errors
        self.imageSources = imageSources
        self.demEncodings = demEncodings
        self.sourceGenerations = sourceGenerations
        // A layer reading global state is laid out again when the state changed.
        let stateChanged = reuse.map { $0.globalState != $0.previous.globalState } ?? true
        for layer in style.layers {
            let signature = layoutSignature(layer)
            if let p = reuse?.previous, p.layoutSignatures[layer.id] == signature, let kept = p.layoutGenerations[layer.id],
               !(stateChanged && Style.readsGlobalState(layer.layoutGroup)) {
                layoutGenerations[layer.id] = kept
            } else {
                layoutGenerations[layer.id] = LoadedStyle.counter.next()
            }
            layoutSignatures[layer.id] = signature
            if let reuse, !reuse.allLayersChanged, !reuse.changedLayers.contains(layer.id),
               let kept = reuse.previous.paintGenerations[layer.id] {
                paintGenerations[layer.id] = kept
            } else {
                paintGenerations[layer.id] = LoadedStyle.counter.next()
            }
        }
    }

    /// What a layer's tessellation and symbol layout depend on besides the global state: its
    /// type, source, source layer, filter and layout, and the source's and the symbol resources'
    /// generations. Paint, visibility and the zoom range are left out.
    private func layoutSignature(_ layer: StyleLayer) -> JSON {
        var parts = layer.layoutGroup.arrayValue ?? []
        // layoutGroup is [type, source, source-layer, minzoom, maxzoom, filter, layout].
        // Visibility only decides whether the layer is drawn.
        if parts.count == 7 {
            parts[3] = .null; parts[4] = .null
            if case .object(var layout) = parts[6] { layout["visibility"] = nil; parts[6] = .object(layout) }
        }
        parts += [.number(Double(layer.source.flatMap { sourceGenerations[$0] } ?? 0)), .number(Double(resourcesGeneration))]
        return .array(parts)
    }

    /// The generation of a source's tiles in the shared caches.
    func sourceGeneration(_ source: String) -> Int { sourceGenerations[source] ?? generation }

    /// The generation of a layer's tessellated geometry and symbol layouts in the shared caches.
    func layoutGeneration(_ layer: String) -> Int { layoutGenerations[layer] ?? generation }

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
            if let p = definition["clusterProperties"] { cluster.properties = GeoJSONClusterProperties(p) }
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
                         limits: limits, styleErrors: options.styleErrors)
    }

    /// The style's problems are refused (`styleErrors` `.fail`, `StyleError.invalid` listing
    /// them) or left out with a warning each (`.skip`).
    static func parse(bytes: [UInt8], origin: String, resolver: ResourceResolver, policy: SourceErrorPolicy,
                      images: [String: StyleImage] = [:], limits: Limits = .default,
                      styleErrors: SourceErrorPolicy = .fail) throws -> LoadedStyle {
        let style: Style
        var warnings: [String] = []
        do {
            let json: JSON
            do { json = try JSON.parse(bytes) } catch let e as JSONParseError {
                throw StyleError.syntax(message: e.message, line: e.line, column: e.column)
            }
            // Counted before the layers are compiled: a style of a million layers is refused quickly.
            if let count = json["layers"]?.arrayValue?.count, count > limits.maxStyleLayers {
                throw GLSnapError.style(source: origin, message: "it has \(count) layers, over the limit of \(limits.maxStyleLayers) (Limits.maxStyleLayers)")
            }
            if styleErrors == .skip {
                var dropped: [StyleProblem] = []
                style = try Style(json: json, dropping: &dropped)
                if !dropped.isEmpty { warnings = StyleWarnings.sentences(dropped, bytes: bytes, origin: origin) }
            } else {
                style = try Style(json: json)
            }
        } catch {
            throw GLSnapError.style(source: origin, error: error)
        }
        return try LoadedStyle(style: style, origin: origin, resolver: resolver, policy: policy, images: images, limits: limits,
                               styleWarnings: warnings)
    }

    /// `styleWarnings` the first time it is asked for, then nothing: a style's problems are
    /// reported once, by the first snapshot of it (as sprite and glyph problems are).
    func takeStyleWarnings() -> [String] {
        warningsReported.first() ? styleWarnings : []
    }
}

/// True the first time `first()` is called, then false (thread-safe).
final class OnceFlag: @unchecked Sendable {
    private var done = false
    private let lock = NSLock()
    func first() -> Bool {
        lock.lock(); defer { lock.unlock() }
        if done { return false }
        done = true
        return true
    }
}

/// A thread-safe increasing number.
final class Counter: @unchecked Sendable {
    private var value = 0
    private let lock = NSLock()
    func next() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value }
}
