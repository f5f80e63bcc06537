import CSQLite
import Foundation

/// HTTP responses kept in an SQLite file between runs: URL → body, validators, when it was
/// received and how long it stays fresh. Bounded by bytes; the least recently used responses
/// go first. One connection behind a lock serves every thread; WAL mode and a busy timeout let
/// several processes share the file.
///
/// The cache never fails a fetch: a file that is not an SQLite database or is corrupt is
/// deleted and made anew, other failures turn the cache off; each is reported in `warnings`.
final class HTTPDiskCache: @unchecked Sendable {
    let path: String
    let budget: Int

    private let lock = NSLock()
    // Guarded by `lock`.
    private var db: OpaquePointer?
    private var totalBytes = 0
    private var lastAccess: Int64 = 0
    private var problems: [String] = []

    /// Entries removed at once when the cache is over its budget.
    private static let evictionBatch = 64
    private static let busyTimeoutMilliseconds: Int32 = 5000

    private static let schema = """
        PRAGMA journal_mode=WAL;
        CREATE TABLE IF NOT EXISTS responses (url TEXT PRIMARY KEY, body BLOB, missing INTEGER NOT NULL,
            etag TEXT, last_modified TEXT, fetched REAL NOT NULL, lifetime REAL, size INTEGER NOT NULL,
            accessed INTEGER NOT NULL);
        CREATE INDEX IF NOT EXISTS responses_accessed ON responses(accessed);
        """

    init(path: String, budget: Int) {
        self.path = path
        self.budget = max(0, budget)
        lock.lock(); defer { lock.unlock() }
        openDatabase(resetIfBroken: true)
    }

    deinit { sqlite3_close_v2(db) }

    /// Problems met so far (a reset file, a cache turned off), oldest first.
    var warnings: [String] { lock.lock(); defer { lock.unlock() }; return problems }

    /// The stored response of `url`, marked as just used; nil when there is none.
    func lookup(_ url: String) -> CachedResponse? {
        lock.lock(); defer { lock.unlock() }
        guard db != nil else { return nil }
        var found: CachedResponse?
        let status = run("SELECT body, missing, etag, last_modified, fetched, lifetime FROM responses WHERE url = ?1",
                         bind: { sqlite3_bind_text($0, 1, url, -1, SQLITE_TRANSIENT_SWIFT) }) { row in
            var body: [UInt8]?
            if sqlite3_column_int(row, 1) == 0 {
                let count = Int(sqlite3_column_bytes(row, 0))
                if count > 0, let blob = sqlite3_column_blob(row, 0) {
                    body = [UInt8](UnsafeRawBufferPointer(start: blob, count: count))
                } else {
                    body = []
                }
            }
            found = CachedResponse(body: body, etag: HTTPDiskCache.text(row, 2), lastModified: HTTPDiskCache.text(row, 3),
                                   fetched: sqlite3_column_double(row, 4),
                                   lifetime: sqlite3_column_type(row, 5) == SQLITE_NULL ? nil : sqlite3_column_double(row, 5))
        }
        guard check(status, "reading") else { return nil }
        if found != nil {
            let access = nextAccess()
            _ = check(run("UPDATE responses SET accessed = ?1 WHERE url = ?2", bind: {
                sqlite3_bind_int64($0, 1, access); sqlite3_bind_text($0, 2, url, -1, SQLITE_TRANSIENT_SWIFT)
            }), "updating")
        }
        return found
    }

    /// Keeps `response` for `url` (replacing what was there), then evicts down to the budget.
    func store(_ url: String, _ response: CachedResponse) {
        let size = response.cost(url: url)
        lock.lock(); defer { lock.unlock() }
        guard db != nil, size <= budget else { return }
        let access = nextAccess()
        let status = run("""
            INSERT OR REPLACE INTO responses (url, body, missing, etag, last_modified, fetched, lifetime, size, accessed)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            """, bind: { s in
            sqlite3_bind_text(s, 1, url, -1, SQLITE_TRANSIENT_SWIFT)
            if let body = response.body {
                _ = body.withUnsafeBytes { sqlite3_bind_blob(s, 2, $0.baseAddress, Int32($0.count), SQLITE_TRANSIENT_SWIFT) }
            } else {
                sqlite3_bind_null(s, 2)
            }
            sqlite3_bind_int(s, 3, response.body == nil ? 1 : 0)
            HTTPDiskCache.bind(s, 4, response.etag)
            HTTPDiskCache.bind(s, 5, response.lastModified)
            sqlite3_bind_double(s, 6, response.fetched)
            if let l = response.lifetime { sqlite3_bind_double(s, 7, l) } else { sqlite3_bind_null(s, 7) }
            sqlite3_bind_int64(s, 8, Int64(size))
            sqlite3_bind_int64(s, 9, access)
        })
        guard check(status, "writing") else { return }
        // Counts a replaced row twice; the exact sum is taken before evicting.
        totalBytes += size
        if totalBytes > budget { evict() }
    }

    /// Records that the stored response of `url` was confirmed unchanged (after a 304).
    func refresh(_ url: String, _ response: CachedResponse) {
        lock.lock(); defer { lock.unlock() }
        guard db != nil else { return }
        let access = nextAccess()
        _ = check(run("UPDATE responses SET etag = ?1, last_modified = ?2, fetched = ?3, lifetime = ?4, accessed = ?5 WHERE url = ?6",
                      bind: { s in
            HTTPDiskCache.bind(s, 1, response.etag)
            HTTPDiskCache.bind(s, 2, response.lastModified)
            sqlite3_bind_double(s, 3, response.fetched)
            if let l = response.lifetime { sqlite3_bind_double(s, 4, l) } else { sqlite3_bind_null(s, 4) }
            sqlite3_bind_int64(s, 5, access)
            sqlite3_bind_text(s, 6, url, -1, SQLITE_TRANSIENT_SWIFT)
        }), "updating")
    }

