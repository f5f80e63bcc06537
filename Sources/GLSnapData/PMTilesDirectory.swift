/// The fixed 127-byte header of a PMTiles v3 archive.
public struct PMTilesHeader: Sendable, Equatable {
    public var rootOffset: UInt64, rootLength: UInt64
    public var metadataOffset: UInt64, metadataLength: UInt64
    public var leafOffset: UInt64, leafLength: UInt64
    public var dataOffset: UInt64, dataLength: UInt64
    public var addressedTiles: UInt64, tileEntries: UInt64, tileContents: UInt64
    public var clustered: Bool
    /// 0 unknown, 1 none, 2 gzip, 3 brotli, 4 zstd.
    public var internalCompression: UInt8
    public var tileCompression: UInt8
    /// 0 unknown, 1 MVT, 2 PNG, 3 JPEG, 4 WebP, 5 AVIF.
    public var tileType: UInt8
    public var minZoom: Int, maxZoom: Int
    /// West, south, east, north in degrees.
    public var bounds: [Double]
    public var centerZoom: Int
    public var center: [Double]

    public static let size = 127

    /// Parses the first 127 bytes; throws `invalidPMTiles` naming `path` for a wrong magic or version.
    public init(_ bytes: [UInt8], path: String) throws {
        guard bytes.count >= PMTilesHeader.size else {
            throw SourceError.invalidPMTiles(path: path, reason: "the file is \(bytes.count) bytes, shorter than the 127-byte header")
        }
        guard bytes[0..<7].elementsEqual("PMTiles".utf8) else {
            throw SourceError.invalidPMTiles(path: path, reason: "the file does not start with 'PMTiles'")
        }
        guard bytes[7] == 3 else {
            throw SourceError.invalidPMTiles(path: path, reason: "version \(bytes[7]) is not supported (only version 3)")
        }
        func u64(_ at: Int) -> UInt64 { (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) } }
        func i32(_ at: Int) -> Double {
            let raw = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) }
            return Double(Int32(bitPattern: raw)) / 10_000_000
        }
        rootOffset = u64(8); rootLength = u64(16)
        metadataOffset = u64(24); metadataLength = u64(32)
        leafOffset = u64(40); leafLength = u64(48)
        dataOffset = u64(56); dataLength = u64(64)
        addressedTiles = u64(72); tileEntries = u64(80); tileContents = u64(88)
        clustered = bytes[96] == 1
        internalCompression = bytes[97]; tileCompression = bytes[98]; tileType = bytes[99]
        minZoom = Int(bytes[100]); maxZoom = Int(bytes[101])
        bounds = [i32(102), i32(106), i32(110), i32(114)]
        centerZoom = Int(bytes[118])
        center = [i32(119), i32(123)]
    }
}

/// One directory entry: `runLength` consecutive tile ids from `tileID` share the bytes at
/// `offset` (relative to the tile data section); `runLength` 0 names a leaf directory (offset
/// relative to the leaf section).
public struct PMTilesEntry: Sendable, Equatable {
    public var tileID: UInt64
    public var offset: UInt64
    public var length: UInt64
    public var runLength: UInt64

    public init(tileID: UInt64, offset: UInt64, length: UInt64, runLength: UInt64) {
        self.tileID = tileID; self.offset = offset; self.length = length; self.runLength = runLength
    }
}

public enum PMTilesDirectory {
    /// The Hilbert tile id of `id` (ids count up through zoom levels, then along a Hilbert curve).
    public static func tileID(_ id: TileID) -> UInt64 {
        let z = UInt64(id.z)
        var x = UInt64(id.x), y = UInt64(id.y)
        let n = UInt64(1) << z
        var d: UInt64 = 0
        var s = n >> 1
        while s > 0 {
            let rx: UInt64 = x & s != 0 ? 1 : 0
            let ry: UInt64 = y & s != 0 ? 1 : 0
            d += s * s * ((3 * rx) ^ ry)
            if ry == 0 {
                if rx == 1 { x = n - 1 - x; y = n - 1 - y }
                swap(&x, &y)
            }
            s >>= 1
        }
        return ((UInt64(1) << (2 * z)) - 1) / 3 + d
    }

    /// Decodes an uncompressed directory: a count, then delta-coded ids, run lengths, lengths and
    /// offsets (0 after the first entry: right after the previous entry's bytes), all varints.
    public static func decode(_ bytes: [UInt8], path: String) throws -> [PMTilesEntry] {
        var position = 0
        func varint() throws -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard position < bytes.count else {
                    throw SourceError.invalidPMTiles(path: path, reason: "a directory ends inside a number (broken directory)")
                }
                let byte = bytes[position]
                position += 1
                guard shift < 64 else { throw SourceError.invalidPMTiles(path: path, reason: "a directory number is longer than 64 bits") }
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
        }
        let count = try varint()
        // Each entry takes at least four bytes, so a count above that is a broken directory.
        guard count <= UInt64(bytes.count / 4) else {
            throw SourceError.invalidPMTiles(path: path, reason: "a directory claims \(count) entries in \(bytes.count) bytes")
        }
        var entries = [PMTilesEntry](repeating: PMTilesEntry(tileID: 0, offset: 0, length: 0, runLength: 0), count: Int(count))
        var last: UInt64 = 0
        for i in entries.indices {
            let (sum, overflow) = last.addingReportingOverflow(try varint())
            guard !overflow, i == 0 || sum > last else {
                throw SourceError.invalidPMTiles(path: path, reason: "directory tile ids are not increasing")
            }
            last = sum
            entries[i].tileID = sum
        }
        for i in entries.indices { entries[i].runLength = try varint() }
        for i in entries.indices { entries[i].length = try varint() }
        for i in entries.indices {
            let value = try varint()
            if value == 0 && i > 0 {
                let (next, overflow) = entries[i - 1].offset.addingReportingOverflow(entries[i - 1].length)
                guard !overflow else { throw SourceError.invalidPMTiles(path: path, reason: "a directory offset overflows") }
                entries[i].offset = next
            } else if value == 0 {
                throw SourceError.invalidPMTiles(path: path, reason: "the first directory entry has no offset")
            } else {
                entries[i].offset = value - 1
            }
        }
        return entries
    }

    /// The entry whose range holds `tileID` or the leaf that may hold it: the last entry with an
    /// id not above it. nil when none can.
    public static func find(_ tileID: UInt64, in entries: [PMTilesEntry]) -> PMTilesEntry? {
        var low = 0, high = entries.count - 1
        var found: Int?
        while low <= high {
            let mid = (low + high) / 2
            if entries[mid].tileID <= tileID { found = mid; low = mid + 1 } else { high = mid - 1 }
        }
        guard let i = found else { return nil }
        let e = entries[i]
        if e.runLength == 0 || tileID - e.tileID < e.runLength { return e }
        return nil
    }
}
