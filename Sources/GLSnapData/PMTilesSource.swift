import Foundation
import GLSnapStyle

/// A tile source over a local PMTiles v3 archive (one file: header, root directory, metadata,
/// leaf directories, tile data).
///
/// Every read is checked against the file's size, directories are capped in size and depth, and
/// a broken directory is an `invalidPMTiles` error naming the file. Decoded leaf directories are
/// cached within a byte budget (`DataLimits.pmtilesLeafCacheBytes`). Thread-safe: reads use `pread` on one descriptor; the leaf cache is behind a lock.
public final class PMTilesSource: TileSource, @unchecked Sendable {
    public let path: String
    /// The source name used in error messages.
    public let name: String
    public let header: PMTilesHeader
    /// The JSON metadata (it holds `vector_layers`, `attribution` …); nil when absent or not JSON.
    public let metadata: JSON?
    public let info: SourceInfo

    private let fd: Int32
    private let fileSize: UInt64
    private let root: [PMTilesEntry]
    private let lock = NSLock()
    /// Decoded leaf directories by file offset, with the bytes they take and when they were last used.
    private var leaves: [UInt64: (entries: [PMTilesEntry], bytes: Int, used: UInt64)] = [:]
    private var leafBytes = 0
    private var leafClock: UInt64 = 0
    /// The byte budget of the leaf cache.
    public let leafCacheBytes: Int

    /// The most bytes of one compressed directory, and of one decompressed directory.
    public static let maxDirectoryBytes = 16 << 20
    /// The most bytes of one tile.
    public static let maxTileBytes = DataLimits.maxInflatedBytes
    /// Directory levels below the root that are followed.
    static let maxLeafDepth = 4

