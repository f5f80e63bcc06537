import Foundation
import GLSnapData
import GLSnapImage
import GLSnapLayout
import GLSnapRender

/// Renders the metatiles of a `TilePyramid` and slices them into encoded tiles.
///
/// Seamless labels: each placement region of a level (the whole level, or a block of it; see
/// `TilePyramid.regions`) is one image, one camera, and its metatiles are rectangles of that
/// image drawn through sub-frusta (`ImagePieces`), with labels placed once for the region. So
/// tiles of a region put side by side are one render of the region, labels included, however
/// they were grouped into metatiles, split into shards or resumed.
///
/// Labels at the edges of blocks (levels larger than `Limits.tilePlacementBlock` pixels a
/// side): each block places its labels over itself, and the edges it shares with other blocks
/// are seams with the rule both neighbours reach alike (`PlacementSeams`): a label is shown by a
/// block only when it lies wholly inside the block, so one crossing a block edge is dropped by
/// both blocks, never cut or doubled.
public final class PyramidRenderer {
    /// Draws the metatiles (its style, options and caches).
    public let snapshotter: Snapshotter
    /// The tiles to render.
    public let pyramid: TilePyramid
    /// Turns a tile image into the archive's bytes (PNG, JPEG or WebP).
    public let encode: (RGBAImage) throws -> [UInt8]
    /// Problems drawn around (broken tiles under `SourceErrorPolicy.skip`), each once.
    public private(set) var warnings: [String] = []
    private var seen = Set<String>()
    private var current: (region: TileRange, pieces: ImagePieces)?

    /// A renderer of `pyramid`'s tiles with `snapshotter`, each tile encoded by `encode`.
    public init(snapshotter: Snapshotter, pyramid: TilePyramid, encode: @escaping (RGBAImage) throws -> [UInt8]) {
        self.snapshotter = snapshotter; self.pyramid = pyramid; self.encode = encode
    }

    /// Renders `metatiles` into `writer`, one batch (one transaction) per metatile, skipping
    /// each metatile whose tiles the writer holds already (an earlier, interrupted run's);
    /// `progress` hears of each metatile, with whether it was rendered. Returns the tiles
    /// rendered and the tiles kept.
    @discardableResult
    public func run(_ metatiles: [MetaTile], into writer: TileArchiveWriter,
                    progress: ((_ metatile: MetaTile, _ rendered: Bool) -> Void)? = nil) throws -> (rendered: Int, kept: Int) {
        let existing = try writer.existingTiles()
        var rendered = 0, kept = 0
        for metatile in metatiles {
            let tiles = metatile.tiles
            if tiles.allSatisfy(existing.contains) {
                kept += tiles.count
                progress?(metatile, false)
                continue
            }
            try writer.write(try render(metatile))
            rendered += tiles.count
            progress?(metatile, true)
        }
        return (rendered, kept)
    }

    /// The encoded tiles of `metatile`, in row order.
    public func render(_ metatile: MetaTile) throws -> [(id: TileID, data: [UInt8])] {
        let image = try draw(metatile)
        let side = pyramid.tilePixels
        let ids = metatile.tiles
        // The tiles are encoded at once on the machine's cores (each alone, so the bytes are
        // those of a sequential encode), while the GL worker is idle.
        var results = [Result<[UInt8], Error>](repeating: .success([]), count: ids.count)
        let encode = self.encode
        results.withUnsafeMutableBufferPointer { slots in
            let slots = UnsafeSendable(slots)
            DispatchQueue.concurrentPerform(iterations: ids.count) { i in
                let id = ids[i]
                let tile = PyramidRenderer.crop(image, x: (id.x - metatile.x.lowerBound) * side, y: (id.y - metatile.y.lowerBound) * side,
                                                side: side)
                slots.value[i] = Result { try encode(tile) }
            }
        }
        return try zip(ids, results).map { ($0, try $1.get()) }
    }

