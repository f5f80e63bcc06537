import Foundation
import GLSnapImage
import GLSnapLayout
import GLSnapRender
import GLSnapStyle

/// The flat map under a globe view: a Mercator image of what the globe shows, drawn by the
/// flat pipeline (every layer type, labels placed once), which the globe then samples per pixel.
///
/// Its resolution follows the globe: a texel per screen pixel where the sphere is largest against
/// Mercator (toward the equator, `cos(lat) / cos(center lat)`), up to `maxSide` pixels a side.
struct GlobeTexture {
    /// The most texels a side (64 MiB of RGBA).
    static let maxSide = 4096.0
    /// The flat camera the texture was drawn with: bearing and pitch 0, north up.
    let flat: Transform
    let pixelRatio: Double
    /// Premultiplied RGBA, `width` × `height`.
    let pixels: [UInt8]
    let width: Int, height: Int

    /// The Mercator rectangle (x unwrapped, y within 0...1) and the magnification a globe view
    /// needs drawn, from rays through a grid of screen points and, where the view shows space
    /// around the planet, the whole cap the camera sees.
    static func region(_ globe: GlobeView) -> (x0: Double, x1: Double, y0: Double, y1: Double, magnification: Double) {
        let t = globe.flat
        let cosCenter = cos(t.center.lat * .pi / 180)
        var x0 = Double.infinity, x1 = -Double.infinity, y0 = Double.infinity, y1 = -Double.infinity
        var maxCos = cosCenter
        var missed = false
        let steps = 32
        for j in 0...steps {
            for i in 0...steps {
                let p = (Double(i) / Double(steps) * t.width, Double(j) / Double(steps) * t.height)
                guard let m = globe.mercatorCoordinate(for: p) else { missed = true; continue }
                x0 = min(x0, m.x); x1 = max(x1, m.x); y0 = min(y0, m.y); y1 = max(y1, m.y)
                maxCos = max(maxCos, cos(Mercator.lat(y: min(max(m.y, 0), 1)) * .pi / 180))
            }
        }
        if missed, let cap = globe.visibleCap() {
            let cx = Mercator.x(lon: t.center.lon)
            var lon0 = Mercator.x(lon: cap.lon - cap.halfWidth), lon1 = Mercator.x(lon: cap.lon + cap.halfWidth)
            let shift = ((lon0 + lon1) / 2 - cx).rounded()
            lon0 -= shift; lon1 -= shift
            x0 = min(x0, lon0); x1 = max(x1, lon1)
            y0 = min(y0, Mercator.y(lat: min(cap.north, Mercator.maxLatitude)))
            y1 = max(y1, Mercator.y(lat: max(cap.south, -Mercator.maxLatitude)))
            if cap.south <= 0 && cap.north >= 0 { maxCos = 1 } else { maxCos = max(maxCos, cos(min(abs(cap.south), abs(cap.north)) * .pi / 180)) }
        }
        guard x0 <= x1 else { return (0, 1, 0, 1, 1) }
        // A few texels of margin for the bilinear lookups at the edges of what is seen.
        let pad = 4 / t.worldSize
        x0 -= pad; x1 += pad
        if x1 - x0 > 1 { let c = (x0 + x1) / 2; x0 = c - 0.5; x1 = c + 0.5 }
        y0 = max(0, min(y0, 1) - pad); y1 = min(1, max(y1, 0) + pad)
        if y1 <= y0 { y1 = min(1, y0 + pad) }
        return (x0, x1, y0, y1, max(1, maxCos / cosCenter))
    }

    /// Where Mercator `m` lies in the texture (CSS pixels of `flat` from its top-left), x wrapped
    /// to the texture's world copy: what feature queries on the globe ask the flat map at.
    func point(forMercator m: (x: Double, y: Double)) -> (x: Double, y: Double) {
        GlobeTexture.point(forMercator: m, in: flat)
    }

    static func point(forMercator m: (x: Double, y: Double), in flat: Transform) -> (x: Double, y: Double) {
        let cmx = Mercator.x(lon: flat.center.lon), cmy = Mercator.y(lat: flat.center.lat)
        let c = flat.centerScreenPoint
        return ((m.x - cmx - (m.x - cmx).rounded()) * flat.worldSize + c.x, (m.y - cmy) * flat.worldSize + c.y)
    }