    /// Opens `path` and reads its header, root directory and metadata. `info` comes from the
    /// header (MVT is vector, other tile types raster; tileSize 512), passed through `adjust`
    /// when given (to apply a style's own keys).
    public init(path: String, name: String? = nil, leafCacheBytes: Int = DataLimits.pmtilesLeafCacheBytes,
                adjust: ((SourceInfo, PMTilesHeader) throws -> SourceInfo)? = nil) throws {
        self.path = path
        self.leafCacheBytes = leafCacheBytes
        self.name = name ?? path
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw SourceError.fileNotFound(path: path, url: path) }
            throw SourceError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        var stats = stat()
        guard fstat(fd, &stats) == 0, stats.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw SourceError.unreadable(path: path, reason: "not a regular file")
        }
        self.fd = fd
        fileSize = UInt64(stats.st_size)
        do {
            let head = try PMTilesSource.read(fd: fd, fileSize: fileSize, path: path, offset: 0,
                                              length: UInt64(min(UInt64(PMTilesHeader.size), fileSize)), what: "the header")
            let header = try PMTilesHeader(head, path: path)
            self.header = header
            guard header.internalCompression == 1 || header.internalCompression == 2 else {
                throw SourceError.invalidPMTiles(path: path, reason: "directory compression \(header.internalCompression) is not supported (only none and gzip)")
            }
            guard header.tileType == 1 || header.tileCompression == 1 || header.tileCompression == 2 else {
                throw SourceError.invalidPMTiles(path: path, reason: "tile compression \(header.tileCompression) is not supported (only none and gzip)")
            }
            guard header.minZoom <= header.maxZoom, header.maxZoom <= TileID.maxZoom else {
                throw SourceError.invalidPMTiles(path: path, reason: "zooms \(header.minZoom)...\(header.maxZoom) are not valid")
            }
            root = try PMTilesSource.directory(fd: fd, fileSize: fileSize, path: path, header: header,
                                               offset: header.rootOffset, length: header.rootLength, what: "the root directory")
            var metadata: JSON?
            if header.metadataLength > 0 && header.metadataLength <= UInt64(PMTilesSource.maxDirectoryBytes) {
                let raw = try PMTilesSource.read(fd: fd, fileSize: fileSize, path: path, offset: header.metadataOffset,
                                                 length: header.metadataLength, what: "the metadata")
                let text = header.internalCompression == 2 ? try PMTilesSource.inflate(raw, path: path, what: "the metadata") : raw
                metadata = try? JSON.parse(text)
            }
            self.metadata = metadata
            let defaults = SourceInfo(type: header.tileType == 1 ? .vector : .raster, minzoom: header.minZoom, maxzoom: header.maxZoom,
                                      tileSize: 512, bounds: header.bounds, scheme: .xyz,
                                      attribution: metadata?["attribution"]?.stringValue)
            info = try adjust?(defaults, header) ?? defaults
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    /// The stored bytes of tile `id` (possibly gzip-compressed for vector tiles), or nil when the
    /// archive has no tile there.
    public func tileData(_ id: TileID) throws -> [UInt8]? {
        let target = PMTilesDirectory.tileID(id)
        var entries = root
        for depth in 0...PMTilesSource.maxLeafDepth {
            guard let entry = PMTilesDirectory.find(target, in: entries) else { return nil }
            if entry.runLength > 0 {
                guard entry.length <= UInt64(PMTilesSource.maxTileBytes) else {
                    throw SourceError.invalidPMTiles(path: path, reason: "tile \(id) claims \(entry.length) bytes, over the \(PMTilesSource.maxTileBytes)-byte limit")
                }
                let (start, overflow) = header.dataOffset.addingReportingOverflow(entry.offset)
                guard !overflow else { throw SourceError.invalidPMTiles(path: path, reason: "tile \(id) has an offset past the file") }
                return try PMTilesSource.read(fd: fd, fileSize: fileSize, path: path, offset: start, length: entry.length, what: "tile \(id)")
            }
            guard depth < PMTilesSource.maxLeafDepth else { break }
            entries = try leaf(entry)
        }
        throw SourceError.invalidPMTiles(path: path, reason: "leaf directories nest deeper than \(PMTilesSource.maxLeafDepth) levels (broken directory)")
    }

    private func leaf(_ entry: PMTilesEntry) throws -> [PMTilesEntry] {
        let (start, overflow) = header.leafOffset.addingReportingOverflow(entry.offset)
        guard !overflow else { throw SourceError.invalidPMTiles(path: path, reason: "a leaf directory offset overflows (broken directory)") }
        lock.lock()
        if let cached = leaves[start] {
            leafClock += 1
            leaves[start]?.used = leafClock
            lock.unlock()
            return cached.entries
        }
        lock.unlock()
        let entries = try PMTilesSource.directory(fd: fd, fileSize: fileSize, path: path, header: header,
                                                  offset: start, length: entry.length, what: "a leaf directory")
        let bytes = entries.count * MemoryLayout<PMTilesEntry>.stride + PMTilesSource.leafOverhead
        lock.lock(); defer { lock.unlock() }
        // A leaf larger than the whole budget is used once and not kept.
        guard bytes <= leafCacheBytes, leaves[start] == nil else { return entries }
        while leafBytes + bytes > leafCacheBytes, let oldest = leaves.min(by: { $0.value.used < $1.value.used }) {
            leafBytes -= oldest.value.bytes
            leaves[oldest.key] = nil
        }
        leafClock += 1
        leaves[start] = (entries, bytes, leafClock)
        leafBytes += bytes
        return entries
    }

    /// Bytes counted for a cached leaf beside its entries (the array header and the table slot).
    static let leafOverhead = 96

    /// The bytes of decoded leaf directories cached now (within `leafCacheBytes`).
    public var cachedLeafBytes: Int {
        lock.lock(); defer { lock.unlock() }
        return leafBytes
    }

    public func vectorTile(_ id: TileID) throws -> VectorTile? {
        guard info.type == .vector, info.covers(id), let bytes = try tileData(id) else { return nil }
        do { return try VectorTile.decode(bytes, encoding: info.vectorEncoding) } catch let error as TileDecodeError {
            throw SourceError.badTile(source: name, tile: id.description, error: error)
        }
    }

    public func rasterTile(_ id: TileID) throws -> [UInt8]? {
        guard info.type == .raster, info.covers(id), let bytes = try tileData(id), !bytes.isEmpty else { return nil }
        guard header.tileCompression == 2 else { return bytes }
        do { return try Inflate.inflate(bytes) } catch let error as TileDecodeError {
            throw SourceError.badTile(source: name, tile: id.description, error: error)
        }
    }

    // MARK: Bounded reads

    private static func directory(fd: Int32, fileSize: UInt64, path: String, header: PMTilesHeader,
                                  offset: UInt64, length: UInt64, what: String) throws -> [PMTilesEntry] {
        guard length <= UInt64(maxDirectoryBytes) else {
            throw SourceError.invalidPMTiles(path: path, reason: "\(what) is \(length) bytes, over the \(maxDirectoryBytes)-byte limit (broken directory)")
        }
        let raw = try read(fd: fd, fileSize: fileSize, path: path, offset: offset, length: length, what: what)
        let bytes = header.internalCompression == 2 ? try inflate(raw, path: path, what: what) : raw
        return try PMTilesDirectory.decode(bytes, path: path)
    }

    private static func inflate(_ bytes: [UInt8], path: String, what: String) throws -> [UInt8] {
        do { return try Inflate.inflate(bytes, limit: maxDirectoryBytes) } catch {
            throw SourceError.invalidPMTiles(path: path, reason: "\(what) does not decompress: \(error)")
        }
    }

    /// `length` bytes at `offset`, which must lie within the file.
    private static func read(fd: Int32, fileSize: UInt64, path: String, offset: UInt64, length: UInt64, what: String) throws -> [UInt8] {
        let (end, overflow) = offset.addingReportingOverflow(length)
        guard !overflow, end <= fileSize else {
            throw SourceError.invalidPMTiles(path: path, reason: "\(what) (\(length) bytes at offset \(offset)) lies past the end of the \(fileSize)-byte file")
        }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        var filled = 0
        while filled < bytes.count {
            let n = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return pread(fd, base + filled, buffer.count - filled, off_t(offset) + off_t(filled))
            }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                throw SourceError.unreadable(path: path, reason: n < 0 ? String(cString: strerror(errno)) : "the file shrank while being read")
            }
            filled += n
        }
        return bytes
    }
}
