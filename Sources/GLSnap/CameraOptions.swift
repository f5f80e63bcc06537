/// Where the camera looks. Unset values fall back to the style's own `center`, `zoom`, `bearing`,
/// `pitch` and `roll`, then to 0 (the field of view to GL JS's 36.87 degrees). When `bounds` is
/// set, center and zoom are computed to fit it (inside `padding`) and any `center`/`zoom` given
/// are ignored; otherwise `padding` is the map's padding, as GL JS's `setPadding`: the center
/// and the vanishing point move into the middle of the area the insets leave.
public struct CameraOptions: Equatable, Sendable {
    public var center: Coordinate?
    public var zoom: Double?
    /// Degrees clockwise from north.
    public var bearing: Double?
    /// Degrees from straight down, 0...85.
    public var pitch: Double?
    /// Degrees the view turns about its own axis (clockwise on the screen, as GL JS's `roll`).
    public var roll: Double?
    /// The vertical field of view in degrees, above 0 and below 180 (GL JS's
    /// `setVerticalFieldOfView`; nil: 36.87).
    public var fieldOfView: Double?
    public var bounds: CoordinateBounds?
    public var padding: EdgeInsets

    public init(center: Coordinate? = nil, zoom: Double? = nil, bearing: Double? = nil, pitch: Double? = nil,
                bounds: CoordinateBounds? = nil, padding: EdgeInsets = EdgeInsets(),
                roll: Double? = nil, fieldOfView: Double? = nil) {
        self.center = center; self.zoom = zoom; self.bearing = bearing; self.pitch = pitch
        self.bounds = bounds; self.padding = padding
        self.roll = roll; self.fieldOfView = fieldOfView
    }
}
