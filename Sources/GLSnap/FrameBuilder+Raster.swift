import GLSnapData
import GLSnapImage
import GLSnapLayout
import GLSnapRender
import GLSnapStyle

/// How a raster-dem source packs elevations into RGB.
public enum DEMEncoding: String, Sendable {
    /// meters = (R * 256² + G * 256 + B) / 10 - 10000
    case mapbox
    /// meters = R * 256 + G + B / 256 - 32768
    case terrarium

    /// Multipliers of R, G, B (0...255) and the offset subtracted, as the shaders use them.
    var unpack: [Float] {
        switch self {
        case .mapbox: return [6553.6, 25.6, 0.1, 10000]
        case .terrarium: return [256, 1, 1 / 256, 32768]
        }
    }

    /// The elevation in meters of one pixel's R, G, B (0...255), in double precision (the
    /// server's elevation API answers it as is).
    public func elevation(red: UInt8, green: UInt8, blue: UInt8) -> Double {
        let r = Double(red), g = Double(green), b = Double(blue)
        switch self {
        case .mapbox: return -10000 + (r * 65536 + g * 256 + b) * 0.1
        case .terrarium: return r * 256 + g + b / 256 - 32768
        }
    }
}

extension FrameBuilder {
    /// How many zoom levels above a missing raster tile an ancestor may stand in for it.
    static let maxOverzooming = 10

    /// The tiles of a raster or raster-dem source for this view: each ideal tile, or its nearest
    /// ancestor with data (up to `maxOverzooming` levels up) when the source has no tile there;
    /// the draw keeps the higher zoom where they overlap. At pixel ratio 2 and more a source with
    /// `@2x` tiles gives those (drawn over the same tile square, so a 512-pixel image on a
    /// 256-pixel tile has twice the detail at the same scale).
    mutating func rasterTiles(source name: String, tileSource: TileSource, transform: Transform, dem: DEMEncoding?,
                              pixelRatio: Double = 1, elevations: ClosedRange<Double>? = nil) throws -> [FrameTile] {
        let info = tileSource.info
        let highDensity = pixelRatio >= 2 && tileSource.hasHighDensityTiles
        let cover = transform.coveringTiles(minZoom: info.minzoom, maxZoom: info.maxzoom, tileSize: info.tileSize,
                                            roundZoom: true, reparseOverscaled: false, elevations: elevations)
        var seen = Set<CoveredTile>()
        var out: [FrameTile] = []
        for covered in cover where info.covers(covered.id) {
            var z = covered.id.z
            // MapLibre looks at most 10 levels up for a stand-in (SourceCache.maxOverzooming).
            while z >= max(info.minzoom, covered.id.z - FrameBuilder.maxOverzooming) {
                let id = covered.id.parent(atZoom: z)
                let tile = CoveredTile(id: id, wrap: covered.wrap, overscaledZoom: id.z)
                if seen.contains(tile) { break }
                if let box = try raster(source: name, tileSource: tileSource, id: id, dem: dem, highDensity: highDensity) {
                    seen.insert(tile)
                    out.append(FrameTile(tile: tile, geometry: nil, raster: box))
                    break
                }
                z -= 1
            }
        }
        return out
    }

    /// The decoded tile, cached: premultiplied colors, or DEM pixels with a border filled from
    /// the neighboring tiles (MapLibre's backfillBorder) or, where the source has none, from the
    /// tile's own edge.
    mutating func raster(source: String, tileSource: TileSource, id: TileID, dem: DEMEncoding?,
                         highDensity: Bool = false) throws -> RasterBox? {
        let key = TileKey(generation: style.sourceGeneration(source), source: highDensity ? source + "\u{0}@2x" : source, tile: id)
        return try rasters.value(for: key) {
            guard let image = try decoded(source: source, tileSource: tileSource, id: id, highDensity: highDensity) else {
                return Cached(value: nil)
            }
            guard let dem else { return Cached(value: RasterBox(image: RasterBox.premultiplied(image))) }
            var bordered: RGBAImage
            do {
                bordered = try FrameBuilder.bordered(dem: image)
            } catch {
                return Cached(value: try brokenTile(source: source, tileSource: tileSource, id: id, highDensity: highDensity,
                                                    error: error))
            }
            let n = 1 << id.z
            for dy in -1...1 {
                for dx in -1...1 where dx != 0 || dy != 0 {
                    guard let nid = TileID(z: id.z, x: ((id.x + dx) % n + n) % n, y: id.y + dy),
                          let neighbor = try decoded(source: source, tileSource: tileSource, id: nid, highDensity: highDensity),
                          neighbor.width == image.width, neighbor.height == image.height else { continue }
                    FrameBuilder.backfill(&bordered, from: neighbor, dx: dx, dy: dy)
                }
            }
            return Cached(value: RasterBox(image: bordered, kind: .dem(unpack: dem.unpack)))
        }.value
    }

