import Foundation

extension SourceInfo {
    /// The latitude limit of the Web Mercator square.
    static let maxMercatorLatitude = 85.051128779806604

    /// True when the source may have a tile at `id`: its zoom lies in minzoom...maxzoom and it
    /// touches `bounds` (when given), tested on the tile grid of that zoom as MapLibre's
    /// `TileBounds` does (floor for west/north, ceil for east/south).
    public func covers(_ id: TileID) -> Bool {
        guard id.z >= minzoom, id.z <= maxzoom else { return false }
        guard let bounds, bounds.count == 4 else { return true }
        let world = Double(1 << id.z)
        let west = max(-180, bounds[0]), south = max(-90, bounds[1])
        let east = min(180, bounds[2]), north = min(90, bounds[3])
        let minX = (SourceInfo.mercatorX(west) * world).rounded(.down)
        let maxX = (SourceInfo.mercatorX(east) * world).rounded(.up)
        let minY = (SourceInfo.mercatorY(north) * world).rounded(.down)
        let maxY = (SourceInfo.mercatorY(south) * world).rounded(.up)
        let x = Double(id.x), y = Double(id.y)
        return x >= minX && x < maxX && y >= minY && y < maxY
    }

    /// Longitude to the 0...1 Mercator x.
    static func mercatorX(_ lng: Double) -> Double { (180 + lng) / 360 }

    /// Latitude to the 0...1 Mercator y (y down), clamped to the Mercator square.
    static func mercatorY(_ lat: Double) -> Double {
        let clamped = min(max(lat, -maxMercatorLatitude), maxMercatorLatitude)
        let s = sin(clamped * .pi / 180)
        return 0.5 - log((1 + s) / (1 - s)) / (4 * .pi)
    }
}
