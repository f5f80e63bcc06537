/// Where the camera looks. Unset values fall back to the style's own `center`, `zoom`, `bearing`,
/// `pitch` and `roll`, then to 0 (the field of view to GL JS's 36.87 degrees). A camera gives
/// either `center` and `zoom` or `bounds`: with `bounds`, the center and zoom are those of
/// `Snapshotter.camera(for: bounds, padding: padding, bearing:, pitch:)` (the bounds fitted inside
/// `padding`), and a camera with `bounds` and a `center` or `zoom` is refused
/// (`GLSnapError.invalidOptions` naming both). Without `bounds`, `padding` is the map's padding,
/// as GL JS's `setPadding`: the center and the vanishing point move into the middle of the area
/// the insets leave.
public struct CameraOptions: Equatable, Sendable {
    /// The coordinate in the middle of the view (nil: the style's `center`, else 0, 0).
    public var center: Coordinate?
    /// The zoom, within -2...24 (nil: the style's `zoom`, else 0).
    public var zoom: Double?
    /// Degrees clockwise from north.
    public var bearing: Double?
    /// Degrees from straight down, 0...180 (GL JS's largest `maxPitch`; past 90 the camera looks
    /// up, and shows the ground only from above it: see `centerAltitude`).
    public var pitch: Double?
    /// Degrees the view turns about its own axis (clockwise on the screen, as GL JS's `roll`).
    public var roll: Double?
    /// The vertical field of view in degrees, above 0 and below 180 (GL JS's
    /// `setVerticalFieldOfView`; nil: 36.87).
    public var fieldOfView: Double?
    /// Bounds to fit in place of `center` and `zoom` (nil, the default: none); see the type's note.
    public var bounds: CoordinateBounds?
    /// Insets in points (default none): where the bounds are fitted, else the map's padding.
    public var padding: EdgeInsets
    /// Meters the center lies above the ground (GL JS's `setCenterElevation`, the camera's
    /// `elevation`; nil: the style's `centerAltitude`, else 0). The camera orbits that point, so
    /// a raised center lifts the camera with it; finite values only.
    public var centerAltitude: Double?
    /// GL JS's `centerClampedToGround` (nil: true): with terrain, whether the center follows the
    /// ground under it instead of keeping `centerAltitude`. glsnap draws the map flat, where
    /// the ground is at 0 everywhere, so `centerAltitude` is kept either way.
    public var centerClampedToGround: Bool?

    /// The highest (and, negated, lowest) `centerAltitude` a snapshot accepts, in meters: ten
    /// thousand kilometers, past which a flat map is no longer a sensible view.
    public static let maxCenterAltitude = 1e7

    /// A camera with the given values (each nil by default: the style's, see the type's note).
    public init(center: Coordinate? = nil, zoom: Double? = nil, bearing: Double? = nil, pitch: Double? = nil,
                bounds: CoordinateBounds? = nil, padding: EdgeInsets = EdgeInsets(),
                roll: Double? = nil, fieldOfView: Double? = nil, centerAltitude: Double? = nil,
                centerClampedToGround: Bool? = nil) {
        self.center = center; self.zoom = zoom; self.bearing = bearing; self.pitch = pitch
        self.bounds = bounds; self.padding = padding
        self.roll = roll; self.fieldOfView = fieldOfView
        self.centerAltitude = centerAltitude; self.centerClampedToGround = centerClampedToGround
    }
}
