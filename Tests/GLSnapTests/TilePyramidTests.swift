import Foundation
import XCTest
import GLSnap
import GLSnapData
import GLSnapImage

/// `glsnap tiles`' pyramid: which tiles, which metatiles and shards, and tiles that put together
/// equal one render of their area (labels included), however they were grouped or resumed.
final class TilePyramidTests: XCTestCase {
    /// The bounds of the Chicago fixture's metadata (its z13 tiles are x 2098...2102, TMS rows
    /// 5144...5149, i.e. XYZ y 3042...3047).
    let chicago = CoordinateBounds(west: -87.802734, south: 41.771312, east: -87.583008, north: 41.967659)

    func testTilesOfALevelAreThoseTheBoundsReach() throws {
        let p = try TilePyramid(bounds: chicago, minZoom: 13, maxZoom: 13)
        let r = p.tiles(zoom: 13)
        XCTAssertEqual(r.x, 2098...2102)
        XCTAssertEqual(r.y, 3042...3047)
        // A box edge on a tile edge does not take the next tile: the western half of the world at z1.
        let half = try TilePyramid(bounds: CoordinateBounds(west: -180, south: -80, east: 0, north: 80), minZoom: 1, maxZoom: 1)
        XCTAssertEqual(half.tiles(zoom: 1).x, 0...0)
        XCTAssertEqual(half.tileCount, 2)
    }

    func testMetatilesCoverEachTileOnceAndShardsPartitionThem() throws {
        let p = try TilePyramid(bounds: chicago, minZoom: 11, maxZoom: 15, metatile: 4)
        let all = p.metatiles
        let tiles = all.flatMap(\.tiles)
        XCTAssertEqual(tiles.count, p.tileCount)
        XCTAssertEqual(Set(tiles).count, tiles.count, "no tile in two metatiles")
        for m in all { XCTAssertLessThanOrEqual(m.x.count, 4); XCTAssertLessThanOrEqual(m.y.count, 4) }
        for count in [1, 2, 3, 7, all.count + 5] {
            let shards = (1...count).map { p.metatiles(shard: $0, of: count) }
            XCTAssertEqual(shards.flatMap { $0 }, all, "shards of \(count) in order are the whole pyramid")
            // Fixed: the same pyramid gives the same shares, made again.
            let again = try TilePyramid(bounds: chicago, minZoom: 11, maxZoom: 15, metatile: 4)
            XCTAssertEqual((1...count).map { again.metatiles(shard: $0, of: count) }, shards)
            let sizes = shards.map(\.count)
            XCTAssertLessThanOrEqual(sizes.max()! - sizes.min()!, 1, "balanced shares")
        }
    }

    func testLargeLevelsAreCutIntoBlocksThatNoMetatileCrosses() throws {
        var limits = Limits()
        limits.tilePlacementBlock = 4096    // 8 tiles of 512 px
        let p = try TilePyramid(bounds: chicago, minZoom: 15, maxZoom: 15, metatile: 3, limits: limits)
        XCTAssertEqual(p.blockTiles, 8)
        let regions = p.regions(zoom: 15)
        XCTAssertGreaterThan(regions.count, 1)
        for r in regions {
            // Aligned to the global grid: a block never crosses a multiple of 8.
            XCTAssertEqual(r.x.lowerBound / 8, r.x.upperBound / 8)
            XCTAssertEqual(r.y.lowerBound / 8, r.y.upperBound / 8)
        }
        XCTAssertEqual(regions.flatMap(\.tiles).count, p.tileCount)
        for m in p.metatiles {
            let region = try XCTUnwrap(m.region)
            XCTAssertTrue(region.x.contains(m.x.lowerBound) && region.x.contains(m.x.upperBound))
            XCTAssertTrue(region.y.contains(m.y.lowerBound) && region.y.contains(m.y.upperBound))
        }
        // A level within one block is one region, wherever it lies on the grid.
        XCTAssertEqual(try TilePyramid(bounds: chicago, minZoom: 13, maxZoom: 13, limits: limits).regions(zoom: 13).count, 1)
    }

    func testBadPyramidsAreRefused() {
        XCTAssertThrowsError(try TilePyramid(bounds: CoordinateBounds(west: 10, south: 0, east: 5, north: 1), minZoom: 0, maxZoom: 1))
        XCTAssertThrowsError(try TilePyramid(bounds: chicago, minZoom: 5, maxZoom: 4))
        XCTAssertThrowsError(try TilePyramid(bounds: chicago, minZoom: 0, maxZoom: 25))
        XCTAssertThrowsError(try TilePyramid(bounds: chicago, minZoom: 0, maxZoom: 1, tileSize: 300))
        XCTAssertThrowsError(try TilePyramid(bounds: chicago, minZoom: 0, maxZoom: 1, pixelRatio: 1.3)) { e in
            XCTAssertTrue("\(e)".contains("whole pixels"), "\(e)")
        }
        XCTAssertThrowsError(try TilePyramid(bounds: chicago, minZoom: 0, maxZoom: 1, metatile: 17))
    }

