import GLSnapStyle

/// Builds tile sources from a style's `sources` entries.
public enum SourceFactory {
    /// The TileJSON keys that a source's `url` contributes (the style's own keys win).
    static let tileJSONKeys = ["tiles", "minzoom", "maxzoom", "bounds", "scheme", "tileSize", "attribution"]

    /// The source for a style `sources` entry, or nil for types built elsewhere (`geojson`,
    /// `image`, `video`, `raster-dem`).
    ///
    /// - `url: "mbtiles://path"` opens an MBTiles file (path relative to the style file unless
    ///   absolute); its metadata supplies minzoom, maxzoom, bounds, attribution and the type
    ///   (`pbf` is vector), and the style's own keys win.
    /// - `url: "pmtiles://path"`, or a local `url` ending in `.pmtiles`, opens a PMTiles v3 archive
    ///   (its header supplies zooms, bounds and the type); a `url` ending in `.mbtiles` is MBTiles.
    /// - Any other `url` is a TileJSON file, merged under the style's keys.
    /// - `tiles` templates give a `TileURLSource` (a single `mbtiles://` entry opens that file).
    ///
    /// Defaults: minzoom 0, maxzoom 22, tileSize 512, scheme xyz. Throws `SourceError` for a
    /// definition that is not usable, naming the source.
    public static func make(name: String, definition: JSON, resolver: ResourceResolver) throws -> TileSource? {
        guard let object = definition.objectValue else {
            throw SourceError.invalidDefinition(source: name, reason: "the definition is not an object")
        }
        guard let typeName = object["type"]?.stringValue else {
            throw SourceError.invalidDefinition(source: name, reason: "'type' is missing or not a string")
        }
        guard let type = SourceType(rawValue: typeName) else {
            throw SourceError.invalidDefinition(source: name, reason: "unknown type '\(typeName)'")
        }
        guard type == .vector || type == .raster else { return nil }

        if let url = object["url"]?.stringValue,
           let archive = try makeArchive(name: name, url: url, object: object, type: type, resolver: resolver) {
            return archive
        }
        let (merged, tileResolver) = try mergeTileJSON(name: name, object: object, resolver: resolver)
        guard let tilesJSON = merged["tiles"] else {
            throw SourceError.invalidDefinition(source: name, reason: "it has neither 'tiles' nor 'url'")
        }
        guard let templates = tilesJSON.arrayValue?.compactMap(\.stringValue),
              templates.count == tilesJSON.arrayValue?.count, !templates.isEmpty else {
            throw SourceError.invalidDefinition(source: name, reason: "'tiles' must be a non-empty array of strings")
        }
        if templates.count == 1,
           let archive = try makeArchive(name: name, url: templates[0], object: object, type: type, resolver: tileResolver) {
            return archive
        }
        let info = try sourceInfo(name: name, type: type, merged, defaults: SourceInfo(type: type))
        return TileURLSource(name: name, templates: templates, info: info, resolver: tileResolver)
    }

    /// The definition with its TileJSON (`url`) merged under it, and the resolver that its tile
    /// templates resolve against (the TileJSON's folder when the tiles came from it).
    public static func mergeTileJSON(name: String, object: [String: JSON],
                                     resolver: ResourceResolver) throws -> ([String: JSON], ResourceResolver) {
        guard let urlJSON = object["url"] else { return (object, resolver) }
        guard let url = urlJSON.stringValue else {
            throw SourceError.invalidDefinition(source: name, reason: "'url' is not a string")
        }
        let bytes = try resolver.load(url)
        let tileJSON: JSON
        do { tileJSON = try JSON.parse(bytes) } catch {
            throw SourceError.invalidTileJSON(url: url, reason: "\(error)")
        }
        guard let fields = tileJSON.objectValue else {
            throw SourceError.invalidTileJSON(url: url, reason: "the document is not an object")
        }
        var merged = object
        for key in tileJSONKeys where merged[key] == nil {
            if let value = fields[key] { merged[key] = value }
        }
        var tileResolver = resolver
        if object["tiles"] == nil, fields["tiles"] != nil {
            tileResolver.baseURL = try resolver.location(for: url).text
        }
        return (merged, tileResolver)
    }

