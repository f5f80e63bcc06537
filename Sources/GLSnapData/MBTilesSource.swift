import CSQLite
import Foundation
import GLSnapStyle

/// The `metadata` table of an MBTiles file (MBTiles 1.3), the rows glsnap reads parsed.
public struct MBTilesMetadata: Sendable {
    public var name: String?
    /// `pbf` for vector tiles; `png`, `jpg`, `webp` for raster.
    public var format: String?
    public var minzoom: Int?
    public var maxzoom: Int?
    /// West, south, east, north in degrees.
    public var bounds: [Double]?
    public var attribution: String?
    /// The `json` row parsed (it holds `vector_layers`); nil when absent or not JSON.
    public var json: JSON?
    /// Every row as text.
    public var rows: [String: String]
}

/// A tile source over an MBTiles (SQLite) file, opened read-only.
///
/// One connection serves all threads behind a lock; only the row lookup and the blob copy hold
/// it, decoding runs outside. Requests use XYZ tile ids; rows are stored TMS (y up) as the
/// MBTiles spec says, and converted here.
public final class MBTilesSource: TileSource, @unchecked Sendable {
    public let path: String
    public let metadata: MBTilesMetadata
    public let info: SourceInfo
    /// The source name used in error messages.
    public let name: String

    private let lock = NSLock()
    // Guarded by `lock`; sqlite3 connection and the prepared tile query.
    private let db: OpaquePointer
    private let tileQuery: OpaquePointer

    /// Opens `path` read-only and reads its metadata. `info` comes from the metadata (format
    /// `pbf` is vector, anything else raster; tileSize 512), passed through `adjust` when given
    /// (to apply a style's own keys).
    public init(path: String, name: String? = nil,
                adjust: ((SourceInfo, MBTilesMetadata) throws -> SourceInfo)? = nil) throws {
        self.path = path
        self.name = name ?? path
        guard FileManager.default.fileExists(atPath: path) else {
            throw SourceError.fileNotFound(path: path, url: path)
        }
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw SourceError.sqlite(path: path, call: "sqlite3_open_v2", code: status, message: message)
        }
        do {
            let metadata = try MBTilesSource.readMetadata(handle, path: path)
            self.metadata = metadata
            self.tileQuery = try MBTilesSource.prepare(
                handle, path: path,
                "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?")
            let defaults = MBTilesSource.info(from: metadata)
            self.info = try adjust?(defaults, metadata) ?? defaults
        } catch {
            sqlite3_close_v2(handle)
            throw error
        }
        self.db = handle
    }

    deinit {
        sqlite3_finalize(tileQuery)
        sqlite3_close_v2(db)
    }

    /// The SourceInfo an MBTiles file's metadata describes.
    public static func info(from metadata: MBTilesMetadata) -> SourceInfo {
        // "mlt" (MapLibre Tiles) is a vector format too; the style's `encoding` may also say so.
        let format = metadata.format ?? "pbf"
        let isVector = format == "pbf" || format == "mlt"
        var info = SourceInfo(type: isVector ? .vector : .raster,
                              minzoom: metadata.minzoom ?? 0, maxzoom: metadata.maxzoom ?? 22,
                              tileSize: 512, bounds: metadata.bounds, scheme: .xyz,
                              attribution: metadata.attribution)
        if format == "mlt" { info.vectorEncoding = .mlt }
        return info
    }

    /// The stored bytes of tile `id` (possibly gzip-compressed), or nil when there is no row.
    public func tileData(_ id: TileID) throws -> [UInt8]? {
        lock.lock()
        defer { lock.unlock() }
        defer { sqlite3_reset(tileQuery) }
        sqlite3_bind_int(tileQuery, 1, Int32(id.z))
        sqlite3_bind_int(tileQuery, 2, Int32(id.x))
        sqlite3_bind_int(tileQuery, 3, Int32(id.tmsY))
        let status = sqlite3_step(tileQuery)
        switch status {
        case SQLITE_ROW:
            let count = Int(sqlite3_column_bytes(tileQuery, 0))
            guard count > 0, let blob = sqlite3_column_blob(tileQuery, 0) else { return [] }
            return Array(UnsafeRawBufferPointer(start: blob, count: count))
        case SQLITE_DONE:
            return nil
        default:
            throw SourceError.sqlite(path: path, call: "sqlite3_step", code: status,
                                     message: String(cString: sqlite3_errmsg(db)))
        }
    }

    /// The decoded tile at `id`; nil outside the source's zooms and bounds or when no row exists.
    public func vectorTile(_ id: TileID) throws -> VectorTile? {
        guard info.type == .vector, info.covers(id), let bytes = try tileData(id) else { return nil }
        do { return try VectorTile.decode(bytes, encoding: info.vectorEncoding) } catch let error as TileDecodeError {
            throw SourceError.badTile(source: name, tile: id.description, error: error)
        }
    }

    /// The encoded image at `id` for a raster MBTiles; nil when there is none.
    public func rasterTile(_ id: TileID) throws -> [UInt8]? {
        guard info.type == .raster, info.covers(id) else { return nil }
        return try tileData(id)
    }

    // MARK: SQLite helpers

    private static func prepare(_ db: OpaquePointer, path: String, _ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else {
            throw SourceError.sqlite(path: path, call: "sqlite3_prepare_v2", code: status,
                                     message: String(cString: sqlite3_errmsg(db)))
        }
        return statement
    }

    private static func readMetadata(_ db: OpaquePointer, path: String) throws -> MBTilesMetadata {
        let statement = try prepare(db, path: path, "SELECT name, value FROM metadata")
        defer { sqlite3_finalize(statement) }
        var rows: [String: String] = [:]
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else {
                throw SourceError.sqlite(path: path, call: "sqlite3_step", code: status,
                                         message: String(cString: sqlite3_errmsg(db)))
            }
            guard let key = sqlite3_column_text(statement, 0) else { continue }
            let value = sqlite3_column_text(statement, 1).map { String(cString: $0) } ?? ""
            rows[String(cString: key)] = value
        }
        var metadata = MBTilesMetadata(rows: rows)
        metadata.name = rows["name"]
        metadata.format = rows["format"]
        metadata.attribution = rows["attribution"]
        metadata.minzoom = rows["minzoom"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        metadata.maxzoom = rows["maxzoom"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        if let text = rows["bounds"] {
            let parts = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 4 else {
                throw SourceError.invalidMBTiles(path: path, reason: "metadata 'bounds' is '\(text)', not four numbers")
            }
            metadata.bounds = parts
        }
        if let text = rows["json"] { metadata.json = try? JSON.parse(text) }
        return metadata
    }
}