    /// The tile's image as decoded (straight alpha), cached apart from the prepared boxes so that
    /// neighbors are decoded once.
    private mutating func decoded(source: String, tileSource: TileSource, id: TileID, highDensity: Bool) throws -> RGBAImage? {
        let key = TileKey(generation: style.sourceGeneration(source), source: source + (highDensity ? "\u{0}decoded@2x" : "\u{0}decoded"), tile: id)
        return try rasters.value(for: key) {
            counters.add(\.tilesDecoded)
            do {
                guard let bytes = try tileSource.rasterTile(id, highDensity: highDensity) else { return Cached(value: nil) }
                // The pixel limit is checked from the header, before any pixel memory is taken.
                let pixels = max(1, maxRasterPixels)
                let limits = PNGDecoder.Limits(maxDimension: min(PNGDecoder.Limits().maxDimension, pixels),
                                               maxBytes: pixels > Int.max / 4 ? Int.max : pixels * 4)
                do {
                    return Cached(value: RasterBox(image: try ImageDecoder(limits: limits).decode(bytes)))
                } catch ImageError.imageTooLarge(let width, let height, _, _) {
                    throw RasterTileError.tooLarge(width: width, height: height, limit: maxRasterPixels)
                }
            } catch {
                // Under the skip policy a broken tile is drawn around (its parent may stand in).
                return Cached(value: try brokenTile(source: source, tileSource: tileSource, id: id, highDensity: highDensity,
                                                    error: error))
            }
        }.value?.image
    }

    /// Copies the edge of `neighbor` (the tile `dx`, `dy` away) into the matching border of a
    /// bordered DEM image.
    static func backfill(_ bordered: inout RGBAImage, from neighbor: RGBAImage, dx: Int, dy: Int) {
        let dim = neighbor.width, stride = dim + 2
        let xs = dx < 0 ? -1 ... -1 : dx > 0 ? dim...dim : 0...(dim - 1)
        let ys = dy < 0 ? -1 ... -1 : dy > 0 ? dim...dim : 0...(dim - 1)
        neighbor.pixels.withUnsafeBufferPointer { src in
            bordered.pixels.withUnsafeMutableBufferPointer { dst in
                for y in ys {
                    for x in xs {
                        let s = ((y - dy * dim) * dim + (x - dx * dim)) * 4, d = ((y + 1) * stride + x + 1) * 4
                        dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]
                    }
                }
            }
        }
    }

    /// A square DEM tile with a one-pixel border copied from its edges (MapLibre's DEMData), so
    /// slopes at the tile edge have neighbors to read.
    static func bordered(dem image: RGBAImage) throws -> RGBAImage {
        guard image.width == image.height, image.width >= 2 else {
            throw DEMError.notSquare(width: image.width, height: image.height)
        }
        let dim = image.width, stride = dim + 2
        var out = [UInt8](repeating: 0, count: stride * stride * 4)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in -1...dim {
                    let sy = min(max(y, 0), dim - 1)
                    for x in -1...dim {
                        let sx = min(max(x, 0), dim - 1)
                        let s = (sy * dim + sx) * 4, d = ((y + 1) * stride + x + 1) * 4
                        dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]; dst[d + 3] = 255
                    }
                }
            }
        }
        return RGBAImage(width: stride, height: stride, pixels: out)
    }
}

/// A raster tile over `Limits.maxRasterTilePixels`.
enum RasterTileError: Error, CustomStringConvertible {
    case tooLarge(width: Int, height: Int, limit: Int)
    var description: String {
        switch self {
        case let .tooLarge(w, h, limit):
            return "the image is \(w)x\(h) pixels, over the limit of \(limit) pixels a raster tile (Limits.maxRasterTilePixels)"
        }
    }
}

/// A raster-dem tile that cannot be used.
enum DEMError: Error, CustomStringConvertible {
    case notSquare(width: Int, height: Int)
    var description: String {
        switch self {
        case let .notSquare(w, h): return "a raster-dem tile must be square (and at least 2 pixels), this one is \(w)x\(h)"
        }
    }
}
