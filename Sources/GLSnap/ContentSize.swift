import Foundation
import GLSnapData
import GLSnapLayout

/// Sizing a snapshot to its content, as a scroll view's intrinsic content size.
public enum ContentSize {
    /// The size in points that holds `bounds` at `zoom` with `padding` around it, and the camera
    /// (center and zoom) that draws it so.
    public static func fitting(_ bounds: CoordinateBounds, zoom: Double, padding: EdgeInsets = EdgeInsets(), bearing: Double = 0) -> (size: Size, camera: CameraOptions) {
        let world = Transform.tileSize * exp2(zoom)
        let x0 = Mercator.x(lon: bounds.southwest.longitude) * world, x1 = Mercator.x(lon: bounds.northeast.longitude) * world
        let y0 = Mercator.y(lat: bounds.northeast.latitude) * world, y1 = Mercator.y(lat: bounds.southwest.latitude) * world
        let width = abs(x1 - x0) + padding.left + padding.right
        let height = abs(y1 - y0) + padding.top + padding.bottom
        // The bounds' center moved by the padding difference, so the padding lands where asked.
        let cx = (x0 + x1) / 2 + (padding.right - padding.left) / 2
        let cy = (y0 + y1) / 2 + (padding.bottom - padding.top) / 2
        let center = Coordinate(latitude: Mercator.lat(y: cy / world), longitude: Mercator.lon(x: cx / world))
        return (Size(width: max(1, width.rounded(.up)), height: max(1, height.rounded(.up))),
                CameraOptions(center: center, zoom: zoom, bearing: bearing))
    }

    /// The zoom at which one point covers `metersPerPoint` on the ground at `latitude`.
    public static func zoom(metersPerPoint: Double, latitude: Double) -> Double {
        log2(Mercator.earthCircumference * cos(latitude * .pi / 180) / (Transform.tileSize * metersPerPoint))
    }
}

extension Snapshotter {
    /// The bounds of a source's data: all of a GeoJSON source's features, or a tiled source's
    /// declared bounds. Nil for an unknown source or one without bounds.
    public func dataBounds(source name: String) -> CoordinateBounds? {
        guard let source = loadedStyle?.sources[name] else { return nil }
        let b = (source as? GeoJSONSource)?.dataBounds ?? source.info.bounds
        guard let b, b.count == 4 else { return nil }
        return CoordinateBounds(west: b[0], south: b[1], east: b[2], north: b[3])
    }
}
