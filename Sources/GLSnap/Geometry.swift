/// A geographic position in degrees (WGS 84).
public struct Coordinate: Equatable, Sendable {
    /// Degrees north of the equator, -90...90 (the map shows ±85.05).
    public var latitude: Double
    /// Degrees east of Greenwich (past ±180 wraps onto the next world copy).
    public var longitude: Double
    /// The coordinate at `latitude`, `longitude` (degrees).
    public init(latitude: Double, longitude: Double) { self.latitude = latitude; self.longitude = longitude }
}

/// A point in the snapshot, in points (CSS pixels) from the top-left corner; multiply by the pixel
/// ratio for image pixels.
public struct Point: Equatable, Sendable {
    /// Points from the left edge.
    public var x: Double
    /// Points from the top edge.
    public var y: Double
    /// The point `x`, `y` points from the top-left corner.
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// A size in points.
public struct Size: Equatable, Sendable {
    /// Points across.
    public var width: Double
    /// Points down.
    public var height: Double
    /// `width` × `height` points.
    public init(width: Double, height: Double) { self.width = width; self.height = height }
}

/// Insets in points, e.g. the padding around bounds fitted into a snapshot.
public struct EdgeInsets: Equatable, Sendable {
    /// Points from each edge (not negative).
    public var top, left, bottom, right: Double
    /// Insets of the given points from each edge (default 0 each).
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    /// The same inset, `all` points, from every edge.
    public init(all: Double) { self.init(top: all, left: all, bottom: all, right: all) }
}

/// A longitude/latitude box: southwest and northeast corners.
public struct CoordinateBounds: Equatable, Sendable {
    /// The west and south edges.
    public var southwest: Coordinate
    /// The east and north edges.
    public var northeast: Coordinate
    /// The box between its `southwest` and `northeast` corners.
    public init(southwest: Coordinate, northeast: Coordinate) { self.southwest = southwest; self.northeast = northeast }
    /// From west, south, east, north in degrees.
    public init(west: Double, south: Double, east: Double, north: Double) {
        self.init(southwest: Coordinate(latitude: south, longitude: west), northeast: Coordinate(latitude: north, longitude: east))
    }
}