    /// The metatile's image: its rectangle of its region's image.
    func draw(_ metatile: MetaTile) throws -> RGBAImage {
        let glZoom = Double(metatile.z) + log2(Double(pyramid.tileSize) / 512)
        if glZoom < 0 {
            // A 256 tile at z 0 is the 512 world at zoom 0 halved (as glsnap serve draws it).
            let whole = try snapshotter.snapshot(camera: PyramidRenderer.camera(zoom: 0, z: 0, x: 0...0, y: 0...0),
                                                 size: Size(width: 512, height: 512), pixelRatio: pyramid.pixelRatio)
            note(whole.warnings)
            return PyramidRenderer.halve(whole.image)
        }
        let region = metatile.region ?? TileRange(z: metatile.z, x: metatile.x, y: metatile.y)
        let pieces: ImagePieces
        if let current, current.region == region {
            pieces = current.pieces
        } else {
            let t = Double(pyramid.tileSize)
            pieces = try snapshotter.pieces(camera: PyramidRenderer.camera(zoom: glZoom, z: region.z, x: region.x, y: region.y),
                                            size: Size(width: Double(region.x.count) * t, height: Double(region.y.count) * t),
                                            pixelRatio: pyramid.pixelRatio, freshAtlases: true, seams: seams(region))
            current = (region, pieces)
        }
        let side = pyramid.tilePixels
        let rect = PixelRect(x: (metatile.x.lowerBound - region.x.lowerBound) * side, y: (metatile.y.lowerBound - region.y.lowerBound) * side,
                             width: metatile.x.count * side, height: metatile.y.count * side)
        let image = try pieces.render(rect)
        note(pieces.warnings)
        return image
    }

    /// The region's edges shared with another region of its level (none when the level is one).
    func seams(_ region: TileRange) -> PlacementSeams {
        let level = pyramid.tiles(zoom: region.z)
        return PlacementSeams(left: region.x.lowerBound > level.x.lowerBound, top: region.y.lowerBound > level.y.lowerBound,
                              right: region.x.upperBound < level.x.upperBound, bottom: region.y.upperBound < level.y.upperBound)
    }

    private func note(_ messages: [String]) {
        for m in messages where seen.insert(m).inserted { warnings.append(m) }
    }

    /// The north-up camera centered on the tiles x × y of level z, at GL zoom `zoom`.
    static func camera(zoom: Double, z: Int, x: ClosedRange<Int>, y: ClosedRange<Int>) -> CameraOptions {
        let n = Double(1 << z)
        let cx = Double(x.lowerBound + x.upperBound + 1) / 2 / n, cy = Double(y.lowerBound + y.upperBound + 1) / 2 / n
        return CameraOptions(center: Coordinate(latitude: Mercator.lat(y: cy), longitude: Mercator.lon(x: cx)), zoom: zoom,
                             bearing: 0, pitch: 0)
    }

    /// The `side` × `side` square of `image` at (x, y).
    static func crop(_ image: RGBAImage, x: Int, y: Int, side: Int) -> RGBAImage {
        if x == 0, y == 0, image.width == side, image.height == side { return image }
        var out = RGBAImage(width: side, height: side)
        out.pixels.withUnsafeMutableBytes { dst in
            image.pixels.withUnsafeBytes { src in
                for r in 0..<side {
                    dst.baseAddress!.advanced(by: r * side * 4)
                        .copyMemory(from: src.baseAddress!.advanced(by: ((y + r) * image.width + x) * 4), byteCount: side * 4)
                }
            }
        }
        return out
    }

    /// Each 2 × 2 block averaged (straight alpha weighted by alpha).
    static func halve(_ image: RGBAImage) -> RGBAImage {
        let w = image.width / 2, h = image.height / 2
        var out = RGBAImage(width: w, height: h)
        let p = image.pixels
        for y in 0..<h {
            for x in 0..<w {
                var sum = [0, 0, 0, 0]
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let i = ((2 * y + dy) * image.width + 2 * x + dx) * 4
                    let a = Int(p[i + 3])
                    for c in 0..<3 { sum[c] += Int(p[i + c]) * a }
                    sum[3] += a
                }
                let o = (y * w + x) * 4
                for c in 0..<3 { out.pixels[o + c] = sum[3] == 0 ? 0 : UInt8((sum[c] + sum[3] / 2) / sum[3]) }
                out.pixels[o + 3] = UInt8((sum[3] + 2) / 4)
            }
        }
        return out
    }
}

/// A buffer whose slots threads write apart (each index by one thread).
private struct UnsafeSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
