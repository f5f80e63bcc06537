@testable import GLSnapC
import Foundation
import GLSnap
import GLSnapData
import GLSnapImage
import XCTest

/// glsnap_tiles_plan and glsnap_tiles_render give `glsnap tiles`' metatiles, shards and bytes,
/// however the metatiles are split between calls and archives.
final class CAPITilesTests: XCTestCase {
    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../examples/chicago/style.json").standardized.path
    // A small box over the example's labels, 256-point tiles, metatile 2: 8 metatiles of z13 and z14.
    let pyramid = #"{"bounds": [-87.68, 41.86, -87.60, 41.90], "minzoom": 13, "maxzoom": 14, "tileSize": 256, "metatile": 2, "shard": [2, 3]}"#

    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("capi-tiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private func make() throws -> OpaquePointer {
        var o = [UInt8](repeating: 0, count: 40)
        o.withUnsafeMutableBytes { glsnap_options_init($0.baseAddress) }
        var error = [CChar](repeating: 0, count: 256)
        let s = try XCTUnwrap(o.withUnsafeBytes { glsnap_snapshotter_new($0.baseAddress, &error, error.count) }, String(cString: error))
        XCTAssertEqual(glsnap_set_style_file(s, CAPITilesTests.example), Status.ok.rawValue, String(cString: glsnap_snapshotter_error(s)!))
        return s
    }

    private func message(_ s: OpaquePointer) -> String { String(cString: glsnap_snapshotter_error(s)!) }

