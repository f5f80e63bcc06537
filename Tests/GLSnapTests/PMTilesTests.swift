import Foundation
import GLSnap
import GLSnapData
import XCTest

/// PMTiles v3 archives made from the Chicago MBTiles by tools/mbtiles-to-pmtiles.py.
final class PMTilesTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try TestPaths.temporaryDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    private var mbtilesPath: String {
        TestPaths.shared.appendingPathComponent("fixtures/tiles/chicago-z13.mbtiles").path
    }

    /// Converts the Chicago MBTiles; skips when python3 is missing.
    private func convert(_ name: String, leafSize: Int? = nil) throws -> String {
        _ = try TestPaths.requireShared()
        guard let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("python3 is not installed")
        }
        let output = dir.appendingPathComponent(name).path
        let script = TestPaths.root.appendingPathComponent("tools/mbtiles-to-pmtiles.py").path
        let result = try runProcess(python, [script, mbtilesPath, output] + (leafSize.map { ["--leaf-size", String($0)] } ?? []))
        XCTAssertEqual(result.status, 0, result.stderr)
        return output
    }

    func testHilbertTileIDs() {
        let cases: [(Int, Int, Int, UInt64)] = [(0, 0, 0, 0), (1, 0, 0, 1), (1, 0, 1, 2), (1, 1, 1, 3), (1, 1, 0, 4),
                                                (2, 0, 0, 5), (12, 3423, 1763, 19_078_479)]
        for (z, x, y, expected) in cases {
            XCTAssertEqual(PMTilesDirectory.tileID(TileID(z: z, x: x, y: y)!), expected, "\(z)/\(x)/\(y)")
        }
    }

    func testEveryTileMatchesTheMBTiles() throws {
        let mbtiles = try MBTilesSource(path: try { _ = try TestPaths.requireShared(); return mbtilesPath }())
        for (file, leafSize) in [("root.pmtiles", nil), ("leaves.pmtiles", 4)] as [(String, Int?)] {
            let archive = try PMTilesSource(path: try convert(file, leafSize: leafSize))
            XCTAssertEqual(archive.info.type, .vector)
            XCTAssertEqual(archive.info.minzoom, 13)
            XCTAssertEqual(archive.info.maxzoom, 13)
            XCTAssertEqual(archive.header.addressedTiles, 30)
            XCTAssertEqual(leafSize == nil, archive.header.leafLength == 0, file)
            XCTAssertNotNil(archive.metadata?["vector_layers"]?.arrayValue, "the MBTiles json row is carried over")
            var found = 0
            for x in 2090...2110 {
                for y in 3030...3055 {
                    let id = TileID(z: 13, x: x, y: y)!
                    let expected = try mbtiles.tileData(id)
                    XCTAssertEqual(try archive.tileData(id), expected, "\(file) \(id)")
                    if expected != nil { found += 1 }
                }
            }
            XCTAssertEqual(found, 30, file)
            XCTAssertNil(try archive.tileData(TileID(z: 12, x: 1050, y: 1522)!))
        }
    }

    func testRendersTheSameImageAsTheMBTiles() throws {
        let shared = try TestPaths.requireShared()
        let stylesDir = shared.appendingPathComponent("fixtures/styles")
        let styleText = try String(contentsOf: stylesDir.appendingPathComponent("bright-v9-chicago.json"), encoding: .utf8)
        let options = MapSnapshotOptions(size: Size(width: 300, height: 200), pixelRatio: 1)
        let camera = CameraOptions(center: Coordinate(latitude: 41.87, longitude: -87.66), zoom: 13.6, bearing: 20)
        func render(_ url: String) throws -> [UInt8] {
            let s = Snapshotter(options: options)
            let text = styleText.replacingOccurrences(of: "mbtiles://../tiles/chicago-z13.mbtiles", with: url)
            try s.setStyle(json: text, baseURL: stylesDir.path + "/")
            return try s.snapshot(camera: camera).pngData()
        }
        let expected = try render("mbtiles://../tiles/chicago-z13.mbtiles")
        XCTAssertEqual(try render("pmtiles://" + convert("root.pmtiles")), expected)
        XCTAssertEqual(try render(convert("leaves.pmtiles", leafSize: 3)), expected, "a url ending in .pmtiles, leaf directories")
    }

    func testBrokenArchivesGiveClearErrors() throws {
        let good = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try convert("good.pmtiles", leafSize: 4))))
        func open(_ bytes: [UInt8]) throws -> PMTilesSource {
            let path = dir.appendingPathComponent("broken.pmtiles").path
            FileManager.default.createFile(atPath: path, contents: Data(bytes))
            return try PMTilesSource(path: path)
        }
        func expect(_ bytes: [UInt8], _ fragment: String, tile: Bool = false, line: UInt = #line) {
            do {
                let source = try open(bytes)
                guard tile else { return XCTFail("opened", line: line) }
                _ = try source.tileData(TileID(z: 13, x: 2100, y: 3044)!)
                XCTFail("read a tile", line: line)
            } catch {
                XCTAssertTrue("\(error)".contains(fragment), "\(error)", line: line)
            }
        }
        func setU64(_ bytes: inout [UInt8], _ at: Int, _ value: UInt64) {
            for i in 0..<8 { bytes[at + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(i))) }
        }
        expect(Array(good.prefix(50)), "shorter than the 127-byte header")
        var magic = good; magic[0] = 0x58
        expect(magic, "does not start with 'PMTiles'")
        var huge = good; setU64(&huge, 16, 2 << 30)  // root directory length: 2 GiB
        expect(huge, "over the 16777216-byte limit")
        var past = good; setU64(&past, 8, UInt64(good.count - 10))  // root offset near the end
        expect(past, "past the end of the")
        var garbage = good
        for i in 127..<(127 + 40) { garbage[i] = 0xAB }  // the root directory's gzip stream
        expect(garbage, "the root directory does not decompress")
        var leafPast = good; setU64(&leafPast, 40, UInt64(good.count))  // leaf section at the end of the file
        expect(leafPast, "a leaf directory", tile: true)
        var tilePast = good; setU64(&tilePast, 56, UInt64.max - 5)  // tile data offset overflows
        expect(tilePast, "tile 13/2100/3044", tile: true)
        XCTAssertThrowsError(try PMTilesDirectory.decode([0xC8, 0x01, 1, 1], path: "d")) {
            XCTAssertEqual("\($0)", "PMTiles file d: a directory claims 200 entries in 4 bytes")
        }
        XCTAssertThrowsError(try PMTilesDirectory.decode([2, 5, 0, 1, 1, 1, 1, 1, 0], path: "d")) {
            XCTAssertEqual("\($0)", "PMTiles file d: directory tile ids are not increasing")
        }
        XCTAssertThrowsError(try PMTilesDirectory.decode([1, 5, 1, 9, 0x80], path: "d")) {
            XCTAssertEqual("\($0)", "PMTiles file d: a directory ends inside a number (broken directory)")
        }
        XCTAssertEqual(try PMTilesDirectory.decode([2, 5, 1, 1, 0, 9, 4, 11, 0], path: "d"),
                       [PMTilesEntry(tileID: 5, offset: 10, length: 9, runLength: 1),
                        PMTilesEntry(tileID: 6, offset: 19, length: 4, runLength: 0)])
    }
}
