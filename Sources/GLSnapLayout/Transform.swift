import Foundation
import GLSnapData
import GLSnapStyle

/// Web Mercator (defined in GLSnapStyle, where expressions need it too): visible to every module
/// that imports GLSnapLayout, as it was when it was defined here.
public typealias Mercator = GLSnapStyle.Mercator

/// A camera over a Web Mercator map, with MapLibre GL JS's exact matrices.
///
/// Pixels are CSS pixels from the top-left corner. `worldSize` = 512 * 2^zoom: the whole world
/// is one 512-pixel tile at zoom 0. Latitude is clamped to ±`Mercator.maxLatitude` (85.0511287798066), pitch to 0...`maxPitch` degrees,
/// zoom to `minZoom`...`TileID.maxZoom`, the field of view to 0.01...179 degrees; the bearing and roll
/// are kept as given (degrees clockwise). `padding` (CSS pixels from each edge) moves the center
/// and the vanishing point into the middle of the unpadded area, as GL JS's map padding does.
public struct Transform: Sendable {
    /// MapLibre's vertical field of view: 2 * atan(1/3) radians, about 36.87 degrees.
    public static let fieldOfView = 0.6435011087932844
    /// The lowest zoom, GL JS's lowest `minZoom`: at -2 the world is 128 pixels wide.
    public static let minZoom = -2.0

    /// Pixels across one tile at integer zoom.
    public static let tileSize = 512.0
    /// GL JS's steepest angle of the line from the camera to the Mercator horizon (degrees):
    /// the far plane stops there at high pitch (maxMercatorHorizonAngle).
    static let maxHorizonAngle = 89.25
    /// The steepest pitch (degrees), GL JS's largest `maxPitch`: past 90 the camera looks up,
    /// which shows the ground only from above it (`centerAltitude`).
    public static let maxPitch = 180.0
    /// Meters below the camera the far plane reaches at least (GL JS's
    /// minRenderDistanceBelowCameraInMeters).
    static let minDepthBelowCamera = 100.0

    public let width: Double
    public let height: Double
    public let center: (lon: Double, lat: Double)
    public let zoom: Double
    public let bearing: Double
    public let pitch: Double
    /// Degrees the view turns about its own axis, clockwise on the screen like the bearing.
    public let roll: Double
    /// The vertical field of view in degrees.
    public let verticalFieldOfView: Double
    /// Meters the center point lies above the ground (GL JS's transform `elevation`, set by
    /// `setCenterElevation`): the camera orbits that point, and the ground is drawn that far below.
    public let centerAltitude: Double
    /// Insets from each edge (CSS pixels); the center lies in the middle of what they leave.
    public let padding: (top: Double, left: Double, bottom: Double, right: Double)
    /// Meters above sea level of the point the camera looks at (the terrain's height at the
    /// center, as GL JS sets it); 0 without terrain. The 2D pixel matrix ignores it, as GL JS's.
    public let elevation: Double
    /// The lowest elevation (meters, exaggerated) of the terrain's DEM tile under the center (GL JS's
    /// minElevationForCurrentTile); nil without terrain. With it the far plane always reaches the
    /// lowest plane GL JS computes, as the terrain's fog depth runs to the far plane.
    public let minTerrainElevation: Double?

    /// 512 * 2^zoom.
    public let worldSize: Double
    /// Distance from the camera to the center point, in pixels (0.5 / tan(fov / 2) * height:
    /// 1.5 * height at the default field of view).
    public let cameraToCenterDistance: Double
    /// The far plane's distance from the camera (pixels): as far as the ground the view shows,
    /// or the horizon where that is nearer.
    public let farZ: Double
    /// World pixels (x, y in 0...worldSize, z in meters up) to clip space; column-major.
    public let projMatrix: [Double]
    /// The inverse of `projMatrix`.
    public let invProjMatrix: [Double]
    /// World pixels (z in meters) to CSS pixels from the top-left (after the divide by w).
    let pixelMatrix: [Double]
    let pixelMatrixInverse: [Double]
    /// The center in world pixels.
    let centerPoint: (x: Double, y: Double)
    /// Where the center is drawn (CSS pixels from the top-left): the middle of the view moved
    /// by the padding.
    public let centerScreenPoint: (x: Double, y: Double)