    /// The bilinear sample at Mercator `m` (x wrapped to the texture's world copy, y clamped:
    /// past the texture's rows, the last row, so the polar caps take the color at the map's
    /// edge as GL JS's pole geometry does), premultiplied.
    @inline(__always)
    func sample(_ m: (x: Double, y: Double), _ p: UnsafeBufferPointer<UInt8>) -> (Double, Double, Double, Double) {
        let ws = flat.worldSize, c = flat.centerScreenPoint
        let cmx = Mercator.x(lon: flat.center.lon), cmy = Mercator.y(lat: flat.center.lat)
        var mx = m.x
        mx -= (mx - cmx).rounded()
        let fx = ((mx - cmx) * ws + c.x) * pixelRatio - 0.5
        let fy = ((m.y - cmy) * ws + c.y) * pixelRatio - 0.5
        let cx = min(max(fx, 0), Double(width - 1)), cy = min(max(fy, 0), Double(height - 1))
        let ix = Int(cx), iy = Int(cy)
        let ax = cx - Double(ix), ay = cy - Double(iy)
        let jx = min(ix + 1, width - 1), jy = min(iy + 1, height - 1)
        let ia = (iy * width + ix) * 4, ib = (iy * width + jx) * 4, ic = (jy * width + ix) * 4, id = (jy * width + jx) * 4
        let wa = (1 - ax) * (1 - ay), wb = ax * (1 - ay), wc = (1 - ax) * ay, wd = ax * ay
        func lerp(_ k: Int) -> Double {
            Double(p[ia + k]) * wa + Double(p[ib + k]) * wb + Double(p[ic + k]) * wc + Double(p[id + k]) * wd
        }
        return (lerp(0), lerp(1), lerp(2), lerp(3))
    }
}

extension ImageDrawing {
    /// The globe this image's style and camera ask for, or nil for the flat map (no projection,
    /// Mercator, or a zoom past the globe's transition).
    static func globe(style: LoadedStyle, transform: Transform) -> GlobeView? {
        let json = style.style.json
        let g = GlobeProjection.globeness(json["projection"], zoom: transform.zoom, state: json["state"])
        return g > 0 ? GlobeView(flat: transform, globeness: g, terrain: json["terrain"] != nil) : nil
    }

    /// Draws the flat map under `globe` into a texture (in pieces, as any image), keeping its
    /// frame builder (warnings, covers) as this image's. `layers`: the ids drawn (nil: all).
    mutating func drawGlobeTexture(_ globe: GlobeView, layers: Set<String>? = nil) throws -> GlobeTexture {
        let r = GlobeTexture.region(globe)
        let ratio = checked.options.pixelRatio
        var zoom = globe.flat.zoom + log2(r.magnification)
        var ws = Transform.tileSize * pow(2, zoom)
        let side = max(r.x1 - r.x0, r.y1 - r.y0) * ws * ratio
        if side > GlobeTexture.maxSide { zoom -= log2(side / GlobeTexture.maxSide); ws = Transform.tileSize * pow(2, zoom) }
        zoom = max(zoom, Transform.minZoom)
        ws = Transform.tileSize * pow(2, zoom)
        // Whole pixels, with a quarter pixel to spare against rounding down.
        let w = max(1, ((r.x1 - r.x0) * ws * ratio).rounded(.up)), h = max(1, ((r.y1 - r.y0) * ws * ratio).rounded(.up))
        let center = (lon: Mercator.lon(x: (r.x0 + r.x1) / 2), lat: Mercator.lat(y: (r.y0 + r.y1) / 2))
        var options = checked.options
        options.size = Size(width: (w + 0.25) / ratio, height: (h + 0.25) / ratio)
        let inner = try CheckedOptions(options, deadline: checked.deadline)
        let flat = Transform(width: options.size.width, height: options.size.height, center: center, zoom: zoom)
        var drawing = ImageDrawing(snapshotter: snapshotter, style: style, transform: flat, checked: inner, builder: builder)
        drawing.builder.globePass = layers.map { GlobeFramePass(layers: $0) }
        drawing.globeCamera = GlobeCamera(zoom: globe.flat.zoom, bearing: globe.flat.bearing, globeness: globe.globeness,
                                          latitude: globe.flat.center.lat, widensLines: style.style.json["terrain"] == nil)
        let count = inner.width * inner.height * 4
        var pixels = [UInt8](repeating: 0, count: count)
        try pixels.withUnsafeMutableBytes { p in
            try drawing.draw(inner.grid, into: Stitcher(grid: inner.grid, image: p))
        }
        builder = drawing.builder
        builder.globePass = nil
        timings.add(drawing.timings)
        // Premultiplied once, for the bilinear lookups.
        for i in stride(from: 0, to: count, by: 4) where pixels[i + 3] < 255 {
            let a = UInt16(pixels[i + 3])
            for k in 0..<3 { pixels[i + k] = UInt8((UInt16(pixels[i + k]) * a + 127) / 255) }
        }
        return GlobeTexture(flat: flat, pixelRatio: ratio, pixels: pixels, width: inner.width, height: inner.height)
    }