    /// An MBTiles or PMTiles source when `url` names one (by scheme, or a local path ending in
    /// `.mbtiles` or `.pmtiles`); nil for anything else.
    private static func makeArchive(name: String, url: String, object: [String: JSON], type: SourceType,
                                    resolver: ResourceResolver) throws -> TileSource? {
        if url.hasPrefix("pmtiles://http://") || url.hasPrefix("pmtiles://https://") {
            throw SourceError.unsupportedURL(url: url, reason: "remote PMTiles archives (HTTP range requests) are not "
                + "supported; download the file and name it with pmtiles://path")
        }
        let scheme = url.hasPrefix("mbtiles://") || url.hasPrefix("pmtiles://")
        guard scheme || url.hasSuffix(".mbtiles") || url.hasSuffix(".pmtiles") else { return nil }
        guard case .file(let path) = try resolver.location(for: url) else {
            if scheme { _ = try resolver.filePath(for: url) }  // throws: an archive must be local
            return nil
        }
        if url.hasPrefix("pmtiles://") || (!url.hasPrefix("mbtiles://") && path.hasSuffix(".pmtiles")) {
            return try makePMTiles(name: name, path: path, object: object, type: type)
        }
        return try makeMBTiles(name: name, url: url, object: object, type: type, resolver: resolver)
    }

    private static func makePMTiles(name: String, path: String, object: [String: JSON], type: SourceType) throws -> TileSource {
        try PMTilesSource(path: path, name: name) { defaults, header in
            guard defaults.type == type else {
                throw SourceError.invalidDefinition(source: name, reason: "the style says '\(type.rawValue)' but "
                    + "\(path) holds \(defaults.type.rawValue) tiles (tile type \(header.tileType))")
            }
            var info = try sourceInfo(name: name, type: type, object, defaults: defaults)
            info.scheme = .xyz  // PMTiles ids are always XYZ.
            return info
        }
    }

    private static func makeMBTiles(name: String, url: String, object: [String: JSON], type: SourceType,
                                    resolver: ResourceResolver) throws -> TileSource {
        let path = try resolver.filePath(for: url)
        return try MBTilesSource(path: path, name: name) { defaults, metadata in
            guard defaults.type == type else {
                throw SourceError.invalidDefinition(source: name, reason: "the style says '\(type.rawValue)' but "
                    + "\(path) holds \(defaults.type.rawValue) tiles (format '\(metadata.format ?? "")')")
            }
            var info = try sourceInfo(name: name, type: type, object, defaults: defaults)
            info.scheme = .xyz  // MBTiles rows are always TMS; the source converts.
            return info
        }
    }

    /// SourceInfo from a (merged) definition, falling back to `defaults` key by key.
    static func sourceInfo(name: String, type: SourceType, _ object: [String: JSON],
                           defaults: SourceInfo) throws -> SourceInfo {
        func integer(_ key: String, _ range: ClosedRange<Int>, _ fallback: Int) throws -> Int {
            guard let value = object[key] else { return fallback }
            guard let number = value.numberValue, number.rounded() == number, Double(range.lowerBound) <= number,
                  number <= Double(range.upperBound) else {
                throw SourceError.invalidDefinition(source: name, reason: "'\(key)' must be an integer in \(range)")
            }
            return Int(number)
        }
        var info = defaults
        info.type = type
        info.minzoom = try integer("minzoom", 0...TileID.maxZoom, defaults.minzoom)
        info.maxzoom = try integer("maxzoom", 0...TileID.maxZoom, defaults.maxzoom)
        guard info.minzoom <= info.maxzoom else {
            throw SourceError.invalidDefinition(source: name, reason:
                "minzoom \(info.minzoom) is above maxzoom \(info.maxzoom)")
        }
        info.tileSize = try integer("tileSize", 1...4096, defaults.tileSize)
        if let bounds = object["bounds"] {
            guard let numbers = bounds.arrayValue?.compactMap(\.numberValue), numbers.count == 4,
                  bounds.arrayValue?.count == 4 else {
                throw SourceError.invalidDefinition(source: name, reason: "'bounds' must be [west, south, east, north]")
            }
            info.bounds = numbers
        }
        if let scheme = object["scheme"] {
            guard let text = scheme.stringValue, let value = TileScheme(rawValue: text) else {
                throw SourceError.invalidDefinition(source: name, reason: "'scheme' must be \"xyz\" or \"tms\"")
            }
            info.scheme = value
        }
        if let attribution = object["attribution"]?.stringValue { info.attribution = attribution }
        if type == .vector, let encoding = object["encoding"] {
            guard let text = encoding.stringValue, let value = VectorTileEncoding(rawValue: text) else {
                throw SourceError.invalidDefinition(source: name, reason: "'encoding' of a vector source must be \"mvt\" or \"mlt\"")
            }
            info.vectorEncoding = value
        }
        return info
    }
}