    /// Makes a camera. `width` and `height` must be positive (a programmer error otherwise).
    /// `fieldOfView` is the vertical field of view in degrees.
    public init(width: Double, height: Double, center: (lon: Double, lat: Double), zoom: Double,
                bearing: Double = 0, pitch: Double = 0, roll: Double = 0,
                fieldOfView: Double = Transform.fieldOfView * 180 / .pi,
                padding: (top: Double, left: Double, bottom: Double, right: Double) = (0, 0, 0, 0),
                elevation: Double = 0, centerAltitude: Double = 0, minTerrainElevation: Double? = nil) {
        precondition(width > 0 && height > 0, "Transform needs a positive size, got \(width)x\(height)")
        self.width = width
        self.height = height
        let lat = min(max(center.lat.isFinite ? center.lat : 0, -Mercator.maxLatitude), Mercator.maxLatitude)
        self.center = (center.lon.isFinite ? center.lon : 0, lat)
        self.zoom = min(max(zoom.isFinite ? zoom : 0, Transform.minZoom), Double(TileID.maxZoom))
        self.bearing = bearing.isFinite ? bearing : 0
        self.pitch = min(max(pitch.isFinite ? pitch : 0, 0), Transform.maxPitch)
        self.centerAltitude = centerAltitude.isFinite ? centerAltitude : 0
        self.roll = roll.isFinite ? roll : 0
        self.verticalFieldOfView = fieldOfView.isFinite ? min(max(fieldOfView, 0.01), 179) : Transform.fieldOfView * 180 / .pi
        let finite = { (v: Double) in v.isFinite ? v : 0 }
        self.padding = (finite(padding.top), finite(padding.left), finite(padding.bottom), finite(padding.right))
        self.elevation = finite(elevation)
        // GL JS's EdgeInsets.getCenter: the middle of the padded area, kept inside the view.
        let screenX = min(max((self.padding.left + width - self.padding.right) / 2, 0), width)
        let screenY = min(max((self.padding.top + height - self.padding.bottom) / 2, 0), height)
        centerScreenPoint = (screenX, screenY)
        let offset = (x: screenX - width / 2, y: screenY - height / 2)

        let worldSize = Transform.tileSize * pow(2, self.zoom)
        self.worldSize = worldSize
        let fov = self.verticalFieldOfView * .pi / 180
        let pitchRad = self.pitch * .pi / 180
        let rollRad = self.roll * .pi / 180
        let angle = -self.bearing * .pi / 180
        let cameraToCenterDistance = 0.5 / tan(fov / 2) * height
        self.cameraToCenterDistance = cameraToCenterDistance
        let pixelPerMeter = worldSize / (Mercator.earthCircumference * cos(lat * .pi / 180))

        // The far plane (GL JS's _calculateNearFarZIfNeeded): the ground distance from the
        // center to the top of the view (law of sines; a rolled view reaches as far as its
        // widest side), or to the horizon where that is nearer, bounds the farthest fragment.
        // The distances run from the camera to the ground below a raised center.
        let limitedPitch = min(self.pitch, Transform.maxHorizonAngle) * .pi / 180
        // The center's height: a raised center (`centerAltitude`) and the terrain under it (`elevation`).
        let altitude = self.centerAltitude + self.elevation
        let cameraToSeaLevelDistance = altitude == 0 ? cameraToCenterDistance
            : max(cameraToCenterDistance / 2, cameraToCenterDistance + altitude * pixelPerMeter / cos(limitedPitch))
        let groundAngle = Double.pi / 2 + pitchRad
        let clampAngle = { (a: Double) in min(max(a, 0.01), Double.pi - 0.01) }
        let rolledFov = fov * (abs(cos(rollRad)) * height + abs(sin(rollRad)) * width) / height
        let fovAboveCenter = rolledFov * (0.5 + offset.y / height)
        let surfaceSine = sin(clampAngle(Double.pi - groundAngle - fovAboveCenter))
        let horizon = cameraToCenterDistance * min(tan((90 - self.pitch) * .pi / 180) * 0.85,
                                                   tan((Transform.maxHorizonAngle - self.pitch) * .pi / 180))
        let horizonAngle = atan(horizon / cameraToCenterDistance)
        let minHorizonAngle = (90 - Transform.maxHorizonAngle) * .pi / 180
        let fovToHorizon = horizonAngle > minHorizonAngle ? 2 * horizonAngle * (0.5 + offset.y / (horizon * 2)) : minHorizonAngle
        let horizonSine = sin(clampAngle(Double.pi - groundAngle - fovToHorizon))
        // Where the horizon ends the ground (a steep view), GL JS measures to the lowest plane it
        // may draw: at least 100 m below the camera, which a camera low over the map (high zoom)
        // puts below the ground. Elsewhere the far plane only bounds depth, and a lower plane
        // would change nothing drawn but the depth of extrusions.
        var plane = cameraToSeaLevelDistance
        let terrainMin = minTerrainElevation.flatMap { $0.isFinite ? $0 : nil }
        self.minTerrainElevation = terrainMin
        if terrainMin != nil || sin(fovToHorizon) * plane / horizonSine < sin(fovAboveCenter) * plane / surfaceSine {
            let cameraAltitude = cos(pitchRad) * cameraToCenterDistance / pixelPerMeter + altitude
            let lowest = min(altitude, terrainMin ?? 0, cameraAltitude - Transform.minDepthBelowCamera)
            if lowest < 0 { plane -= lowest * pixelPerMeter / cos(limitedPitch) }
        }
        let topHalfSurfaceDistance = sin(fovAboveCenter) * plane / surfaceSine
        let topHalfHorizonDistance = sin(fovToHorizon) * plane / horizonSine
        farZ = (cos(Double.pi / 2 - limitedPitch) * min(topHalfSurfaceDistance, topHalfHorizonDistance) + plane) * 1.01
        let nearZ = height / 50

        let cx = Mercator.x(lon: self.center.lon) * worldSize
        let cy = Mercator.y(lat: lat) * worldSize
        centerPoint = (cx, cy)

        var m = Mat4.perspective(fovy: fov, aspect: width / height, near: nearZ, far: farZ)
        // The center of perspective moved with the padding.
        m[8] = -offset.x * 2 / width
        m[9] = offset.y * 2 / height
        Mat4.scale(&m, 1, -1, 1)
        Mat4.translate(&m, 0, 0, -cameraToCenterDistance)
        Mat4.rotateZ(&m, -rollRad)
        Mat4.rotateX(&m, pitchRad)
        Mat4.rotateZ(&m, angle)
        Mat4.translate(&m, -cx, -cy, 0)
        Mat4.scale(&m, 1, 1, pixelPerMeter)
        // A raised center is in the screen mapping too; the terrain's elevation is not (as GL JS's
        // 2D pixel matrix leaves it out).
        if self.centerAltitude != 0 { Mat4.translate(&m, 0, 0, -self.centerAltitude) }
        var label = Mat4.identity
        Mat4.scale(&label, width / 2, -height / 2, 1)
        Mat4.translate(&label, 1, -1, 0)
        pixelMatrix = Mat4.multiply(label, m)
        if self.elevation != 0 { Mat4.translate(&m, 0, 0, -self.elevation) }
        projMatrix = m
        // The matrix is a product of invertible factors for positive sizes and pitch < 90.
        invProjMatrix = Mat4.invert(m) ?? Mat4.identity

        pixelMatrixInverse = Mat4.invert(pixelMatrix) ?? Mat4.identity
    }

