/// Where the camera looks. Unset values fall back to the style's own `center`, `zoom`, `bearing`
/// and `pitch`, then to 0. When `bounds` is set, center and zoom are computed to fit it (inside
/// `padding`) and any `center`/`zoom` given are ignored.
public struct CameraOptions: Equatable, Sendable {
    public var center: Coordinate?
    public var zoom: Double?
    /// Degrees clockwise from north.
    public var bearing: Double?
    /// Degrees from straight down, 0...85.
    public var pitch: Double?
    public var bounds: CoordinateBounds?
    public var padding: EdgeInsets

    public init(center: Coordinate? = nil, zoom: Double? = nil, bearing: Double? = nil, pitch: Double? = nil,
                bounds: CoordinateBounds? = nil, padding: EdgeInsets = EdgeInsets()) {
        self.center = center; self.zoom = zoom; self.bearing = bearing; self.pitch = pitch
        self.bounds = bounds; self.padding = padding
    }
}
