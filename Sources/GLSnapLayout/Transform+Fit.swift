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
        guard width > 0, height > 0,
              bounds.w.isFinite, bounds.s.isFinite, bounds.e.isFinite, bounds.n.isFinite else { return nil }
        let clampLat = { (l: Double) in min(max(l, -Mercator.maxLatitude), Mercator.maxLatitude) }
        // World pixels at zoom 0 (MapLibre projects at the current zoom; the ratio is the same).
        let size0 = Transform.tileSize
        let xs = [Mercator.x(lon: bounds.w) * size0, Mercator.x(lon: bounds.e) * size0]
        let ys = [Mercator.y(lat: clampLat(bounds.n)) * size0, Mercator.y(lat: clampLat(bounds.s)) * size0]
        let rad = -bearing * .pi / 180
        let c = cos(rad), s = sin(rad)
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for x in xs {
            for y in ys {
                let rx = c * x - s * y, ry = s * x + c * y
                minX = min(minX, rx); maxX = max(maxX, rx)
                minY = min(minY, ry); maxY = max(maxY, ry)
            }
        }
        let scaleX = (width - padding.left - padding.right) / (maxX - minX)
        let scaleY = (height - padding.top - padding.bottom) / (maxY - minY)
        guard scaleX >= 0, scaleY >= 0 else { return nil }
        var zoom = min(log2(min(scaleX, scaleY)), maxZoom)
        if !zoom.isFinite { zoom = maxZoom }
        zoom = max(zoom, 0)

        // The padding shifts the center by half the difference of opposite sides, rotated.
        let px = (padding.left - padding.right) / 2, py = (padding.top - padding.bottom) / 2
        let br = bearing * .pi / 180
        let offX = cos(br) * px - sin(br) * py, offY = sin(br) * px + cos(br) * py
        let scaleAtZoom = pow(2, zoom)
        let cx = (xs[0] + xs[1]) / 2 - offX / scaleAtZoom
        let cy = (ys[0] + ys[1]) / 2 - offY / scaleAtZoom
        let center = (lon: Mercator.lon(x: cx / size0), lat: Mercator.lat(y: cy / size0))
        return Transform(width: width, height: height, center: center, zoom: zoom, bearing: bearing, pitch: pitch,
                         roll: roll, fieldOfView: fieldOfView)
    }
}
