import Foundation

/// A source whose tiles are files named by URL templates (`tiles` in a style or TileJSON).
///
/// Templates may use `{z}`, `{x}`, `{y}` (`{y}` counts up from the south in the `tms` scheme),
/// `{quadkey}`, `{prefix}` (x mod 16 then y mod 16, two hex digits) and `{ratio}` (`@2x` for
/// raster tiles drawn at pixel ratio 2 or more, as MapLibre GL JS does; else empty). Several templates are used round-robin by x + y, as
/// MapLibre does. A tile file that does not exist is an empty tile (nil), not an error.
public final class TileURLSource: TileSource, Sendable {
    public let name: String
    public let templates: [String]
    public let info: SourceInfo
    public let resolver: ResourceResolver

    public init(name: String, templates: [String], info: SourceInfo, resolver: ResourceResolver) {
        precondition(!templates.isEmpty, "a tile URL source needs at least one template")
        self.name = name
        self.templates = templates
        self.info = info
        self.resolver = resolver
    }

    /// The URL of tile `id` (of the `@2x` set when `highDensity`).
    public func url(for id: TileID, highDensity: Bool = false) -> String {
        let template = templates[(id.x + id.y) % templates.count]
        return TileURLSource.expand(template, id, scheme: info.scheme, ratio: highDensity ? "@2x" : "")
    }

    /// Whether a template has `{ratio}`.
    public var hasHighDensityTiles: Bool { info.type == .raster && templates.contains { $0.contains("{ratio}") } }

    /// Fills a template's placeholders for `id`; `ratio` replaces `{ratio}`.
    public static func expand(_ template: String, _ id: TileID, scheme: TileScheme, ratio: String = "") -> String {
        guard template.contains("{") else { return template }
        let y = scheme == .tms ? id.tmsY : id.y
        var out = template
        out = out.replacingAll("{z}", String(id.z))
        out = out.replacingAll("{x}", String(id.x))
        out = out.replacingAll("{y}", String(y))
        if out.contains("{quadkey}") { out = out.replacingAll("{quadkey}", quadkey(id)) }
        if out.contains("{prefix}") {
            out = out.replacingAll("{prefix}", String(id.x % 16, radix: 16) + String(id.y % 16, radix: 16))
        }
        out = out.replacingAll("{ratio}", ratio)
        return out
    }

    /// The Bing-style quadkey of `id` (one base-4 digit per zoom level).
    public static func quadkey(_ id: TileID) -> String {
        var key = ""
        key.reserveCapacity(id.z)
        for level in stride(from: id.z, to: 0, by: -1) {
            let mask = 1 << (level - 1)
            var digit = 0
            if id.x & mask != 0 { digit += 1 }
            if id.y & mask != 0 { digit += 2 }
            key.append(Character(String(digit)))
        }
        return key
    }

    /// The stored bytes of `id`; nil outside zooms/bounds or when the file is missing.
    public func tileData(_ id: TileID) throws -> [UInt8]? {
        guard info.covers(id) else { return nil }
        return try resolver.loadIfPresent(url(for: id))
    }

    /// The file path or URL of tile `id`.
    public func tileLocation(_ id: TileID, highDensity: Bool = false) -> String? {
        (try? resolver.location(for: url(for: id, highDensity: highDensity)))?.text
    }

    /// The decoded tile; an empty file decodes to a tile without layers.
    public func vectorTile(_ id: TileID) throws -> VectorTile? {
        guard info.type == .vector, let bytes = try tileData(id) else { return nil }
        do { return try VectorTile.decode(bytes, encoding: info.vectorEncoding) } catch let error as TileDecodeError {
            throw SourceError.badTile(source: name, tile: tileLocation(id).map { "\(id) (\($0))" } ?? id.description, error: error)
        }
    }

    /// The encoded image; nil when missing or empty (the renderer may fall back to a parent).
    public func rasterTile(_ id: TileID) throws -> [UInt8]? {
        try rasterTile(id, highDensity: false)
    }

    /// The encoded image of the `@2x` set when `highDensity`; nil when missing or empty.
    public func rasterTile(_ id: TileID, highDensity: Bool) throws -> [UInt8]? {
        guard info.type == .raster, info.covers(id),
              let bytes = try resolver.loadIfPresent(url(for: id, highDensity: highDensity)), !bytes.isEmpty else { return nil }
        return bytes
    }
}

extension String {
    func replacingAll(_ target: String, _ replacement: String) -> String {
        guard contains(target) else { return self }
        return components(separatedBy: target).joined(separator: replacement)
    }
}
