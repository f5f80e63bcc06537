import Foundation
import GLSnapStyle

/// Writes a PMTiles v3 archive: clustered (tile data in tile-id order), identical tiles stored
/// once (runs of equal neighbours as one entry), a root directory within the first 16 KiB and
/// leaf directories when the entries do not fit there; directories and metadata uncompressed.
///
/// A PMTiles file cannot grow tile by tile (its directories come before the data), so tiles go
/// to a resumable store first: an MBTiles file beside the archive (`.NAME.glsnap-tiles`, WAL,
/// one transaction per batch). `finish` assembles the archive from it in one pass, writes it
/// to a temporary file renamed over `path`, and removes the store. An interrupted run leaves
/// the store, and the next run with the same `path` resumes from it.
public final class PMTilesWriter: TileArchiveWriter {
    public let path: String
    /// Where tiles wait until `finish`.
    public let storePath: String
    private let store: MBTilesWriter

    /// Root directory and header together stay within this many bytes (the spec's 16 KiB, so a
    /// reader's first request holds both).
    static let rootBudget = 16_384

    public init(path: String) throws {
        self.path = path
        let folder = (path as NSString).deletingLastPathComponent
        storePath = (folder.isEmpty ? "" : folder + "/") + "." + (path as NSString).lastPathComponent + ".glsnap-tiles"
        store = try MBTilesWriter(path: storePath)
    }

    public func existingTiles() throws -> Set<TileID> { try store.existingTiles() }
    public func startedMetadata() throws -> TileArchiveMetadata? { try store.startedMetadata() }
    public func start(_ metadata: TileArchiveMetadata) throws { try store.start(metadata) }
    public func write(_ tiles: [(id: TileID, data: [UInt8])]) throws { try store.write(tiles) }

    public func finish(_ metadata: TileArchiveMetadata) throws {
        try store.finish(metadata)
        // First pass: ids, lengths and a hash of each tile, in tile-id order.
        var tiles: [(tileID: UInt64, id: TileID, length: Int, hash: UInt64)] = []
        try store.forEachTile { id, data in
            tiles.append((PMTilesDirectory.tileID(id), id, data.count, PMTilesWriter.hash(data)))
        }
        tiles.sort { $0.tileID < $1.tileID }
        // Entries; a tile whose bytes were stored already points at them.
        var entries: [PMTilesEntry] = []
        var stored: [UInt64: (offset: UInt64, length: UInt64, id: TileID)] = [:]
        var toWrite: [TileID] = []
        var dataLength: UInt64 = 0
        var contents: UInt64 = 0
        for t in tiles {
            let length = UInt64(t.length)
            var offset: UInt64
            if let s = stored[t.hash], s.length == length, try sameBytes(s.id, t.id) {
                offset = s.offset
            } else {
                offset = dataLength
                stored[t.hash] = (offset, length, t.id)
                toWrite.append(t.id)
                dataLength += length
                contents += 1
            }
            if var last = entries.last, last.offset == offset, last.length == length, last.tileID + last.runLength == t.tileID {
                last.runLength += 1
                entries[entries.count - 1] = last
            } else {
                entries.append(PMTilesEntry(tileID: t.tileID, offset: offset, length: length, runLength: 1))
            }
        }
        let (root, leaves) = PMTilesWriter.directories(entries)
        let json = PMTilesWriter.metadataJSON(metadata)
        var header = PMTilesWriter.Layout(rootOffset: UInt64(PMTilesHeader.size), rootLength: UInt64(root.count))
        header.metadataOffset = header.rootOffset + header.rootLength
        header.metadataLength = UInt64(json.count)
        header.leafOffset = header.metadataOffset + header.metadataLength
        header.leafLength = UInt64(leaves.count)
        header.dataOffset = header.leafOffset + header.leafLength
        header.dataLength = dataLength
        header.addressedTiles = UInt64(tiles.count)
        header.tileEntries = UInt64(entries.count)
        header.tileContents = contents
        let head = PMTilesWriter.headerBytes(header, metadata)

        let output = try AssembledFile(path: path)
        try output.append(head)
        try output.append(root)
        try output.append(json)
        try output.append(leaves)
        for id in toWrite {
            guard let data = try store.tile(id) else {
                throw TileArchiveError.unsupported(path: storePath, reason: "tile \(id) vanished while the archive was assembled")
            }
            try output.append(data)
        }
        try output.commit()
        for suffix in ["", "-wal", "-shm"] { unlink(storePath + suffix) }
    }

    private func sameBytes(_ a: TileID, _ b: TileID) throws -> Bool {
        try store.tile(a) == store.tile(b)
    }

    /// FNV-1a, 64 bits: finds candidate duplicates (equal bytes are then compared).
    static func hash(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }

    // MARK: Directories