    /// Removes `url` (a response that may no longer be kept).
    func remove(_ url: String) {
        lock.lock(); defer { lock.unlock() }
        guard db != nil else { return }
        _ = check(run("DELETE FROM responses WHERE url = ?1", bind: { sqlite3_bind_text($0, 1, url, -1, SQLITE_TRANSIENT_SWIFT) }),
                  "deleting")
    }

    // MARK: - Under the lock

    /// Removes the least recently used rows until the stored bytes fit the budget.
    private func evict() {
        totalBytes = sum()
        while totalBytes > budget, db != nil {
            var victims: [(String, Int)] = []
            let status = run("SELECT url, size FROM responses ORDER BY accessed ASC LIMIT \(HTTPDiskCache.evictionBatch)", row: { row in
                victims.append((HTTPDiskCache.text(row, 0) ?? "", Int(sqlite3_column_int64(row, 1))))
            })
            guard check(status, "evicting"), !victims.isEmpty else { return }
            for (url, size) in victims where totalBytes > budget {
                guard check(run("DELETE FROM responses WHERE url = ?1",
                                bind: { sqlite3_bind_text($0, 1, url, -1, SQLITE_TRANSIENT_SWIFT) }), "evicting") else { return }
                totalBytes -= size
            }
        }
    }

    private func sum() -> Int {
        var total = 0
        _ = check(run("SELECT COALESCE(SUM(size), 0) FROM responses", row: { total = Int(sqlite3_column_int64($0, 0)) }), "reading")
        return total
    }

    /// A use counter that follows the clock (so several processes order uses alike) and never repeats.
    private func nextAccess() -> Int64 {
        lastAccess = max(lastAccess + 1, Int64(Date().timeIntervalSince1970 * 1_000_000))
        return lastAccess
    }

    private func openDatabase(resetIfBroken: Bool) {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        var status = sqlite3_open_v2(path, &handle, flags, nil)
        if status == SQLITE_OK, let handle {
            db = handle
            sqlite3_busy_timeout(handle, HTTPDiskCache.busyTimeoutMilliseconds)
            status = sqlite3_exec(handle, HTTPDiskCache.schema, nil, nil, nil)
            if status == SQLITE_OK {
                var total = 0
                status = run("SELECT COALESCE(SUM(size), 0) FROM responses", row: { total = Int(sqlite3_column_int64($0, 0)) })
                if status == SQLITE_DONE { totalBytes = total; return }
            }
        }
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
        sqlite3_close_v2(handle)
        db = nil
        if resetIfBroken, HTTPDiskCache.isBroken(status) {
            deleteFiles()
            problems.append("the HTTP cache \(path) was unreadable (\(message)); it was deleted and started anew")
            openDatabase(resetIfBroken: false)
        } else {
            problems.append("the HTTP cache \(path) cannot be used (\(message), SQLite code \(status)); fetching without it")
        }
    }

    private static func isBroken(_ status: Int32) -> Bool {
        let primary = status & 0xff
        return primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB
    }

    private func deleteFiles() {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }

    /// True when `status` is a success; otherwise resets a corrupt file or turns the cache off.
    private func check(_ status: Int32, _ action: String) -> Bool {
        if status == SQLITE_OK || status == SQLITE_DONE || status == SQLITE_ROW { return true }
        let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? ""
        sqlite3_close_v2(db)
        db = nil
        if HTTPDiskCache.isBroken(status) {
            deleteFiles()
            problems.append("the HTTP cache \(path) became unreadable while \(action) (\(message)); it was deleted and started anew")
            openDatabase(resetIfBroken: false)
        } else if status & 0xff == SQLITE_BUSY {
            problems.append("the HTTP cache \(path) stayed locked by another process while \(action); fetching without it")
        } else {
            problems.append("the HTTP cache \(path) failed while \(action) (\(message), SQLite code \(status)); fetching without it")
        }
        return false
    }

    /// Prepares `sql`, binds, and steps through every row; the last status (SQLITE_DONE when all went well).
    private func run(_ sql: String, bind: (OpaquePointer) -> Void = { _ in }, row: (OpaquePointer) -> Void = { _ in }) -> Int32 {
        guard let db else { return SQLITE_MISUSE }
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
        guard prepared == SQLITE_OK, let statement else { sqlite3_finalize(statement); return prepared }
        defer { sqlite3_finalize(statement) }
        bind(statement)
        while true {
            let status = sqlite3_step(statement)
            guard status == SQLITE_ROW else { return status }
            row(statement)
        }
    }

    private static func text(_ statement: OpaquePointer, _ column: Int32) -> String? {
        sqlite3_column_text(statement, column).map { String(cString: $0) }
    }

    private static func bind(_ statement: OpaquePointer, _ index: Int32, _ value: String?) {
        if let value { sqlite3_bind_text(statement, index, value, -1, SQLITE_TRANSIENT_SWIFT) } else { sqlite3_bind_null(statement, index) }
    }
}

/// SQLite's SQLITE_TRANSIENT (copy the bound value now), which the C macro hides from Swift.
let SQLITE_TRANSIENT_SWIFT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