    /// Draws `piece` (image pixels) of the globe: each pixel's ray through the camera meets the
    /// sphere (or the blend's surface between the transition zooms) at a coordinate the texture
    /// is sampled at; pixels that show no globe are transparent.
    func drawGlobePiece(_ piece: PixelRect, globe: GlobeView, texture: GlobeTexture, atmosphere: GlobeAtmosphere? = nil,
                        into destination: UnsafeMutableRawBufferPointer) {
        let ratio = checked.options.pixelRatio
        let out = destination.bindMemory(to: UInt8.self)
        texture.pixels.withUnsafeBufferPointer { texels in
        for row in 0..<piece.height {
            let y = (Double(piece.y + row) + 0.5) / ratio
            for col in 0..<piece.width {
                let o = (row * piece.width + col) * 4
                let point = ((Double(piece.x + col) + 0.5) / ratio, y)
                guard let m = globe.meshMercatorCoordinate(for: point) else {
                    out[o] = 0; out[o + 1] = 0; out[o + 2] = 0; out[o + 3] = 0
                    atmosphere?.composite(at: point, out, o, excess: checked.options.excessLight)
                    continue
                }
                let s = texture.sample(m, texels)
                let a = (s.3).rounded()
                out[o + 3] = UInt8(min(max(a, 0), 255))
                if a <= 0 {
                    out[o] = 0; out[o + 1] = 0; out[o + 2] = 0
                } else {
                    out[o] = UInt8(min(max((s.0 * 255 / s.3).rounded(), 0), 255))
                    out[o + 1] = UInt8(min(max((s.1 * 255 / s.3).rounded(), 0), 255))
                    out[o + 2] = UInt8(min(max((s.2 * 255 / s.3).rounded(), 0), 255))
                }
                atmosphere?.composite(at: point, out, o, excess: checked.options.excessLight)
            }
        }
        }
    }
}

extension CheckedOptions {
    /// Options for an image drawn within another's time limit (`deadline`, already started).
    init(_ options: MapSnapshotOptions, deadline: RenderDeadline?) throws {
        self.options = options
        (width, height) = try options.pixelSize(streamed: false)
        self.deadline = deadline
    }
}

extension ImageDrawing {
    /// An image of the flat map through `transform`, laid out by `builder` (another image's, so
    /// that caches, states and warnings carry over).
    init(snapshotter: Snapshotter, style: LoadedStyle, transform: Transform, checked: CheckedOptions, builder: FrameBuilder) {
        self.snapshotter = snapshotter
        self.style = style
        self.checked = checked
        self.transform = transform
        self.builder = builder
        globe = nil
    }

    /// The globe's pieces: the texture drawn with the first, then each piece sampled from it.
    mutating func drawGlobe(_ globe: GlobeView, grid: PieceGrid, into stitcher: Stitcher,
                            progress: ((_ done: Int, _ total: Int) -> Void)?, band: (Int) throws -> Void) throws {
        if globeTexture == nil, let runs = GlobeLayerRuns(style.style.layers, zoom: transform.zoom) {
            return try drawGlobe(globe, runs: runs, grid: grid, into: stitcher, progress: progress, band: band)
        }
        let texture = try globeTexture ?? drawGlobeTexture(globe)
        globeTexture = texture
        let atmosphere = globeAtmosphere(globe)
        for b in 0..<grid.bands {
            for c in 0..<grid.columns {
                let piece = grid.piece(band: b, column: c)
                drawGlobePiece(piece, globe: globe, texture: texture, atmosphere: atmosphere, into: stitcher.destination(for: piece))
                stitcher.place(piece)
                progress?(b * grid.columns + c + 1, grid.count)
            }
            try band(b)
        }
    }
}

extension SnapshotTimings {
    mutating func add(_ o: SnapshotTimings) {
        tileLoad += o.tileLoad; layout += o.layout; placement += o.placement
        upload += o.upload; draw += o.draw; readback += o.readback
    }
}
