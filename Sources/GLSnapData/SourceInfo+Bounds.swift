import Foundation

extension SourceInfo {
    /// True when the source may have a tile at `id`: its zoom lies in minzoom...maxzoom and it
    /// touches `bounds` (when given), tested on the tile grid of that zoom as MapLibre's
    /// `TileBounds` does (floor for west/north, ceil for east/south).
    public func covers(_ id: TileID) -> Bool {
        guard id.z >= minzoom, id.z <= maxzoom else { return false }
        guard let bounds, bounds.count == 4 else { return true }
        let world = Double(1 << id.z)
        let west = max(-180, bounds[0]), south = max(-90, bounds[1])
        let east = min(180, bounds[2]), north = min(90, bounds[3])
        let minX = (Mercator.x(lon: west) * world).rounded(.down)
        let maxX = (Mercator.x(lon: east) * world).rounded(.up)
        let minY = (SourceInfo.mercatorY(north) * world).rounded(.down)
        let maxY = (SourceInfo.mercatorY(south) * world).rounded(.up)
        let x = Double(id.x), y = Double(id.y)
        return x >= minX && x < maxX && y >= minY && y < maxY
    }

    /// Latitude to the 0...1 Mercator y (y down), clamped to the Mercator square.
    static func mercatorY(_ lat: Double) -> Double {
        Mercator.y(sine: sin(min(max(lat, -Mercator.maxLatitude), Mercator.maxLatitude) * .pi / 180))
    }
}
