import Foundation
import GLSnapData
import GLSnapStyle

/// One served data set: an MBTiles file or a PMTiles archive (tileserver-gl's `mbtiles` and
/// `pmtiles` data entries), told apart by the file's first bytes.
enum DataFile {
    case mbtiles(MBTilesSource)
    case pmtiles(PMTilesSource)

    static func open(path: String, id: String) throws -> DataFile {
        isPMTiles(path) ? .pmtiles(try PMTilesSource(path: path, name: id)) : .mbtiles(try MBTilesSource(path: path, name: id))
    }

    /// The tile as stored (a vector tile possibly gzip-compressed), nil when there is none.
    func tileData(_ tile: TileID) throws -> [UInt8]? {
        switch self {
        case .mbtiles(let s): return try s.tileData(tile)
        case .pmtiles(let s): return try s.tileData(tile)
        }
    }

    /// The file as a tile source (decoded vector tiles).
    var source: TileSource {
        switch self {
        case .mbtiles(let s): return s
        case .pmtiles(let s): return s
        }
    }

    /// The tiles' extension: `pbf`, `png`, `jpg`, `webp` (`avif` for PMTiles type 5).
    var format: String {
        switch self {
        case .mbtiles(let s):
            let f = (s.metadata.format ?? "pbf").lowercased()
            return isSafeName(f) && f.utf8.count <= 8 ? f : "pbf"
        case .pmtiles(let s):
            switch s.header.tileType {
            case 2: return "png"
            case 3: return "jpg"
            case 4: return "webp"
            case 5: return "avif"
            default: return "pbf"
            }
        }
    }

    /// When the metadata lists no `vector_layers` (MapLibre GL JS then refuses every `source-layer`):
    /// the layers of the tile at the data's center at its minzoom, as `[{"id": name, "fields": {}}]`.
    func layersNearCenter() -> [[String: Any]] {
        guard format == "pbf" else { return [] }
        let o = tileJSONFields
        guard let b = o["bounds"] as? [Double], b.count == 4 else { return [] }
        let z = min(TileID.maxZoom, max(0, o["minzoom"] as? Int ?? 0))
        let p = Mercator.project(lon: (b[0] + b[2]) / 2, lat: (b[1] + b[3]) / 2)
        let n = 1 << z
        guard let tile = TileID(z: z, x: min(n - 1, max(0, Int(p.x * Double(n)))), y: min(n - 1, max(0, Int(p.y * Double(n))))),
              let vt = try? source.vectorTile(tile) else { return [] }
        return vt.layers.keys.sorted().map { ["id": $0, "fields": [String: Any]()] }
    }

    /// TileJSON keys from the file's metadata: name, minzoom, maxzoom, bounds, attribution, vector_layers.
    var tileJSONFields: [String: Any] {
        var o: [String: Any] = [:]
        switch self {
        case .mbtiles(let s):
            let m = s.metadata
            o["minzoom"] = m.minzoom ?? 0
            o["maxzoom"] = m.maxzoom ?? 22
            if let n = m.name { o["name"] = n }
            if let b = m.bounds { o["bounds"] = b }
            if let a = m.attribution { o["attribution"] = a }
            if let text = m.rows["json"], let j = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
               let layers = j["vector_layers"] {
                o["vector_layers"] = layers
            }
        case .pmtiles(let s):
            o["minzoom"] = s.header.minZoom
            o["maxzoom"] = s.header.maxZoom
            o["bounds"] = s.header.bounds
            if s.header.center.count == 2 { o["center"] = s.header.center + [Double(s.header.centerZoom)] }
            if let n = s.metadata?["name"]?.stringValue { o["name"] = n }
            if let a = s.metadata?["attribution"]?.stringValue { o["attribution"] = a }
            if let layers = s.metadata?["vector_layers"] { o["vector_layers"] = layers.foundationValue }
        }
        return o
    }
}

/// Whether `path` starts with PMTiles' magic bytes ("PMTiles").
func isPMTiles(_ path: String) -> Bool {
    guard let h = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? h.close() }
    return (try? h.read(upToCount: 7)).map { Array($0) == Array("PMTiles".utf8) } ?? false
}

extension JSON {
    /// The value as Foundation objects (for JSONSerialization).
    var foundationValue: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let b): return b
        case .number(let n): return n
        case .string(let s): return s
        case .array(let a): return a.map(\.foundationValue)
        case .object(let o): return o.mapValues(\.foundationValue)
        }
    }
}
