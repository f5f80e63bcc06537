import Foundation
import GLSnapData
import GLSnapLayout

/// Sizing a snapshot to its content, as a scroll view's intrinsic content size.
public enum ContentSize {
    /// The size in points that holds `bounds` at `zoom` with `padding` around it, turned by
    /// `bearing` (default 0), and the camera (center, zoom and bearing) that draws it so: the box
    /// and center of `Transform.fitting` (`FittedBox`), at a given zoom instead of a given size.
    /// A bound that is not finite gives a size that is not either (which `pixelSize` refuses).
    public static func fitting(_ bounds: CoordinateBounds, zoom: Double, padding: EdgeInsets = EdgeInsets(), bearing: Double = 0) -> (size: Size, camera: CameraOptions) {
        guard let box = FittedBox(bounds: (bounds.southwest.longitude, bounds.southwest.latitude,
                                           bounds.northeast.longitude, bounds.northeast.latitude), bearing: bearing) else {
            return (Size(width: .nan, height: .nan), CameraOptions(zoom: zoom, bearing: bearing))
        }
        let scale = exp2(zoom)
        let width = box.width * scale + padding.left + padding.right
        let height = box.height * scale + padding.top + padding.bottom
        let c = box.center(padding: (padding.top, padding.left, padding.bottom, padding.right), zoom: zoom)
        return (Size(width: max(1, width.rounded(.up)), height: max(1, height.rounded(.up))),
                CameraOptions(center: Coordinate(latitude: c.lat, longitude: c.lon), zoom: zoom, bearing: bearing))
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
