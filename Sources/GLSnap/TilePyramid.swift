import Foundation
import GLSnapData
import GLSnapLayout

/// The tiles of a raster pyramid over a box, in tileserver-gl's raster tile convention (that of
/// `glsnap serve`'s tile endpoints): a `tileSize`-point tile (z, x, y) of the XYZ grid shows
/// the world at GL zoom z + log2(tileSize / 512), so a 512 tile is a 512 view at zoom z and a
/// 256 tile a 256 view at zoom z - 1; images are tileSize × ratio pixels.
///
/// Tiles are rendered N × N at a time (a metatile, aligned to the global grid: metatile
/// (mx, my) holds tiles x in mx·N ..< (mx+1)·N), clipped to the box's tiles. The order of the
/// metatiles (zoom up, then rows top down, left to right) and so the shards are fixed by the
/// pyramid alone.
public struct TilePyramid: Sendable, Equatable {
    /// The box whose tiles are rendered.
    public var bounds: CoordinateBounds
    /// The zoom levels rendered, minZoom...maxZoom (at most `TilePyramid.maxZoom`).
    public var minZoom: Int, maxZoom: Int
    /// 256 or 512 points.
    public var tileSize: Int
    /// Image pixels per point of a tile (a 512 tile at 2 is 1024 pixels).
    public var pixelRatio: Double
    /// Tiles per metatile side.
    public var metatile: Int
    /// Tiles per side of a placement block (`Limits.tilePlacementBlock` pixels): labels are placed
    /// at once over a block; a level within one block is placed as one image (see `regions`).
    /// The metatile size changes neither (it changes no label; a frame of another size may round
    /// a few edge pixels differently).
    public var blockTiles: Int

    /// The highest zoom level rendered.
    public static let maxZoom = 24

    /// Refuses values out of range with `GLSnapError.invalidOptions` naming the value (`.limit` past a `Limits` bound).
    public init(bounds: CoordinateBounds, minZoom: Int, maxZoom: Int, tileSize: Int = 512, pixelRatio: Double = 1,
                metatile: Int = 4, limits: Limits = .default) throws {
        let b = bounds
        guard [b.southwest.longitude, b.southwest.latitude, b.northeast.longitude, b.northeast.latitude].allSatisfy(\.isFinite),
              b.southwest.longitude < b.northeast.longitude, b.southwest.latitude < b.northeast.latitude,
              b.southwest.longitude >= -180, b.northeast.longitude <= 180 else {
            throw GLSnapError.invalidOptions("bounds \(b.southwest.longitude),\(b.southwest.latitude),\(b.northeast.longitude),\(b.northeast.latitude) must be west,south,east,north with west < east and south < north, within -180...180")
        }
        guard (0...TilePyramid.maxZoom).contains(minZoom), (minZoom...TilePyramid.maxZoom).contains(maxZoom) else {
            throw GLSnapError.invalidOptions("zooms \(minZoom)...\(maxZoom) must be within 0...\(TilePyramid.maxZoom), min not above max")
        }
        guard tileSize == 256 || tileSize == 512 else { throw GLSnapError.invalidOptions("tile size \(tileSize) must be 256 or 512") }
        guard pixelRatio.isFinite, limits.pixelRatio.contains(pixelRatio) else {
            throw GLSnapError.invalidOptions("pixel ratio \(pixelRatio) is outside \(limits.pixelRatio.lowerBound)...\(limits.pixelRatio.upperBound)")
        }
        let pixels = Double(tileSize) * pixelRatio
        guard pixels == pixels.rounded() else {
            throw GLSnapError.invalidOptions("ratio \(pixelRatio) makes \(tileSize)-point tiles \(pixels) pixels: it must make them whole pixels")
        }
        guard (1...limits.maxMetatile).contains(metatile) else {
            throw GLSnapError.invalidOptions("metatile \(metatile) must be within 1...\(limits.maxMetatile) tiles a side (Limits.maxMetatile)")
        }
        let tilePixels = Int(pixels)
        guard metatile * tilePixels <= limits.tilePlacementBlock else {
            throw GLSnapError.limit(name: "tilePlacementBlock", value: Double(metatile * tilePixels), max: Double(limits.tilePlacementBlock),
                                    message: "metatile \(metatile) of \(tilePixels)-pixel tiles exceeds Limits.tilePlacementBlock (\(limits.tilePlacementBlock) pixels)")
        }
        self.bounds = bounds; self.minZoom = minZoom; self.maxZoom = maxZoom; self.tileSize = tileSize
        self.pixelRatio = pixelRatio; self.metatile = metatile
        blockTiles = max(1, limits.tilePlacementBlock / tilePixels)
    }