    private func plan(_ s: OpaquePointer, _ pyramid: String) throws -> [String: Any] {
        var out: UnsafeMutablePointer<CChar>?
        XCTAssertEqual(glsnap_tiles_plan(s, pyramid, &out), Status.ok.rawValue, message(s))
        defer { glsnap_free(out) }
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(String(cString: try XCTUnwrap(out)).utf8)) as? [String: Any])
    }

    @discardableResult
    private func render(_ s: OpaquePointer, _ numbers: [UInt32], into path: String) throws -> [String: Any] {
        var out: UnsafeMutablePointer<CChar>?
        let status = numbers.withUnsafeBufferPointer { glsnap_tiles_render(s, pyramid, $0.baseAddress, $0.count, path, &out) }
        XCTAssertEqual(status, Status.ok.rawValue, message(s))
        defer { glsnap_free(out) }
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(String(cString: try XCTUnwrap(out)).utf8)) as? [String: Any])
    }

    private func tiles(_ path: String) throws -> [String: [UInt8]] {
        var out: [String: [UInt8]] = [:]
        try TileArchive.reader(path: path).forEachTile { id, data in out["\(id.z)/\(id.x)/\(id.y)"] = data }
        return out
    }

    private func library() throws -> (TilePyramid, Snapshotter) {
        let p = try TilePyramid(bounds: CoordinateBounds(west: -87.68, south: 41.86, east: -87.60, north: 41.90),
                                minZoom: 13, maxZoom: 14, tileSize: 256, metatile: 2)
        let snapshotter = Snapshotter(options: MapSnapshotOptions(size: Size(width: 256, height: 256)))
        try snapshotter.setStyle(path: CAPITilesTests.example)
        return (p, snapshotter)
    }

    func testPlanIsGlsnapTilesMetatilesAndShard() throws {
        let s = try make()
        defer { glsnap_snapshotter_free(s) }
        let plan = try plan(s, pyramid)
        let (p, snapshotter) = try library()
        defer { snapshotter.close() }
        let metatiles = try XCTUnwrap(plan["metatiles"] as? [[Int]])
        XCTAssertEqual(metatiles.map { Array($0.prefix(5)) },
                       p.metatiles.map { [$0.z, $0.x.lowerBound, $0.x.upperBound, $0.y.lowerBound, $0.y.upperBound] })
        XCTAssertEqual(plan["tiles"] as? Int, p.tileCount)
        let shard = try XCTUnwrap(plan["shard"] as? [Int])
        XCTAssertEqual(shard.map { metatiles[$0].prefix(5) }.map(Array.init),
                       p.metatiles(shard: 2, of: 3).map { [$0.z, $0.x.lowerBound, $0.x.upperBound, $0.y.lowerBound, $0.y.upperBound] })
        let regions = try XCTUnwrap(plan["regions"] as? [[Int]])
        XCTAssertEqual(regions.map(\.first), [13, 14], "each level is one placement region")
        let metadata = try XCTUnwrap(plan["metadata"] as? [String: String])
        XCTAssertEqual(metadata["minzoom"], "13")
        XCTAssertNotNil(metadata["glsnap_run"])
    }

    /// One call over the plan's order, two calls over it reversed, and the library itself as
    /// `glsnap tiles` drives it: the same bytes for every tile.
    func testAnySplitGivesTheLibraryBytes() throws {
        let s = try make()
        defer { glsnap_snapshotter_free(s) }
        let count = try XCTUnwrap(plan(s, pyramid)["metatiles"] as? [[Int]]).count
        XCTAssertGreaterThan(count, 3)
        let whole = folder.appendingPathComponent("whole.mbtiles").path
        try render(s, (0..<UInt32(count)).map { $0 }, into: whole)
        let reversed = Array((0..<UInt32(count)).reversed())
        let split = folder.appendingPathComponent("split.mbtiles").path
        let first = try render(s, Array(reversed.prefix(2)), into: split)
        let second = try render(s, Array(reversed.dropFirst(2)), into: split)
        let (p, snapshotter) = try library()
        defer { snapshotter.close() }
        XCTAssertEqual((first["rendered"] as? Int ?? 0) + (second["rendered"] as? Int ?? 0), p.tileCount)
        let renderer = PyramidRenderer(snapshotter: snapshotter, pyramid: p, encode: { try PNGEncoder().encode($0) })
        var expected: [String: [UInt8]] = [:]
        for m in p.metatiles { for t in try renderer.render(m) { expected["\(t.id.z)/\(t.id.x)/\(t.id.y)"] = t.data } }
        XCTAssertEqual(expected.count, p.tileCount)
        XCTAssertEqual(try tiles(whole), expected)
        XCTAssertEqual(try tiles(split), expected)
        // Again into a full archive: every tile kept, none rendered.
        let again = try render(s, [0, 1], into: split)
        XCTAssertEqual(again["rendered"] as? Int, 0)
        XCTAssertGreaterThan(again["kept"] as? Int ?? 0, 0)
    }

    func testBadInputIsNamed() throws {
        let s = try make()
        defer { glsnap_snapshotter_free(s) }
        var out: UnsafeMutablePointer<CChar>?
        XCTAssertEqual(glsnap_tiles_plan(s, #"{"bounds": [0, 0, 1, 1], "minzoom": 1, "maxzoom": 2, "zoom": 3}"#, &out), Status.invalidArgument.rawValue)
        XCTAssertTrue(message(s).hasPrefix(#"pyramid: unknown key "zoom""#), message(s))
        XCTAssertEqual(glsnap_tiles_plan(s, #"{"bounds": [0, 0, 1, 1], "maxzoom": 2}"#, &out), Status.invalidArgument.rawValue)
        XCTAssertEqual(message(s), #"pyramid: "minzoom" is missing"#)
        XCTAssertEqual(glsnap_tiles_plan(s, #"{"fitData": "nope", "minzoom": 1, "maxzoom": 2}"#, &out), Status.invalidArgument.rawValue)
        XCTAssertTrue(message(s).contains(#"no source "nope""#), message(s))
        XCTAssertEqual(glsnap_tiles_plan(s, #"{"bounds": [0, 0, 1, 1], "minzoom": 1, "maxzoom": 2, "tileSize": 300}"#, &out),
                       Status.invalidArgument.rawValue)
        XCTAssertTrue(message(s).contains("tile size 300"), message(s))
        XCTAssertEqual(glsnap_tiles_plan(s, "[1]", &out), Status.invalidArgument.rawValue)
        XCTAssertNil(out)
        let path = folder.appendingPathComponent("a.mbtiles").path
        var number: UInt32 = 999
        XCTAssertEqual(glsnap_tiles_render(s, pyramid, &number, 1, path, &out), Status.invalidArgument.rawValue)
        XCTAssertTrue(message(s).hasPrefix("metatile 999 does not exist"), message(s))
        // An archive started by another pyramid is not added to.
        number = 0
        XCTAssertEqual(glsnap_tiles_render(s, pyramid, &number, 1, path, nil), Status.ok.rawValue, message(s))
        let other = #"{"bounds": [-87.66, 41.86, -87.60, 41.90], "minzoom": 13, "maxzoom": 14, "tileSize": 256, "metatile": 2}"#
        XCTAssertEqual(glsnap_tiles_render(s, other, &number, 1, path, nil), Status.invalidArgument.rawValue)
        XCTAssertTrue(message(s).contains("was started with other options"), message(s))
    }
}
