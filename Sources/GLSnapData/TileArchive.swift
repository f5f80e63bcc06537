import Foundation

/// Why a tile archive (an MBTiles or PMTiles file, or a folder of tiles) could not be written or
/// read back for merging: each case names the file and the call or rule that failed.
public enum TileArchiveError: Error, Equatable, Sendable, CustomStringConvertible {
    case sqlite(path: String, call: String, code: Int32, message: String)
    case io(path: String, call: String, reason: String)
    /// The archive exists but was started with other options (resuming it would mix two pyramids).
    case mismatch(path: String, reason: String)
    case unsupported(path: String, reason: String)

    public var description: String {
        switch self {
        case let .sqlite(path, call, code, message):
            return "tile archive \(path): \(call) failed with SQLite code \(code) (\(message))"
        case let .io(path, call, reason):
            return "tile archive \(path): \(call) failed (\(reason))"
        case let .mismatch(path, reason):
            return "tile archive \(path): \(reason)"
        case let .unsupported(path, reason):
            return "tile archive \(path): \(reason)"
        }
    }
}

/// What an archive says about its tiles (MBTiles 1.3's metadata table; PMTiles v3's header and
/// JSON metadata carry the same).
public struct TileArchiveMetadata: Sendable, Equatable {
    public var name: String
    /// `png`, `jpg` or `webp`.
    public var format: String
    /// West, south, east, north in degrees.
    public var bounds: [Double]
    /// Longitude, latitude, zoom.
    public var center: [Double]
    public var minZoom: Int
    public var maxZoom: Int
    public var attribution: String?
    /// Extra rows (e.g. `glsnap_run`: the options a pyramid was rendered with, checked on resume).
    public var extra: [String: String] = [:]

    public init(name: String, format: String, bounds: [Double], center: [Double], minZoom: Int, maxZoom: Int,
                attribution: String? = nil, extra: [String: String] = [:]) {
        self.name = name; self.format = format; self.bounds = bounds; self.center = center
        self.minZoom = minZoom; self.maxZoom = maxZoom; self.attribution = attribution; self.extra = extra
    }

    /// MBTiles 1.3 metadata rows.
    public var rows: [String: String] {
        func number(_ d: Double) -> String { d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d) }
        var rows = extra
        rows["name"] = name
        rows["format"] = format
        rows["type"] = "baselayer"
        rows["version"] = "1"
        rows["bounds"] = bounds.map(number).joined(separator: ",")
        rows["center"] = center.map(number).joined(separator: ",")
        rows["minzoom"] = String(minZoom)
        rows["maxzoom"] = String(maxZoom)
        if let attribution { rows["attribution"] = attribution }
        return rows
    }

    /// Metadata from MBTiles rows (nil when a required row is missing or not a number).
    public init?(rows: [String: String]) {
        func numbers(_ key: String) -> [Double]? {
            rows[key].map { $0.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) } }
        }
        guard let format = rows["format"], let bounds = numbers("bounds"), bounds.count == 4,
              let minZoom = rows["minzoom"].flatMap({ Int($0) }), let maxZoom = rows["maxzoom"].flatMap({ Int($0) }) else { return nil }
        let center = numbers("center") ?? []
        self.init(name: rows["name"] ?? "", format: format, bounds: bounds,
                  center: center.count == 3 ? center : [(bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2, Double(minZoom)],
                  minZoom: minZoom, maxZoom: maxZoom, attribution: rows["attribution"])
        let known: Set<String> = ["name", "format", "type", "version", "bounds", "center", "minzoom", "maxzoom", "attribution"]
        extra = rows.filter { !known.contains($0.key) }
    }
}

/// Where rendered tiles go: written in batches (one metatile's tiles at a time, each batch all
/// or nothing), asked which tiles it already holds (to resume), and finished with the metadata.
public protocol TileArchiveWriter: AnyObject {
    /// The tiles already written (by an earlier, interrupted run), or empty for a new archive.
    func existingTiles() throws -> Set<TileID>
    /// The metadata an earlier run started the archive with, if any.
    func startedMetadata() throws -> TileArchiveMetadata?
    /// Records the metadata at the start of a run (for resuming) before any tile.
    func start(_ metadata: TileArchiveMetadata) throws
    /// Writes the tiles of one batch: after a crash either all of them are there or none.
    func write(_ tiles: [(id: TileID, data: [UInt8])]) throws
    /// Completes the archive with `metadata`.
    func finish(_ metadata: TileArchiveMetadata) throws
}

