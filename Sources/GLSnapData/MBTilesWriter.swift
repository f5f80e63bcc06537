import CSQLite
import Foundation

/// Writes an MBTiles 1.3 file (SQLite: `tiles` with TMS rows, `metadata`), or reads one back for
/// merging.
///
/// The file is in WAL mode and every batch (one metatile) is one transaction, so a crash or a
/// `kill -9` loses at most the batch in flight and never the file; opened again, the tiles
/// already there are kept (`existingTiles`). `finish` writes the metadata and folds the WAL
/// back into the file (journal mode DELETE), leaving one self-contained `.mbtiles`.
public final class MBTilesWriter: TileArchiveWriter, TileArchiveReader {
    public let path: String
    private let db: OpaquePointer
    private var insert: OpaquePointer?
    private var select: OpaquePointer?

    /// Opens (creating when missing) `path`; `readOnly` opens an existing file for reading only.
    public init(path: String, readOnly: Bool = false) throws {
        self.path = path
        var handle: OpaquePointer?
        if readOnly, !FileManager.default.fileExists(atPath: path) {
            throw TileArchiveError.io(path: path, call: "open", reason: "no such file")
        }
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let status = sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw TileArchiveError.sqlite(path: path, call: "sqlite3_open_v2", code: status, message: message)
        }
        db = handle
        sqlite3_busy_timeout(db, 5000)
        guard !readOnly else { return }
        try exec("PRAGMA journal_mode=WAL")
        try exec("PRAGMA synchronous=NORMAL")
        try exec("CREATE TABLE IF NOT EXISTS metadata (name TEXT, value TEXT)")
        try exec("CREATE UNIQUE INDEX IF NOT EXISTS metadata_name ON metadata (name)")
        try exec("CREATE TABLE IF NOT EXISTS tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)")
        try exec("CREATE UNIQUE INDEX IF NOT EXISTS tile_index ON tiles (zoom_level, tile_column, tile_row)")
        insert = try prepare("INSERT OR REPLACE INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)")
    }

    deinit {
        sqlite3_finalize(insert)
        sqlite3_finalize(select)
        sqlite3_close_v2(db)
    }

    public func existingTiles() throws -> Set<TileID> {
        var ids = Set<TileID>()
        try query("SELECT zoom_level, tile_column, tile_row FROM tiles") { s in
            let z = Int(sqlite3_column_int(s, 0)), x = Int(sqlite3_column_int(s, 1)), row = Int(sqlite3_column_int(s, 2))
            guard (0...TileID.maxZoom).contains(z), let id = TileID(z: z, x: x, y: (1 << z) - 1 - row) else { return }
            ids.insert(id)
        }
        return ids
    }

    public var metadata: TileArchiveMetadata? { (try? rows()).flatMap { TileArchiveMetadata(rows: $0) } }

    public func startedMetadata() throws -> TileArchiveMetadata? {
        let rows = try rows()
        return rows.isEmpty ? nil : TileArchiveMetadata(rows: rows)
    }

    /// The metadata rows.
    public func rows() throws -> [String: String] {
        var rows: [String: String] = [:]
        // A file made by another tool may lack the table.
        guard (try? query("SELECT name, value FROM metadata", { s in
            guard let k = sqlite3_column_text(s, 0) else { return }
            rows[String(cString: k)] = sqlite3_column_text(s, 1).map { String(cString: $0) } ?? ""
        })) != nil else { return [:] }
        return rows
    }

    public func start(_ metadata: TileArchiveMetadata) throws { try setMetadata(metadata.rows) }

    public func write(_ tiles: [(id: TileID, data: [UInt8])]) throws {
        guard let insert else { throw TileArchiveError.unsupported(path: path, reason: "opened read-only") }
        try exec("BEGIN IMMEDIATE")
        do {
            for tile in tiles {
                sqlite3_bind_int(insert, 1, Int32(tile.id.z))
                sqlite3_bind_int(insert, 2, Int32(tile.id.x))
                sqlite3_bind_int(insert, 3, Int32(tile.id.tmsY))
                // SQLite copies the bytes before the array goes.
                tile.data.withUnsafeBytes { b in
                    _ = sqlite3_bind_blob(insert, 4, b.baseAddress, Int32(b.count), SQLITE_TRANSIENT_SWIFT)
                }
                let status = sqlite3_step(insert)
                sqlite3_reset(insert)
                guard status == SQLITE_DONE else { throw failure("sqlite3_step (INSERT tile \(tile.id))", status) }
            }
            try exec("COMMIT")
        } catch {
            try? exec("ROLLBACK")
            throw error
        }
    }

    public func finish(_ metadata: TileArchiveMetadata) throws {
        try setMetadata(metadata.rows)
        // Folds the WAL into the file; with another connection open (a reader) it stays in WAL
        // mode, every batch committed all the same.
        if (try? exec("PRAGMA wal_checkpoint(TRUNCATE)")) != nil { try? exec("PRAGMA journal_mode=DELETE") }
    }

    public func forEachTile(_ body: (TileID, [UInt8]) throws -> Void) throws {
        try query("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles ORDER BY zoom_level, tile_column, tile_row") { s in
            let z = Int(sqlite3_column_int(s, 0)), x = Int(sqlite3_column_int(s, 1)), row = Int(sqlite3_column_int(s, 2))
            guard (0...TileID.maxZoom).contains(z), let id = TileID(z: z, x: x, y: (1 << z) - 1 - row) else {
                throw TileArchiveError.unsupported(path: path, reason: "tile \(z)/\(x) row \(row) is outside the grid of its zoom")
            }
            let count = Int(sqlite3_column_bytes(s, 3))
            let bytes = count > 0 ? sqlite3_column_blob(s, 3).map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? [] : []
            try body(id, bytes)
        }
    }

    /// The bytes of tile `id`, nil when absent.
    public func tile(_ id: TileID) throws -> [UInt8]? {
        if select == nil { select = try prepare("SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?") }
        guard let s = select else { return nil }
        defer { sqlite3_reset(s) }
        sqlite3_bind_int(s, 1, Int32(id.z))
        sqlite3_bind_int(s, 2, Int32(id.x))
        sqlite3_bind_int(s, 3, Int32(id.tmsY))
        let status = sqlite3_step(s)
        if status == SQLITE_DONE { return nil }
        guard status == SQLITE_ROW else { throw failure("sqlite3_step (SELECT tile \(id))", status) }
        let count = Int(sqlite3_column_bytes(s, 0))
        return count > 0 ? sqlite3_column_blob(s, 0).map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? [] : []
    }

    private func setMetadata(_ rows: [String: String]) throws {
        let statement = try prepare("INSERT OR REPLACE INTO metadata (name, value) VALUES (?, ?)")
        defer { sqlite3_finalize(statement) }
        try exec("BEGIN IMMEDIATE")
        do {
            for (key, value) in rows.sorted(by: { $0.key < $1.key }) {
                sqlite3_bind_text(statement, 1, key, -1, SQLITE_TRANSIENT_SWIFT)
                sqlite3_bind_text(statement, 2, value, -1, SQLITE_TRANSIENT_SWIFT)
                let status = sqlite3_step(statement)
                sqlite3_reset(statement)
                guard status == SQLITE_DONE else { throw failure("sqlite3_step (INSERT metadata \(key))", status) }
            }
            try exec("COMMIT")
        } catch {
            try? exec("ROLLBACK")
            throw error
        }
    }

    // MARK: SQLite calls, each failure an error naming the call

    private func failure(_ call: String, _ status: Int32) -> TileArchiveError {
        .sqlite(path: path, call: call, code: status, message: String(cString: sqlite3_errmsg(db)))
    }

    private func exec(_ sql: String) throws {
        let status = sqlite3_exec(db, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw failure("sqlite3_exec (\(sql))", status) }
    }

    private func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw failure("sqlite3_prepare_v2 (\(sql))", status) }
        return statement
    }

    private func query(_ sql: String, _ row: (OpaquePointer) throws -> Void) throws {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { throw failure("sqlite3_step (\(sql))", status) }
            try row(statement)
        }
    }
}