    /// Pixels a tile side.
    public var tilePixels: Int { Int(Double(tileSize) * pixelRatio) }

    /// The tiles of level z that the box reaches (x and y ranges of the XYZ grid).
    public func tiles(zoom z: Int) -> (x: ClosedRange<Int>, y: ClosedRange<Int>) {
        let n = Double(1 << z), last = (1 << z) - 1
        func column(_ lon: Double) -> Int { min(last, max(0, Int(((lon + 180) / 360 * n).rounded(.down)))) }
        func row(_ lat: Double) -> Int {
            let s = sin(max(-Mercator.maxLatitude, min(Mercator.maxLatitude, lat)) * .pi / 180)
            return min(last, max(0, Int((Mercator.y(sine: s) * n).rounded(.down))))
        }
        // A box edge exactly on a tile edge does not take the tile beyond it.
        func columnBefore(_ lon: Double) -> Int {
            let v = (lon + 180) / 360 * n
            return min(last, max(0, v == v.rounded() ? Int(v) - 1 : Int(v.rounded(.down))))
        }
        let x0 = column(bounds.southwest.longitude), x1 = max(x0, columnBefore(bounds.northeast.longitude))
        return (x0...x1, row(bounds.northeast.latitude)...row(bounds.southwest.latitude))
    }

    /// The placement regions of level z: the whole level when it fits in one block of
    /// `blockTiles` a side, else the blocks of the global grid (block (bx, by) holds tiles x in
    /// bx·B ..< (bx+1)·B) clipped to the level, rows top down, left to right.
    public func regions(zoom z: Int) -> [MetaTile] {
        let r = tiles(zoom: z)
        let b = blockTiles
        if r.x.count <= b && r.y.count <= b { return [MetaTile(z: z, x: r.x, y: r.y)] }
        var out: [MetaTile] = []
        for by in (r.y.lowerBound / b)...(r.y.upperBound / b) {
            for bx in (r.x.lowerBound / b)...(r.x.upperBound / b) {
                out.append(MetaTile(z: z, x: max(r.x.lowerBound, bx * b)...min(r.x.upperBound, bx * b + b - 1),
                                    y: max(r.y.lowerBound, by * b)...min(r.y.upperBound, by * b + b - 1)))
            }
        }
        return out
    }

    /// The metatiles of the pyramid in their fixed order: zoom up; within a level region by
    /// region (see `regions`), and within a region the metatile grid's rows top down, left to
    /// right, each metatile clipped to its region (so no metatile spans two placements).
    public var metatiles: [MetaTile] {
        var out: [MetaTile] = []
        let n = metatile
        for z in minZoom...maxZoom {
            for region in regions(zoom: z) {
                for my in (region.y.lowerBound / n)...(region.y.upperBound / n) {
                    for mx in (region.x.lowerBound / n)...(region.x.upperBound / n) {
                        let xs = max(region.x.lowerBound, mx * n)...min(region.x.upperBound, mx * n + n - 1)
                        let ys = max(region.y.lowerBound, my * n)...min(region.y.upperBound, my * n + n - 1)
                        out.append(MetaTile(z: z, x: xs, y: ys, region: region))
                    }
                }
            }
        }
        return out
    }

    /// The metatiles of the tiles a region holds, for a caller that schedules regions itself.
    public func metatiles(in region: MetaTile) -> [MetaTile] {
        metatiles.filter { $0.region == TileRange(z: region.z, x: region.x, y: region.y) }
    }