    // MARK: Rendering (the bundled example: Chicago at z13-14)

    private func snapshotter() throws -> Snapshotter {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 256, height: 256), sourceErrors: .skip))
        try s.setStyle(path: TestPaths.example)
        return s
    }

    /// Four 256 tiles around one corner, around -87.65, 41.87.
    private let box = CoordinateBounds(west: -87.672, south: 41.862, east: -87.628, north: 41.889)

    private func stitch(_ tiles: [TileID: RGBAImage], x: ClosedRange<Int>, y: ClosedRange<Int>, side: Int) -> RGBAImage {
        var out = RGBAImage(width: x.count * side, height: y.count * side)
        for (id, image) in tiles where x.contains(id.x) && y.contains(id.y) {
            let ox = (id.x - x.lowerBound) * side, oy = (id.y - y.lowerBound) * side
            for r in 0..<side {
                let src = r * side * 4, dst = ((oy + r) * out.width + ox) * 4
                out.pixels.replaceSubrange(dst..<dst + side * 4, with: image.pixels[src..<src + side * 4])
            }
        }
        return out
    }

    /// The tiles of `pyramid` at its max zoom, decoded.
    private func renderTiles(_ s: Snapshotter, _ p: TilePyramid) throws -> [TileID: RGBAImage] {
        var decoded: [TileID: RGBAImage] = [:]
        let renderer = PyramidRenderer(snapshotter: s, pyramid: p) { try PNGEncoder().encode($0) }
        for m in p.metatiles where m.z == p.maxZoom {
            for t in try renderer.render(m) { decoded[t.id] = try PNGDecoder().decode(t.data) }
        }
        return decoded
    }

    /// One render of the tiles x × y of level z (256 tiles: a view at zoom z - 1).
    private func render(_ s: Snapshotter, z: Int, x: ClosedRange<Int>, y: ClosedRange<Int>) throws -> RGBAImage {
        let n = Double(1 << z)
        let center = Coordinate(latitude: latitude(Double(y.lowerBound + y.upperBound + 1) / 2 / n),
                                longitude: Double(x.lowerBound + x.upperBound + 1) / 2 / n * 360 - 180)
        return try s.snapshot(camera: CameraOptions(center: center, zoom: Double(z - 1), bearing: 0, pitch: 0),
                              size: Size(width: Double(x.count * 256), height: Double(y.count * 256))).image
    }

    private func mismatch(_ a: RGBAImage, _ b: RGBAImage, _ name: String) throws -> Double {
        let m = Double(pixelmatch(a, b, threshold: 0.1, includeAA: false)) / Double(a.width * a.height)
        if let dir = ProcessInfo.processInfo.environment["GLSNAP_TILES_DEBUG"] {
            try Data(PNGEncoder().encode(a)).write(to: URL(fileURLWithPath: "\(dir)/\(name)-tiles.png"))
            try Data(PNGEncoder().encode(b)).write(to: URL(fileURLWithPath: "\(dir)/\(name)-render.png"))
            print("\(name): \(m)")
        }
        return m
    }

    func testStitchedTilesEqualOneRenderOfTheLevel() throws {
        let s = try snapshotter()
        for metatile in [1, 2] {
            let p = try TilePyramid(bounds: box, minZoom: 14, maxZoom: 14, tileSize: 256, metatile: metatile)
            let r = p.tiles(zoom: 14)
            XCTAssertGreaterThanOrEqual(r.x.count * r.y.count, 4)
            let stitched = stitch(try renderTiles(s, p), x: r.x, y: r.y, side: 256)
            let m = try mismatch(stitched, try render(s, z: 14, x: r.x, y: r.y), "level-m\(metatile)")
            XCTAssertLessThanOrEqual(m, 0.00002, "metatile \(metatile)")
        }
    }

    func testFourTilesAroundACornerEqualOneRenderOfThem() throws {
        let s = try snapshotter()
        let all = try TilePyramid(bounds: box, minZoom: 14, maxZoom: 14, tileSize: 256).tiles(zoom: 14)
        let n = Double(1 << 14)
        for y0 in all.y.lowerBound..<all.y.upperBound {
            for x0 in all.x.lowerBound..<all.x.upperBound {
                // Bounds just inside the 2 x 2 tiles around the corner (x0 + 1, y0 + 1).
                let inset = 0.01 / n
                let bounds = CoordinateBounds(west: (Double(x0) / n + inset) * 360 - 180, south: latitude(Double(y0 + 2) / n - inset),
                                              east: (Double(x0 + 2) / n - inset) * 360 - 180, north: latitude(Double(y0) / n + inset))
                let p = try TilePyramid(bounds: bounds, minZoom: 14, maxZoom: 14, tileSize: 256, metatile: 1)
                XCTAssertEqual(p.tiles(zoom: 14).x, x0...x0 + 1)
                XCTAssertEqual(p.tiles(zoom: 14).y, y0...y0 + 1)
                let stitched = stitch(try renderTiles(s, p), x: x0...x0 + 1, y: y0...y0 + 1, side: 256)
                let m = try mismatch(stitched, try render(s, z: 14, x: x0...x0 + 1, y: y0...y0 + 1), "corner-\(x0)-\(y0)")
                XCTAssertLessThanOrEqual(m, 0.00002, "corner \(x0 + 1), \(y0 + 1)")
            }
        }
    }

    /// The latitude of world y (0...1), computed as `PyramidRenderer` computes its cameras: a view
    /// whose edges lie on tile edges is a knife edge for the tile cover (a tile that only touches
    /// the view is in or out by the last bit of the center), so the render compared with must
    /// have the very same center.
    private func latitude(_ y: Double) -> Double { 360 / .pi * atan(exp((180 - y * 360) * .pi / 180)) - 90 }

    func testShardsAndResumedRunsGiveTheSameBytes() throws {
        let folder = try TestPaths.temporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Bright over central Chicago: enough labels that the glyph atlas grows as levels are
        // drawn, so a shard that starts at a later level would draw with other atlas positions
        // were its regions not given atlases of their own.
        let style = try TestPaths.requireShared().appendingPathComponent("fixtures/styles/bright-v9-chicago.json").path
        let p = try TilePyramid(bounds: CoordinateBounds(west: -87.70, south: 41.86, east: -87.64, north: 41.89), minZoom: 13, maxZoom: 14)
        func run(_ path: String, shard: (Int, Int) = (1, 1), writer: TileArchiveWriter? = nil) throws -> (rendered: Int, kept: Int) {
            // A new snapshotter each run: a new process.
            let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 512, height: 512), sourceErrors: .skip))
            try s.setStyle(path: style)
            let renderer = PyramidRenderer(snapshotter: s, pyramid: p) { try PNGEncoder().encode($0) }
            let w = try writer ?? TileArchive.writer(path: path, format: "png")
            let result = try renderer.run(p.metatiles(shard: shard.0, of: shard.1), into: w)
            try w.finish(metadata)
            return result
        }
        _ = try run(folder + "/whole.mbtiles")
        let whole = try tiles(folder + "/whole.mbtiles")
        XCTAssertEqual(whole.count, p.tileCount)

        // Shards, the second run first, merged.
        _ = try run(folder + "/s2.mbtiles", shard: (2, 2))
        _ = try run(folder + "/s1.mbtiles", shard: (1, 2))
        try TileArchive.merge([try TileArchive.reader(path: folder + "/s1.mbtiles"), try TileArchive.reader(path: folder + "/s2.mbtiles")],
                              into: try TileArchive.writer(path: folder + "/merged.mbtiles", format: "png"), metadata: metadata)
        XCTAssertEqual(differing(try tiles(folder + "/merged.mbtiles"), whole), [], "shards merged are the whole run, byte for byte")

        // A run that stops after its second metatile, then resumed in a new process.
        let path = folder + "/resumed.pmtiles"
        var written = 0
        do {
            let stopping = StoppingWriter(try TileArchive.writer(path: path, format: "png"), after: 2)
            XCTAssertThrowsError(try run(path, writer: stopping))
            written = stopping.written
        }
        let resumed = try run(path)
        XCTAssertEqual(resumed.kept, written)
        XCTAssertEqual(resumed.rendered + resumed.kept, p.tileCount)
        XCTAssertEqual(differing(try tiles(path), whole), [], "the resumed archive is the whole run, byte for byte")
    }

    private let metadata = TileArchiveMetadata(name: "t", format: "png", bounds: [-87.672, 41.862, -87.628, 41.889],
                                               center: [-87.65, 41.875, 13], minZoom: 13, maxZoom: 14)

    /// The tiles whose bytes differ (or that one side lacks), by name.
    private func differing(_ a: [TileID: [UInt8]], _ b: [TileID: [UInt8]]) -> [String] {
        Set(a.keys).union(b.keys).filter { a[$0] != b[$0] }.map(\.description).sorted()
    }

    private func tiles(_ path: String) throws -> [TileID: [UInt8]] {
        var out: [TileID: [UInt8]] = [:]
        try TileArchive.reader(path: path).forEachTile { out[$0] = $1 }
        return out
    }
}

/// A writer that fails (as a killed process stops) after `after` batches, never finishing.
private final class StoppingWriter: TileArchiveWriter {
    let inner: TileArchiveWriter
    let after: Int
    private var batches = 0
    private(set) var written = 0
    struct Stopped: Error {}

    init(_ inner: TileArchiveWriter, after: Int) { self.inner = inner; self.after = after }

    func existingTiles() throws -> Set<TileID> { try inner.existingTiles() }
    func startedMetadata() throws -> TileArchiveMetadata? { try inner.startedMetadata() }
    func start(_ metadata: TileArchiveMetadata) throws { try inner.start(metadata) }
    func write(_ tiles: [(id: TileID, data: [UInt8])]) throws {
        guard batches < after else { throw Stopped() }
        try inner.write(tiles)
        batches += 1
        written += tiles.count
    }
    func finish(_ metadata: TileArchiveMetadata) throws { throw Stopped() }
}
