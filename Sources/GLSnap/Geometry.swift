/// A geographic position in degrees (WGS 84).
public struct Coordinate: Equatable, Sendable {
    public var latitude: Double
    public var longitude: Double
    public init(latitude: Double, longitude: Double) { self.latitude = latitude; self.longitude = longitude }
}

/// A point in the snapshot, in points (CSS pixels) from the top-left corner; multiply by the pixel
/// ratio for image pixels.
public struct Point: Equatable, Sendable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// A size in points.
public struct Size: Equatable, Sendable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
}

/// Insets in points, e.g. the padding around bounds fitted into a snapshot.
public struct EdgeInsets: Equatable, Sendable {
    public var top, left, bottom, right: Double
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    public init(all: Double) { self.init(top: all, left: all, bottom: all, right: all) }
}

/// A longitude/latitude box: southwest and northeast corners.
public struct CoordinateBounds: Equatable, Sendable {
    public var southwest: Coordinate
    public var northeast: Coordinate
    public init(southwest: Coordinate, northeast: Coordinate) { self.southwest = southwest; self.northeast = northeast }
    /// From west, south, east, north in degrees.
    public init(west: Double, south: Double, east: Double, north: Double) {
        self.init(southwest: Coordinate(latitude: south, longitude: west), northeast: Coordinate(latitude: north, longitude: east))
    }
}
