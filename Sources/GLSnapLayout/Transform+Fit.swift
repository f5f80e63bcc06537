import Foundation

extension Transform {
    /// The camera that fits `bounds` (west, south, east, north in degrees) into a view of
    /// `width` x `height` CSS pixels, leaving `padding` pixels free on each side, at `bearing`
    /// (MapLibre's `cameraForBounds`). The zoom is clamped to 0...`maxZoom`; the pitch, roll and
    /// field of view are applied afterwards and do not enter the fit, as in MapLibre. Returns nil
    /// when the padding leaves no room or the bounds are not finite.
    public static func fitting(bounds: (w: Double, s: Double, e: Double, n: Double),
                               padding: (top: Double, left: Double, bottom: Double, right: Double) = (0, 0, 0, 0),
                               width: Double, height: Double, bearing: Double = 0, pitch: Double = 0,
                               roll: Double = 0, fieldOfView: Double = Transform.fieldOfView * 180 / .pi,
                               maxZoom: Double = 22) -> Transform? {
        guard width > 0, height > 0, let box = FittedBox(bounds: bounds, bearing: bearing) else { return nil }
        let scaleX = (width - padding.left - padding.right) / box.width
        let scaleY = (height - padding.top - padding.bottom) / box.height
        guard scaleX >= 0, scaleY >= 0 else { return nil }
        var zoom = min(log2(min(scaleX, scaleY)), maxZoom)
        if !zoom.isFinite { zoom = maxZoom }
        zoom = max(zoom, 0)
        let center = box.center(padding: padding, zoom: zoom)
        return Transform(width: width, height: height, center: center, zoom: zoom, bearing: bearing, pitch: pitch,
                         roll: roll, fieldOfView: fieldOfView)
    }
}

/// The bounds of a fit (west, south, east, north in degrees; latitudes clamped to the Web Mercator
/// world) in world pixels at zoom 0, turned by the camera's bearing: the box the view must hold.
/// `Transform.fitting` fits it into a view; `ContentSize` sizes a view to it at a zoom.
public struct FittedBox: Sendable {
    /// The bounds' corners projected (x west then east, y north then south), not turned.
    let xs: (Double, Double), ys: (Double, Double)
    public let bearing: Double
    /// The turned box's extent in world pixels at zoom 0.
    public let width: Double, height: Double

    /// The box of `bounds` at `bearing` (degrees); nil when a value is not finite.
    public init?(bounds: (w: Double, s: Double, e: Double, n: Double), bearing: Double) {
        guard bounds.w.isFinite, bounds.s.isFinite, bounds.e.isFinite, bounds.n.isFinite, bearing.isFinite else { return nil }
        let clampLat = { (l: Double) in min(max(l, -Mercator.maxLatitude), Mercator.maxLatitude) }
        // World pixels at zoom 0 (MapLibre projects at the current zoom; the ratio is the same).
        let size0 = Transform.tileSize
        xs = (Mercator.x(lon: bounds.w) * size0, Mercator.x(lon: bounds.e) * size0)
        ys = (Mercator.y(lat: clampLat(bounds.n)) * size0, Mercator.y(lat: clampLat(bounds.s)) * size0)
        self.bearing = bearing
        let rad = -bearing * .pi / 180
        let c = cos(rad), s = sin(rad)
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for x in [xs.0, xs.1] {
            for y in [ys.0, ys.1] {
                let rx = c * x - s * y, ry = s * x + c * y
                minX = min(minX, rx); maxX = max(maxX, rx)
                minY = min(minY, ry); maxY = max(maxY, ry)
            }
        }
        width = maxX - minX
        height = maxY - minY
    }

    /// The center of a view at `zoom` that shows the box in the middle of what `padding` (CSS
    /// pixels) leaves: the box's center shifted by half the difference of opposite sides, turned.
    public func center(padding: (top: Double, left: Double, bottom: Double, right: Double) = (0, 0, 0, 0),
                       zoom: Double) -> (lon: Double, lat: Double) {
        let size0 = Transform.tileSize
        let px = (padding.left - padding.right) / 2, py = (padding.top - padding.bottom) / 2
        let br = bearing * .pi / 180
        let offX = cos(br) * px - sin(br) * py, offY = sin(br) * px + cos(br) * py
        let scaleAtZoom = pow(2, zoom)
        let cx = (xs.0 + xs.1) / 2 - offX / scaleAtZoom
        let cy = (ys.0 + ys.1) / 2 - offY / scaleAtZoom
        return (lon: Mercator.lon(x: cx / size0), lat: Mercator.lat(y: cy / size0))
    }
}