    /// A directory as the spec encodes it: the count, then delta-coded tile ids, run lengths,
    /// lengths, and offsets (0: right after the previous entry, else offset + 1), all varints.
    static func encode(_ entries: ArraySlice<PMTilesEntry>) -> [UInt8] {
        var out: [UInt8] = []
        func varint(_ v: UInt64) {
            var v = v
            while v >= 0x80 { out.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
            out.append(UInt8(v))
        }
        varint(UInt64(entries.count))
        var last: UInt64 = 0
        for e in entries { varint(e.tileID - last); last = e.tileID }
        for e in entries { varint(e.runLength) }
        for e in entries { varint(e.length) }
        var previous: PMTilesEntry?
        for e in entries {
            if let p = previous, e.offset == p.offset + p.length { varint(0) } else { varint(e.offset + 1) }
            previous = e
        }
        return out
    }

    /// The root directory and the leaf section: all entries in the root when they fit beside the
    /// header in `rootBudget` bytes, else leaves of `leafSize` entries (doubled until the root
    /// of leaf pointers fits).
    static func directories(_ entries: [PMTilesEntry]) -> (root: [UInt8], leaves: [UInt8]) {
        let whole = encode(entries[...])
        if whole.count + PMTilesHeader.size <= rootBudget { return (whole, []) }
        var leafSize = 4096
        while true {
            var leaves: [UInt8] = []
            var pointers: [PMTilesEntry] = []
            var start = 0
            while start < entries.count {
                let end = min(entries.count, start + leafSize)
                let leaf = encode(entries[start..<end])
                pointers.append(PMTilesEntry(tileID: entries[start].tileID, offset: UInt64(leaves.count), length: UInt64(leaf.count), runLength: 0))
                leaves += leaf
                start = end
            }
            let root = encode(pointers[...])
            if root.count + PMTilesHeader.size <= rootBudget { return (root, leaves) }
            leafSize *= 2
        }
    }

    // MARK: Header and metadata

    struct Layout {
        var rootOffset: UInt64, rootLength: UInt64
        var metadataOffset: UInt64 = 0, metadataLength: UInt64 = 0
        var leafOffset: UInt64 = 0, leafLength: UInt64 = 0
        var dataOffset: UInt64 = 0, dataLength: UInt64 = 0
        var addressedTiles: UInt64 = 0, tileEntries: UInt64 = 0, tileContents: UInt64 = 0
    }

    /// The spec's tile type of an image format: 2 PNG, 3 JPEG, 4 WebP (0 unknown).
    static func tileType(_ format: String) -> UInt8 {
        switch format { case "png": 2; case "jpg", "jpeg": 3; case "webp": 4; default: 0 }
    }

    static func headerBytes(_ l: Layout, _ m: TileArchiveMetadata) -> [UInt8] {
        var out = Array("PMTiles".utf8) + [3]
        func u64(_ v: UInt64) { for i in 0..<8 { out.append(UInt8((v >> (8 * UInt64(i))) & 0xFF)) } }
        func i32(_ degrees: Double) {
            let v = UInt32(bitPattern: Int32((degrees * 10_000_000).rounded()))
            for i in 0..<4 { out.append(UInt8((v >> (8 * UInt32(i))) & 0xFF)) }
        }
        for v in [l.rootOffset, l.rootLength, l.metadataOffset, l.metadataLength, l.leafOffset, l.leafLength,
                  l.dataOffset, l.dataLength, l.addressedTiles, l.tileEntries, l.tileContents] { u64(v) }
        // Clustered; directories not compressed; tiles not compressed; the image type.
        out += [1, 1, 1, tileType(m.format)]
        out += [UInt8(clamping: m.minZoom), UInt8(clamping: m.maxZoom)]
        let b = m.bounds.count == 4 ? m.bounds : [-180, -Mercator.maxLatitude, 180, Mercator.maxLatitude]
        i32(b[0]); i32(b[1]); i32(b[2]); i32(b[3])
        let c = m.center.count == 3 ? m.center : [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2, Double(m.minZoom)]
        out.append(UInt8(clamping: Int(c[2])))
        i32(c[0]); i32(c[1])
        return out
    }

    /// The JSON metadata: the MBTiles rows as strings (as `pmtiles convert` carries them).
    static func metadataJSON(_ m: TileArchiveMetadata) -> [UInt8] {
        var rows = m.rows
        rows.removeValue(forKey: "bounds"); rows.removeValue(forKey: "center")
        rows.removeValue(forKey: "minzoom"); rows.removeValue(forKey: "maxzoom")
        let object = Dictionary(uniqueKeysWithValues: rows.map { ($0.key, $0.value) })
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return Array(data)
    }
}

/// A file written through a temporary name beside `path` and renamed over it when complete.
final class AssembledFile {
    let path: String
    private let temporary: String
    private let fd: Int32
    private var done = false

    init(path: String) throws {
        self.path = path
        let folder = (path as NSString).deletingLastPathComponent
        var template = Array("\(folder.isEmpty ? "." : folder)/.\((path as NSString).lastPathComponent).glsnap-XXXXXX".utf8CString)
        fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw TileArchiveError.io(path: path, call: "mkstemp", reason: String(cString: strerror(errno))) }
        temporary = String(cString: template)
        fchmod(fd, 0o644)
    }