    /// The screen directions (unit vectors, CSS pixels, y down) that the map's east and south
    /// take in a map-pitched label plane that faces the viewer (GL JS's getTileSkewVectors):
    /// east is (cos b, sin b) and south (-sin b, cos b) for bearing b without roll.
    public var skewVectors: (east: (x: Double, y: Double), south: (x: Double, y: Double)) {
        let b = bearing * .pi / 180, p = pitch * .pi / 180, r = roll * .pi / 180
        let cb = cos(b), sb = sin(b), cp = cos(p), cr = cos(r), sr = sin(r)
        func unit(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
            let l = (x * x + y * y).squareRoot()
            return l < 1e-9 ? (0, 0) : (x / l, y / l)
        }
        return (unit(cb * cp * cr - sb * sr, sb * cp * cr + cb * sr), unit(-cb * cp * sr - sb * cr, -sb * cp * sr + cb * cr))
    }

    /// The angle (radians, y down) at which the map's east runs on the screen through the
    /// center: -bearing for a view without roll, less the roll with it.
    public var eastScreenAngle: Double {
        guard roll != 0 else { return -bearing * .pi / 180 }
        let c = (x: centerPoint.x, y: centerPoint.y)
        let p0 = Mat4.transform(pixelMatrix, c.x, c.y, 0, 1), p1 = Mat4.transform(pixelMatrix, c.x + 1, c.y, 0, 1)
        return atan2(p1.1 / p1.3 - p0.1 / p0.3, p1.0 / p1.3 - p0.0 / p0.3)
    }

