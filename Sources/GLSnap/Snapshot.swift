import GLSnapImage
import GLSnapLayout

/// A rendered map image and the conversion between its points and coordinates.
public struct Snapshot: Sendable {
    /// floor(width × ratio) × floor(height × ratio) pixels, straight alpha.
    public var image: RGBAImage
    /// Image pixels per point (the options' or the call's).
    public let pixelRatio: Double
    /// Where the time went.
    public internal(set) var timings = SnapshotTimings()
    /// Problems drawn around (broken sources or tiles) under `SourceErrorPolicy.skip`.
    public internal(set) var warnings: [String] = []
    let transform: Transform
    /// The globe drawn, where the style's projection asked for one at this zoom.
    var globe: GlobeView?
    /// The flat camera of the map the globe was drawn from, which feature queries ask.
    var globeFlat: Transform?
    /// What feature queries read (see Snapshot+Query.swift); nil for snapshots made otherwise.
    var queryIndex: SnapshotQueryIndex?

    init(image: RGBAImage, pixelRatio: Double, transform: Transform) {
        self.image = image; self.pixelRatio = pixelRatio; self.transform = transform
    }

    /// The point (in points from the top-left; × pixelRatio for image pixels) where `coordinate` is drawn.
    /// On a globe (a style whose `projection` is a globe at this zoom) a coordinate behind the
    /// horizon, hidden by the planet, has no screen position: the point is then (NaN, NaN).
    public func point(for coordinate: Coordinate) -> Point {
        if let globe {
            let p = globe.point(for: (coordinate.longitude, coordinate.latitude))
            return Point(x: p?.x ?? .nan, y: p?.y ?? .nan)
        }
        let p = transform.point(for: (coordinate.longitude, coordinate.latitude))
        return Point(x: p.x, y: p.y)
    }

    /// The coordinate drawn at `point` (in points from the top-left). On a globe, a point that
    /// shows space around the planet has no coordinate: both are then NaN.
    public func coordinate(for point: Point) -> Coordinate {
        if let globe {
            let c = globe.coordinate(for: (point.x, point.y))
            return Coordinate(latitude: c?.lat ?? .nan, longitude: c?.lon ?? .nan)
        }
        let c = transform.coordinate(for: (point.x, point.y))
        return Coordinate(latitude: c.lat, longitude: c.lon)
    }

    /// The image as PNG.
    public func pngData(options: PNGEncoder.Options = .standard) throws -> [UInt8] {
        try PNGEncoder(options: options).encode(image)
    }

    /// The image as a `format` file: PNG with `png`'s level and filters, JPEG or WebP at `quality`
    /// (1...100, default 90). What the command line, the server and the C ABI write.
    public func data(format: ImageFormat, quality: Int = ImageEncoder.defaultQuality,
                     png: PNGEncoder.Options = .standard) throws -> [UInt8] {
        try ImageEncoder(format: format, png: png, quality: quality).encode(image)
    }
}

/// Seconds spent per stage of one snapshot.
public struct SnapshotTimings: Sendable {
    /// Reading and decoding tiles (cache misses only).
    public var tileLoad: Double = 0
    /// Filtering and tessellating tile layers into buckets, and assembling the frame.
    public var layout: Double = 0
    /// Placing labels and icons (collision detection over the whole view).
    public var placement: Double = 0
    /// Filling vertex, index and paint buffers and textures (first use of tile geometry, labels).
    public var upload: Double = 0
    /// Issuing draw calls (llvmpipe runs vertex shaders and bins triangles here).
    public var draw: Double = 0
    /// Waiting for the rasterizer and reading the framebuffer back.
    public var readback: Double = 0
    /// No time spent.
    public init() {}
}
