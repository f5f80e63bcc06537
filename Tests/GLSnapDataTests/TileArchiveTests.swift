import Foundation
import XCTest
@testable import GLSnapData

/// The archive writers of `glsnap tiles`, read back through the project's own readers.
final class TileArchiveTests: XCTestCase {
    private var folder: String = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "glsnap-archive-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private let metadata = TileArchiveMetadata(name: "test", format: "png", bounds: [-87.8, 41.7, -87.5, 41.9],
                                               center: [-87.65, 41.8, 7], minZoom: 7, maxZoom: 9, attribution: "© test",
                                               extra: ["glsnap_run": "options"])

    /// Tiles of zooms 7-9 over a box, each with bytes naming it; every fifth tile repeats one
    /// shared payload (as blank tiles do), so runs and duplicates are exercised.
    private func tiles(zooms: ClosedRange<Int> = 7...9, side: Int = 4) -> [(id: TileID, data: [UInt8])] {
        var out: [(id: TileID, data: [UInt8])] = []
        for z in zooms {
            for y in 0..<min(side, 1 << z) {
                for x in 0..<min(side, 1 << z) {
                    let id = TileID(z: z, x: x, y: y)!
                    // Fixed-length names: no payload is a prefix of another.
                    let name = String(format: "tile %02d/%04d/%04d", z, x, y)
                    out.append((id, (x + y) % 5 == 0 ? Array("blank".utf8) : Array(name.utf8)))
                }
            }
        }
        return out
    }

    func testMBTilesRoundTripThroughTheReader() throws {
        let path = folder + "/a.mbtiles"
        let writer = try MBTilesWriter(path: path)
        try writer.start(metadata)
        let all = tiles()
        try writer.write(Array(all.prefix(10)))
        try writer.write(Array(all.dropFirst(10)))
        try writer.finish(metadata)

        let source = try MBTilesSource(path: path)
        XCTAssertEqual(source.metadata.format, "png")
        XCTAssertEqual(source.metadata.minzoom, 7)
        XCTAssertEqual(source.metadata.maxzoom, 9)
        XCTAssertEqual(source.metadata.bounds, [-87.8, 41.7, -87.5, 41.9])
        XCTAssertEqual(source.metadata.attribution, "© test")
        XCTAssertEqual(source.metadata.rows["center"], "-87.65,41.8,7")
        XCTAssertEqual(source.metadata.rows["name"], "test")
        for tile in all { XCTAssertEqual(try source.tileData(tile.id), tile.data, "\(tile.id)") }
        // Stored in TMS rows, as the spec says: XYZ 7/1/0 is row 127.
        XCTAssertEqual(try MBTilesWriter(path: path, readOnly: true).existingTiles(), Set(all.map(\.id)))
        // The WAL is folded back: one self-contained file.
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-wal") && ((try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0) > 0)
    }

    func testPMTilesRoundTripWithLeafDirectories() throws {
        // 3 zooms of 48 x 48 tiles: 6912 tiles, more entries than fit in a 16 KiB root.
        let all = tiles(zooms: 7...9, side: 48)
        let path = folder + "/a.pmtiles"
        let writer = try PMTilesWriter(path: path)
        try writer.start(metadata)
        for start in stride(from: 0, to: all.count, by: 1000) { try writer.write(Array(all[start..<min(all.count, start + 1000)])) }
        try writer.finish(metadata)
        XCTAssertFalse(FileManager.default.fileExists(atPath: writer.storePath), "the tile store is removed once assembled")

        let source = try PMTilesSource(path: path)
        let h = source.header
        XCTAssertTrue(h.clustered)
        XCTAssertEqual(h.tileType, 2)
        XCTAssertEqual(h.minZoom, 7)
        XCTAssertEqual(h.maxZoom, 9)
        XCTAssertEqual(h.addressedTiles, UInt64(all.count))
        XCTAssertGreaterThan(h.leafLength, 0, "entries past the root's 16 KiB go to leaf directories")
        XCTAssertLessThanOrEqual(Int(h.rootOffset + h.rootLength), 16_384)
        // The shared payload is stored once.
        XCTAssertEqual(h.tileContents, UInt64(Set(all.map(\.data)).count))
        XCTAssertEqual(h.bounds[0], -87.8, accuracy: 1e-7)
        XCTAssertEqual(h.center[1], 41.8, accuracy: 1e-7)
        XCTAssertEqual(source.metadata?["attribution"]?.stringValue, "© test")
        for tile in all { XCTAssertEqual(try source.tileData(tile.id), tile.data, "\(tile.id)") }
        XCTAssertNil(try source.tileData(TileID(z: 8, x: 100, y: 100)!))
        // Tile data is in tile-id order (clustered): offsets grow with the Hilbert id.
        let file = try Data(contentsOf: URL(fileURLWithPath: path))
        var lastOffset = -1
        var seen = Set<[UInt8]>()
        for tile in all.sorted(by: { PMTilesDirectory.tileID($0.id) < PMTilesDirectory.tileID($1.id) }) where seen.insert(tile.data).inserted {
            let offset = try XCTUnwrap(file.range(of: Data(tile.data))?.lowerBound)
            XCTAssertGreaterThan(offset, lastOffset)
            lastOffset = offset
        }
    }

    func testInterruptedArchivesKeepTheirTilesAndResume() throws {
        let all = tiles()
        for name in ["a.mbtiles", "a.pmtiles", "folder"] {
            let path = folder + "/" + name
            do {
                // A run that stops (is killed) after two batches: no finish.
                let writer = try TileArchive.writer(path: path, format: "png")
                try writer.start(metadata)
                try writer.write(Array(all.prefix(5)))
                try writer.write(Array(all[5..<12]))
            }
            let again = try TileArchive.writer(path: path, format: "png")
            XCTAssertEqual(try again.existingTiles(), Set(all.prefix(12).map(\.id)), name)
            XCTAssertEqual(try again.startedMetadata()?.extra["glsnap_run"], "options", name)
            try again.write(Array(all.dropFirst(12)))
            try again.finish(metadata)
            var back: [TileID: [UInt8]] = [:]
            try TileArchive.reader(path: path).forEachTile { back[$0] = $1 }
            XCTAssertEqual(back.count, all.count, name)
            for tile in all { XCTAssertEqual(back[tile.id], tile.data, "\(name) \(tile.id)") }
        }
    }

    func testMergeCombinesShardsIntoEachForm() throws {
        let all = tiles()
        let a = try MBTilesWriter(path: folder + "/s1.mbtiles"), b = try TileFolderWriter(path: folder + "/s2", fileExtension: "png")
        try a.start(metadata); try a.write(Array(all.prefix(20))); try a.finish(metadata)
        var second = metadata
        second.bounds = [-88, 41.6, -87.6, 41.8]
        try b.start(second); try b.write(Array(all.dropFirst(20))); try b.finish(second)
        let readers: [TileArchiveReader] = [try TileArchive.reader(path: folder + "/s1.mbtiles"), try TileArchive.reader(path: folder + "/s2")]
        let merged = try XCTUnwrap(TileArchive.mergedMetadata(readers.compactMap(\.metadata)))
        XCTAssertEqual(merged.bounds, [-88, 41.6, -87.5, 41.9])
        for out in ["m.pmtiles", "m.mbtiles", "m"] {
            let count = try TileArchive.merge(readers, into: try TileArchive.writer(path: folder + "/" + out, format: "png"), metadata: merged)
            XCTAssertEqual(count, all.count, out)
            var back: [TileID: [UInt8]] = [:]
            try TileArchive.reader(path: folder + "/" + out).forEachTile { back[$0] = $1 }
            XCTAssertEqual(back.count, all.count, out)
            for tile in all { XCTAssertEqual(back[tile.id], tile.data, "\(out) \(tile.id)") }
            XCTAssertEqual(try TileArchive.reader(path: folder + "/" + out).metadata?.bounds, merged.bounds, out)
        }
    }

    func testMetadataRowsRoundTrip() throws {
        let back = try XCTUnwrap(TileArchiveMetadata(rows: metadata.rows))
        XCTAssertEqual(back, metadata)
        XCTAssertNil(TileArchiveMetadata(rows: ["format": "png"]), "bounds and zooms are required")
    }
}