    /// 2^zoom.
    public var scale: Double { pow(2, zoom) }

    /// The matrix that maps a tile's units (0...`TileExtent.extent` across the tile) to clip
    /// space, for the world copy `wrap` (MapLibre's `calculatePosMatrix`); column-major Float.
    public func tileMatrix(for tile: TileID, wrap: Int = 0) -> [Float] {
        let tileScale = worldSize / pow(2, Double(tile.z))
        let unwrappedX = Double(tile.x) + pow(2, Double(tile.z)) * Double(wrap)
        var m = Mat4.identity
        Mat4.translate(&m, unwrappedX * tileScale, Double(tile.y) * tileScale, 0)
        let s = tileScale / Double(TileExtent.extent)
        Mat4.scale(&m, s, s, 1)
        return Mat4.multiply(projMatrix, m).map { Float($0) }
    }

    /// The screen position (CSS pixels from the top-left) of a coordinate on the ground.
    /// Points behind the camera come back mirrored (as in MapLibre); check `w` yourself if needed.
    public func point(for coordinate: (lon: Double, lat: Double)) -> (x: Double, y: Double) {
        let lat = min(max(coordinate.lat, -Mercator.maxLatitude), Mercator.maxLatitude)
        let wx = Mercator.x(lon: coordinate.lon) * worldSize
        let wy = Mercator.y(lat: lat) * worldSize
        let p = Mat4.transform(pixelMatrix, wx, wy, 0, 1)
        return (p.0 / p.3, p.1 / p.3)
    }

    /// The ground coordinate under a screen position (CSS pixels from the top-left). Above the
    /// horizon of a pitched view the ray is extended backwards, like MapLibre's pointCoordinate.
    public func coordinate(for point: (x: Double, y: Double)) -> (lon: Double, lat: Double) {
        let m = mercatorCoordinate(for: point)
        return (Mercator.lon(x: m.x), Mercator.lat(y: m.y))
    }

    /// The Mercator coordinate (0...1 across the world) under a screen position.
    public func mercatorCoordinate(for point: (x: Double, y: Double)) -> (x: Double, y: Double) {
        let c0 = Mat4.transform(pixelMatrixInverse, point.x, point.y, 0, 1)
        let c1 = Mat4.transform(pixelMatrixInverse, point.x, point.y, 1, 1)
        let x0 = c0.0 / c0.3, y0 = c0.1 / c0.3, z0 = c0.2 / c0.3
        let x1 = c1.0 / c1.3, y1 = c1.1 / c1.3, z1 = c1.2 / c1.3
        let t = z0 == z1 ? 0 : (0 - z0) / (z1 - z0)
        return ((x0 + (x1 - x0) * t) / worldSize, (y0 + (y1 - y0) * t) / worldSize)
    }

    /// Tile units (of `TileExtent.extent`) per CSS pixel at this camera's zoom for `tile`
    /// (MapLibre's `pixelsToTileUnits`; for an overscaled tile pass the tile that is drawn).
    public func pixelsToTileUnits(_ tile: TileID, _ pixelValue: Double) -> Double {
        pixelValue * Double(TileExtent.extent) / (Transform.tileSize * pow(2, zoom - Double(tile.z)))
    }
}