    /// Shard `index` (1-based) of `count`: a contiguous run of the metatile order, the runs of
    /// all shards together the whole pyramid, each metatile in exactly one.
    public func metatiles(shard index: Int, of count: Int) -> [MetaTile] {
        precondition(count >= 1 && (1...count).contains(index), "shard \(index)/\(count)")
        let all = metatiles
        let start = all.count * (index - 1) / count, end = all.count * index / count
        return Array(all[start..<end])
    }

    /// Number of tiles of the pyramid.
    public var tileCount: Int {
        (minZoom...maxZoom).reduce(0) { sum, z in let r = tiles(zoom: z); return sum + r.x.count * r.y.count }
    }
}

/// A metatile: the tiles of level `z` with x in `x` and y in `y` (at most N × N), and the
/// placement region it belongs to (nil for a region itself).
public struct MetaTile: Sendable, Hashable, CustomStringConvertible {
    /// The zoom level.
    public let z: Int
    /// The tile columns.
    public let x: ClosedRange<Int>
    /// The tile rows.
    public let y: ClosedRange<Int>
    /// The placement region whose image it is a rectangle of (nil: it is a region itself).
    public let region: TileRange?

    /// The metatile of tiles x × y of level z in `region` (default none).
    public init(z: Int, x: ClosedRange<Int>, y: ClosedRange<Int>, region: MetaTile? = nil) {
        self.z = z; self.x = x; self.y = y
        self.region = region.map { TileRange(z: $0.z, x: $0.x, y: $0.y) }
    }

    /// Its tiles, row by row.
    public var tiles: [TileID] { y.flatMap { y in x.map { TileID(z: z, x: $0, y: y)! } } }
    /// "z/x0-x1/y0-y1".
    public var description: String { "\(z)/\(x.lowerBound)-\(x.upperBound)/\(y.lowerBound)-\(y.upperBound)" }
}

/// Tiles of level `z` with x in `x` and y in `y`.
public struct TileRange: Sendable, Hashable {
    /// The zoom level.
    public let z: Int
    /// The tile columns.
    public let x: ClosedRange<Int>
    /// The tile rows.
    public let y: ClosedRange<Int>
}

extension TilePyramid {
    /// The metadata key of what decides a pyramid's tile bytes (see `archiveMetadata`): a resume
    /// or a merge of archives with different values is refused or warned about.
    public static let runKey = "glsnap_run"

    /// The archive metadata of this pyramid drawn by `snapshotter` from the style file at
    /// `stylePath` in `format` (png, jpeg, webp): name (the style's, else the file's), bounds,
    /// center, zooms, the sources' attribution, and under `runKey` what decides the tiles' bytes:
    /// the style's bytes, the tile convention, the area and the metatile (a frame of another size
    /// rounds a few edge pixels differently; it also decides the shards' shares). The shard does
    /// not change a tile, so it is not part of it. One definition for `glsnap tiles` and the C ABI
    /// (the Ray driver compares their archives).
    public func archiveMetadata(snapshotter: Snapshotter, stylePath: String, format: String) -> TileArchiveMetadata {
        let b = bounds
        let box = [b.southwest.longitude, b.southwest.latitude, b.northeast.longitude, b.northeast.latitude]
        let (styleName, attribution) = snapshotter.styleNameAndAttribution
        let name = styleName ?? ((stylePath as NSString).lastPathComponent as NSString).deletingPathExtension
        let styleBytes = FileManager.default.contents(atPath: stylePath).map(Array.init) ?? Array(stylePath.utf8)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for byte in styleBytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let digits = String(hash, radix: 16)
        let run = "style=\(String(repeating: "0", count: 16 - digits.count) + digits) tile-size=\(tileSize) ratio=\(pixelRatio) "
            + "format=\(format) bounds=\(box.map { String($0) }.joined(separator: ",")) zoom=\(minZoom)-\(maxZoom) metatile=\(metatile)"
        return TileArchiveMetadata(name: name, format: format, bounds: box,
                                   center: [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2, Double(minZoom)],
                                   minZoom: minZoom, maxZoom: maxZoom, attribution: attribution, extra: [TilePyramid.runKey: run])
    }
}