/// Reads every tile of an archive, for `glsnap tiles merge`.
public protocol TileArchiveReader {
    var metadata: TileArchiveMetadata? { get }
    /// Calls `body` with every tile, in no promised order.
    func forEachTile(_ body: (TileID, [UInt8]) throws -> Void) throws
}

public enum TileArchive {
    /// The writer for `path`: `.mbtiles`, `.pmtiles`, else a folder of `{z}/{x}/{y}.ext` files.
    public static func writer(path: String, format: String) throws -> TileArchiveWriter {
        switch (path as NSString).pathExtension.lowercased() {
        case "mbtiles": return try MBTilesWriter(path: path)
        case "pmtiles": return try PMTilesWriter(path: path)
        default: return try TileFolderWriter(path: path, fileExtension: format)
        }
    }

    /// The reader for an archive `glsnap tiles` wrote: `.mbtiles`, `.pmtiles` or a folder.
    public static func reader(path: String) throws -> TileArchiveReader {
        switch (path as NSString).pathExtension.lowercased() {
        case "mbtiles": return try MBTilesWriter(path: path, readOnly: true)
        case "pmtiles": return try PMTilesArchiveReader(path: path)
        default:
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
                throw TileArchiveError.unsupported(path: path, reason: "not an .mbtiles or .pmtiles file nor a folder of tiles")
            }
            return try TileFolderWriter(path: path, fileExtension: nil)
        }
    }

    /// Copies every tile of `readers` into `writer` in batches of `batch` tiles and finishes it
    /// with `metadata`; a tile already written (in `writer` or by an earlier reader) is kept and
    /// the later copy skipped (the shards of one pyramid hold each tile once). Returns the
    /// number of tiles copied.
    @discardableResult
    public static func merge(_ readers: [TileArchiveReader], into writer: TileArchiveWriter, metadata: TileArchiveMetadata,
                             batch: Int = 256) throws -> Int {
        try writer.start(metadata)
        var have = try writer.existingTiles()
        var pending: [(id: TileID, data: [UInt8])] = []
        var count = 0
        for reader in readers {
            try reader.forEachTile { id, data in
                guard have.insert(id).inserted else { return }
                pending.append((id, data))
                count += 1
                if pending.count >= batch {
                    try writer.write(pending)
                    pending.removeAll(keepingCapacity: true)
                }
            }
        }
        if !pending.isEmpty { try writer.write(pending) }
        try writer.finish(metadata)
        return count
    }

    /// The metadata of merged archives: the first's, with the bounds and zooms of all.
    public static func mergedMetadata(_ all: [TileArchiveMetadata]) -> TileArchiveMetadata? {
        guard var m = all.first else { return nil }
        for o in all.dropFirst() {
            if o.bounds.count == 4, m.bounds.count == 4 {
                m.bounds = [min(o.bounds[0], m.bounds[0]), min(o.bounds[1], m.bounds[1]),
                            max(o.bounds[2], m.bounds[2]), max(o.bounds[3], m.bounds[3])]
            }
            m.minZoom = min(m.minZoom, o.minZoom)
            m.maxZoom = max(m.maxZoom, o.maxZoom)
        }
        return m
    }

    /// Writes `bytes` to `path` through a temporary file beside it renamed over it, so that a
    /// crash leaves either the old file or the new one, never part of one.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        var template = Array("\(folder.isEmpty ? "." : folder)/.\(name).glsnap-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw TileArchiveError.io(path: path, call: "mkstemp", reason: String(cString: strerror(errno))) }
        let temporary = String(cString: template)
        var ok = fchmod(fd, 0o644) == 0
        var offset = 0
        bytes.withUnsafeBytes { b in
            while ok, offset < b.count {
                let n = Glibc.write(fd, b.baseAddress! + offset, b.count - offset)
                if n < 0 { if errno == EINTR { continue }; ok = false; break }
                offset += n
            }
        }
        let reason = String(cString: strerror(errno))
        close(fd)
        guard ok, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw TileArchiveError.io(path: path, call: ok ? "rename" : "write", reason: ok ? String(cString: strerror(errno)) : reason)
        }
    }
}
