import Foundation

/// Web Mercator, the one projection of glsnap (MapLibre's `MercatorCoordinate`): x, y in 0...1
/// across the world, x east, y south (down). Every module projects through it; it lives here, in
/// the lowest module, because expressions (`within`, `distance`) project as well as sources (tile
/// bounds, tile archives), the camera and the server. GLSnapData and GLSnapLayout re-export it.
///
/// y has three formulas that agree up to rounding: the tangent form of GL JS (`y(lat:)`, `lat(y:)`,
/// what the camera, the draw code and expressions use), the sine form of tileserver-gl (`y(sine:)`,
/// `lat(sinhY:)`, what tile ranges, source bounds and the server use) and geojson-vt's
/// (`geoJSONY(lat:)`, GeoJSON tiling and clustering). They round differently in about half of all
/// latitudes, and images and figures were measured with each, so each is kept, written once.
public enum Mercator {
    /// The latitude limit of the square Web Mercator world: atan(sinh(π)) in degrees, where y
    /// reaches 0 and 1. Latitudes beyond it are not on the map.
    public static let maxLatitude = 85.051128779806604
    /// MapLibre's earth circumference in meters (radius 6371008.8): meters per pixel, extrusion heights.
    public static let earthCircumference = 2 * Double.pi * 6371008.8
    /// EPSG:3857's sphere: the WGS 84 equatorial radius, in meters (what EPSG:3857 coordinates are in).
    public static let epsg3857Radius = 6378137.0

    @inlinable public static func x(lon: Double) -> Double { (180 + lon) / 360 }
    /// GL JS's `mercatorYfromLat` (not clamped).
    @inlinable public static func y(lat: Double) -> Double {
        (180 - (180 / .pi * log(tan(.pi / 4 + lat * .pi / 360)))) / 360
    }
    @inlinable public static func lon(x: Double) -> Double { x * 360 - 180 }
    /// GL JS's `latFromMercatorY`, the inverse of `y(lat:)`.
    @inlinable public static func lat(y: Double) -> Double {
        let y2 = 180 - y * 360
        return 360 / .pi * atan(exp(y2 * .pi / 180)) - 90
    }

    /// y of a latitude given by its sine, 0.5 - ln((1 + s) / (1 - s)) / 4π (callers clamp the
    /// latitude or the sine as they need).
    @inlinable public static func y(sine s: Double) -> Double {
        0.5 - log((1 + s) / (1 - s)) / (4 * .pi)
    }
    /// The inverse of `y(sine:)` as atan(sinh(π (1 - 2y))), in degrees.
    @inlinable public static func lat(sinhY y: Double) -> Double {
        atan(sinh(.pi * (1 - 2 * y))) * 180 / .pi
    }

    /// geojson-vt's and supercluster's x: lon / 360 + 0.5 (GeoJSON sources tile and cluster with
    /// their formulas, so that vertices round as MapLibre's do).
    @inlinable public static func geoJSONX(lon: Double) -> Double { lon / 360 + 0.5 }
    /// geojson-vt's and supercluster's y: 0.5 - 0.25 ln((1 + s) / (1 - s)) / π, not clamped (NaN and
    /// beyond 0...1 at the poles; callers clamp as their library does).
    @inlinable public static func geoJSONY(lat: Double) -> Double {
        let s = sin(lat * .pi / 180)
        return 0.5 - 0.25 * log((1 + s) / (1 - s)) / .pi
    }

    /// The world position of (lon, lat), the latitude clamped to the map, by the sine form.
    public static func project(lon: Double, lat: Double) -> (x: Double, y: Double) {
        let clamped = max(-maxLatitude, min(maxLatitude, lat))
        return (x(lon: lon), y(sine: sin(clamped * .pi / 180)))
    }

    /// The inverse of `project` (sine form).
    public static func unproject(x: Double, y: Double) -> (lon: Double, lat: Double) {
        (lon(x: x), lat(sinhY: y))
    }

    /// EPSG:3857 meters (spherical Mercator on the WGS 84 equatorial radius) to degrees.
    public static func fromMeters(x: Double, y: Double) -> (lon: Double, lat: Double) {
        (x / epsg3857Radius * 180 / .pi, atan(sinh(y / epsg3857Radius)) * 180 / .pi)
    }

    /// The center of tile (z, x, y) of a 2^z × 2^z grid (sine form).
    public static func tileCenter(z: Int, x: Int, y: Int) -> (lon: Double, lat: Double) {
        let n = Double(1 << z)
        return unproject(x: (Double(x) + 0.5) / n, y: (Double(y) + 0.5) / n)
    }
}
