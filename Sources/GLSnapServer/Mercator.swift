import Foundation
import GLSnapData

extension Mercator {
    /// The zoom (GL convention) at which `bounds` (west, south, east, north) fills `width` × `height`
    /// points with `padding` added to each side as a fraction of the box (tileserver-gl's
    /// `padding`, 0.1 = 10%), clamped to `minZoom...maxZoom`, and the box's center.
    static func fit(west: Double, south: Double, east: Double, north: Double, width: Double, height: Double,
                    padding: Double, minZoom: Double, maxZoom: Double) -> (lon: Double, lat: Double, zoom: Double) {
        let tileSize = 512.0
        let a = project(lon: west, lat: north), b = project(lon: east, lat: south)
        let dx = abs(b.x - a.x) * tileSize, dy = abs(b.y - a.y) * tileSize
        let w = width / (1 + 2 * padding), h = height / (1 + 2 * padding)
        var zoom = maxZoom
        if dx > 0 || dy > 0 {
            zoom = min(dx > 0 ? log2(w / dx) : maxZoom, dy > 0 ? log2(h / dy) : maxZoom)
        }
        // As tileserver-gl: never zoom out past the zoom where the world fills the larger side.
        zoom = max(minZoom, max(log2(max(width, height) / tileSize), min(maxZoom, zoom)))
        zoom = min(zoom, maxZoom)
        let c = unproject(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
        return (c.lon, c.lat, zoom)
    }
}
