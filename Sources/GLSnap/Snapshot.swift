import GLSnapImage
import GLSnapLayout

/// A rendered map image and the conversion between its points and coordinates.
public struct Snapshot: Sendable {
    /// floor(width × ratio) × floor(height × ratio) pixels, straight alpha.
    public var image: RGBAImage
    public let pixelRatio: Double
    let transform: Transform

    init(image: RGBAImage, pixelRatio: Double, transform: Transform) {
        self.image = image; self.pixelRatio = pixelRatio; self.transform = transform
    }

    /// The point (in points from the top-left; × pixelRatio for image pixels) where `coordinate` is drawn.
    public func point(for coordinate: Coordinate) -> Point {
        let p = transform.point(for: (coordinate.longitude, coordinate.latitude))
        return Point(x: p.x, y: p.y)
    }

    /// The coordinate drawn at `point` (in points from the top-left).
    public func coordinate(for point: Point) -> Coordinate {
        let c = transform.coordinate(for: (point.x, point.y))
        return Coordinate(latitude: c.lat, longitude: c.lon)
    }

    /// The image as PNG.
    public func pngData(options: PNGEncoder.Options = .standard) throws -> [UInt8] {
        try PNGEncoder(options: options).encode(image)
    }
}
