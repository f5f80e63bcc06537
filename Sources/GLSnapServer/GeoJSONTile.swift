import Foundation
import GLSnapData
import GLSnapStyle

/// A vector tile feature's geometry as GeoJSON in longitude/latitude (the Mapbox vector tile
/// spec's reading: one part is a Point/LineString, several a Multi-; polygon rings of positive
/// area in tile coordinates start a polygon, the others are its holes).
enum GeoJSONTile {
    static func geometry(_ f: VectorFeature, extent: Int, tile: TileID) -> [String: Any]? {
        let n = Double(1 << tile.z), size = Double(max(1, extent))
        func lonLat(_ p: TilePoint) -> [Double] {
            let x = (Double(tile.x) + Double(p.x) / size) / n, y = (Double(tile.y) + Double(p.y) / size) / n
            let c = Mercator.unproject(x: x, y: y)
            return [(c.lon * 1e7).rounded() / 1e7, (c.lat * 1e7).rounded() / 1e7]
        }
        let parts = f.geometry.filter { !$0.isEmpty }
        guard !parts.isEmpty else { return nil }
        switch f.geometryType {
        case .point:
            let points = parts.flatMap { $0 }.map(lonLat)
            return points.count == 1 ? ["type": "Point", "coordinates": points[0]] : ["type": "MultiPoint", "coordinates": points]
        case .lineString:
            let lines = parts.map { $0.map(lonLat) }
            return lines.count == 1 ? ["type": "LineString", "coordinates": lines[0]] : ["type": "MultiLineString", "coordinates": lines]
        case .polygon:
            var polygons: [[[[Double]]]] = []
            for ring in parts where ring.count >= 3 {
                var area = 0.0
                for i in 0..<ring.count {
                    let a = ring[i], b = ring[(i + 1) % ring.count]
                    area += Double(a.x) * Double(b.y) - Double(b.x) * Double(a.y)
                }
                guard area != 0 else { continue }
                var coords = ring.map(lonLat)
                if coords.first! != coords.last! { coords.append(coords[0]) }
                if area > 0 || polygons.isEmpty { polygons.append([coords]) } else { polygons[polygons.count - 1].append(coords) }
            }
            guard !polygons.isEmpty else { return nil }
            return polygons.count == 1 ? ["type": "Polygon", "coordinates": polygons[0]] : ["type": "MultiPolygon", "coordinates": polygons]
        case .unknown:
            return nil
        }
    }
}
