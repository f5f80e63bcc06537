import Foundation
import XCTest
@testable import GLSnapData

/// Decoded PMTiles leaf directories are cached within a byte budget, not by count.
final class PMTilesLeafCacheTests: XCTestCase {
    private func varint(_ value: UInt64, into bytes: inout [UInt8]) {
        var v = value
        while v >= 0x80 { bytes.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
        bytes.append(UInt8(v))
    }

    /// An uncompressed directory of `entries` (offsets written explicitly).
    private func directory(_ entries: [PMTilesEntry]) -> [UInt8] {
        var bytes: [UInt8] = []
        varint(UInt64(entries.count), into: &bytes)
        var last: UInt64 = 0
        for e in entries { varint(e.tileID - last, into: &bytes); last = e.tileID }
        for e in entries { varint(e.runLength, into: &bytes) }
        for e in entries { varint(e.length, into: &bytes) }
        for e in entries { varint(e.offset + 1, into: &bytes) }
        return bytes
    }

    private func u64(_ value: UInt64, into bytes: inout [UInt8], at offset: Int) {
        for i in 0..<8 { bytes[offset + i] = UInt8((value >> (8 * UInt64(i))) & 0xFF) }
    }

    /// An archive whose root points at one large leaf per tile of `targets`; each leaf holds
    /// `perLeaf` one-byte tiles starting at its target. Returns the path.
    private func archive(targets: [TileID], perLeaf: Int, in dir: URL) throws -> String {
        let ids = targets.map(PMTilesDirectory.tileID).sorted()
        var leafSection: [UInt8] = []
        var root: [PMTilesEntry] = []
        for (i, id) in ids.enumerated() {
            let count = i + 1 < ids.count ? min(UInt64(perLeaf), ids[i + 1] - id) : UInt64(perLeaf)
            let leaf = directory((0..<count).map { PMTilesEntry(tileID: id + $0, offset: 0, length: 1, runLength: 1) })
            root.append(PMTilesEntry(tileID: id, offset: UInt64(leafSection.count), length: UInt64(leaf.count), runLength: 0))
            leafSection += leaf
        }
        let rootBytes = directory(root)
        var header = [UInt8](repeating: 0, count: PMTilesHeader.size)
        header.replaceSubrange(0..<7, with: Array("PMTiles".utf8))
        header[7] = 3
        let rootOffset = UInt64(PMTilesHeader.size)
        let leafOffset = rootOffset + UInt64(rootBytes.count)
        let dataOffset = leafOffset + UInt64(leafSection.count)
        u64(rootOffset, into: &header, at: 8); u64(UInt64(rootBytes.count), into: &header, at: 16)
        u64(leafOffset, into: &header, at: 40); u64(UInt64(leafSection.count), into: &header, at: 48)
        u64(dataOffset, into: &header, at: 56); u64(1, into: &header, at: 64)
        header[97] = 1  // directories uncompressed
        header[98] = 1; header[99] = 2  // PNG tiles, uncompressed
        header[100] = 0; header[101] = 14
        let url = dir.appendingPathComponent("leaves.pmtiles")
        try Data(header + rootBytes + leafSection + [0x42]).write(to: url)
        return url.path
    }

    func testLeafDirectoriesStayWithinTheirByteBudget() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("glsnap-pmtiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let targets = (0..<8).compactMap { TileID(z: 12, x: $0 * 500, y: 1000) }
        let perLeaf = 20_000
        let path = try archive(targets: targets, perLeaf: perLeaf, in: dir)
        let oneLeaf = perLeaf * MemoryLayout<PMTilesEntry>.stride
        // Room for two leaves: each new leaf evicts the least recently used.
        let source = try PMTilesSource(path: path, leafCacheBytes: 2 * oneLeaf + 1000)
        for t in targets {
            XCTAssertEqual(try source.tileData(t), [0x42], "\(t)")
            XCTAssertLessThanOrEqual(source.cachedLeafBytes, source.leafCacheBytes)
        }
        XCTAssertGreaterThan(source.cachedLeafBytes, oneLeaf, "the most recent leaves are kept")
        // The tile just read is served from its cached leaf: its bytes stay counted once.
        let before = source.cachedLeafBytes
        XCTAssertEqual(try source.tileData(targets.last!), [0x42])
        XCTAssertEqual(source.cachedLeafBytes, before)
        // A budget smaller than one leaf keeps none, and every tile still reads.
        let tiny = try PMTilesSource(path: path, leafCacheBytes: oneLeaf / 2)
        for t in targets { XCTAssertEqual(try tiny.tileData(t), [0x42]) }
        XCTAssertEqual(tiny.cachedLeafBytes, 0)
    }
}
