import Foundation
import GLSnapData
import GLSnapLayout
import GLSnapStyle

extension QueriedFeature {
    /// A tile feature's geometry as GeoJSON in longitude/latitude: its points in the layer's
    /// `extent` on tile `tile`, unprojected from Web Mercator (as vector-tile-js's toGeoJSON).
    /// Points become `Point` or `MultiPoint`, lines `LineString` or `MultiLineString`, rings
    /// polygons (outer rings by winding) `Polygon` or `MultiPolygon`.
    static func geometry(of feature: VectorFeature, extent: Int, tile: TileID) -> JSON {
        let e = Double(extent > 0 ? extent : 4096)
        let size = e * exp2(Double(tile.z))
        let x0 = e * Double(tile.x), y0 = e * Double(tile.y)
        func position(_ p: TilePoint) -> JSON {
            let y2 = 180 - (Double(p.y) + y0) * 360 / size
            let lon = (Double(p.x) + x0) * 360 / size - 180
            let lat = 360 / Double.pi * atan(exp(y2 * Double.pi / 180)) - 90
            return .array([.number(lon), .number(lat)])
        }
        func line(_ ring: [TilePoint]) -> JSON { .array(ring.map(position)) }
        let kind: String
        var parts: [JSON]
        switch feature.geometryType {
        case .point:
            kind = "Point"
            parts = feature.geometry.compactMap { $0.first }.map(position)
        case .lineString:
            kind = "LineString"
            parts = feature.geometry.map(line)
        case .polygon:
            kind = "Polygon"
            parts = classifyRings(feature.geometry, maxRings: 0).map { .array($0.map(line)) }
        case .unknown:
            return .null
        }
        if parts.count == 1 { return .object(["type": .string(kind), "coordinates": parts[0]]) }
        return .object(["type": .string("Multi" + kind), "coordinates": .array(parts)])
    }
}