    deinit {
        if !done { close(fd); unlink(temporary) }
    }

    func append(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { b in
            var offset = 0
            while offset < b.count {
                let n = Glibc.write(fd, b.baseAddress! + offset, b.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw TileArchiveError.io(path: path, call: "write", reason: String(cString: strerror(errno)))
                }
                offset += n
            }
        }
    }

    func commit() throws {
        done = true
        guard fsync(fd) == 0, close(fd) == 0, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw TileArchiveError.io(path: path, call: "fsync/close/rename", reason: reason)
        }
    }
}

/// Every tile of a PMTiles v3 archive, for merging: the directories followed from the root
/// (leaves at most `PMTilesSource.maxLeafDepth` deep), each read checked against the file.
public struct PMTilesArchiveReader: TileArchiveReader {
    public let path: String
    public let source: PMTilesSource

    public init(path: String) throws {
        self.path = path
        source = try PMTilesSource(path: path)
    }

    public var metadata: TileArchiveMetadata? {
        let h = source.header
        var rows: [String: String] = [:]
        if case .object(let o)? = source.metadata {
            for (k, v) in o { if case .string(let s) = v { rows[k] = s } }
        }
        let format = rows["format"] ?? [2: "png", 3: "jpg", 4: "webp"][h.tileType] ?? "png"
        return TileArchiveMetadata(name: rows["name"] ?? "", format: format, bounds: h.bounds,
                                   center: [h.center[0], h.center[1], Double(h.centerZoom)], minZoom: h.minZoom, maxZoom: h.maxZoom,
                                   attribution: rows["attribution"],
                                   extra: rows.filter { !["name", "format", "attribution", "type", "version"].contains($0.key) })
    }

    public func forEachTile(_ body: (TileID, [UInt8]) throws -> Void) throws {
        let h = source.header
        let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? file.close() }
        let size = try file.seekToEnd()
        func read(_ offset: UInt64, _ length: UInt64, _ what: String) throws -> [UInt8] {
            let (end, overflow) = offset.addingReportingOverflow(length)
            guard !overflow, end <= size, length <= UInt64(PMTilesSource.maxTileBytes) else {
                throw SourceError.invalidPMTiles(path: path, reason: "\(what) (\(length) bytes at \(offset)) lies past the end of the file")
            }
            try file.seek(toOffset: offset)
            return [UInt8](try file.read(upToCount: Int(length)) ?? Data())
        }
        func directory(_ offset: UInt64, _ length: UInt64) throws -> [PMTilesEntry] {
            let raw = try read(offset, length, "a directory")
            let bytes = h.internalCompression == 2 ? try Inflate.inflate(raw, limit: PMTilesSource.maxDirectoryBytes) : raw
            return try PMTilesDirectory.decode(bytes, path: path)
        }
        func walk(_ entries: [PMTilesEntry], depth: Int) throws {
            for e in entries {
                if e.runLength == 0 {
                    guard depth < PMTilesSource.maxLeafDepth else {
                        throw SourceError.invalidPMTiles(path: path, reason: "leaf directories nest deeper than \(PMTilesSource.maxLeafDepth)")
                    }
                    try walk(try directory(h.leafOffset + e.offset, e.length), depth: depth + 1)
                    continue
                }
                var data = try read(h.dataOffset + e.offset, e.length, "a tile")
                if h.tileCompression == 2 { data = try Inflate.inflate(data) }
                for i in 0..<e.runLength {
                    guard let id = PMTilesDirectory.tile(forID: e.tileID + i) else {
                        throw SourceError.invalidPMTiles(path: path, reason: "tile id \(e.tileID + i) is past zoom \(TileID.maxZoom)")
                    }
                    try body(id, data)
                }
            }
        }
        try walk(try directory(h.rootOffset, h.rootLength), depth: 0)
    }
}

extension PMTilesDirectory {
    /// The tile of a Hilbert tile id (the inverse of `tileID(_:)`); nil past `TileID.maxZoom`.
    public static func tile(forID id: UInt64) -> TileID? {
        var z = 0
        var base: UInt64 = 0
        while z <= TileID.maxZoom {
            let count = UInt64(1) << (2 * UInt64(z))
            if id < base + count { break }
            base += count
            z += 1
        }
        guard z <= TileID.maxZoom else { return nil }
        let n = UInt64(1) << UInt64(z)
        var t = id - base
        var x: UInt64 = 0, y: UInt64 = 0
        var s: UInt64 = 1
        while s < n {
            let rx = 1 & (t / 2)
            let ry = 1 & (t ^ rx)
            if ry == 0 {
                if rx == 1 { x = s - 1 - x; y = s - 1 - y }
                swap(&x, &y)
            }
            x += s * rx
            y += s * ry
            t /= 4
            s *= 2
        }
        return TileID(z: z, x: Int(x), y: Int(y))
    }
}
