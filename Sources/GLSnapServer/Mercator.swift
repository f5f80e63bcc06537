import Foundation

/// Web Mercator in GL JS's convention: the world is 512 × 2^zoom pixels wide.
enum Mercator {
    static let tileSize = 512.0
    /// Latitudes beyond this are not on the map.
    static let maxLatitude = 85.0511287798066

    /// EPSG:3857's sphere: the WGS 84 equatorial radius, in meters.
    static let earthRadius = 6378137.0

    /// The world position of (lon, lat) in 0...1 (x east, y south).
    static func project(lon: Double, lat: Double) -> (x: Double, y: Double) {
        let clamped = max(-maxLatitude, min(maxLatitude, lat))
        return project(lon: lon, sine: sin(clamped * .pi / 180))
    }

    /// `project` for a latitude given by its sine (callers clamp it as they need).
    static func project(lon: Double, sine s: Double) -> (x: Double, y: Double) {
        ((lon + 180) / 360, 0.5 - log((1 + s) / (1 - s)) / (4 * .pi))
    }

    /// The inverse of `project`.
    static func unproject(x: Double, y: Double) -> (lon: Double, lat: Double) {
        let lon = x * 360 - 180
        let lat = atan(sinh(.pi * (1 - 2 * y))) * 180 / .pi
        return (lon, lat)
    }

    /// EPSG:3857 meters (spherical Mercator on the WGS 84 equatorial radius) to degrees.
    static func fromMeters(x: Double, y: Double) -> (lon: Double, lat: Double) {
        (x / earthRadius * 180 / .pi, atan(sinh(y / earthRadius)) * 180 / .pi)
    }

    /// The center of tile (z, x, y) of a 2^z × 2^z grid.
    static func tileCenter(z: Int, x: Int, y: Int) -> (lon: Double, lat: Double) {
        let n = Double(1 << z)
        return unproject(x: (Double(x) + 0.5) / n, y: (Double(y) + 0.5) / n)
    }
}
