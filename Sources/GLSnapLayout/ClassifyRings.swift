import GLSnapData

/// Twice the signed area of a ring, in MapLibre's sign convention: positive for rings that run
/// clockwise on screen (y down), which is how the vector-tile spec orders outer rings.
@inlinable
public func signedArea(_ ring: [TilePoint]) -> Int64 {
    guard ring.count > 1 else { return 0 }
    var sum: Int64 = 0
    var j = ring.count - 1
    for i in 0..<ring.count {
        let p1 = ring[i], p2 = ring[j]
        sum += (Int64(p2.x) - Int64(p1.x)) * (Int64(p1.y) + Int64(p2.y))
        j = i
    }
    return sum
}

/// Groups the rings of a polygon feature into polygons (outer ring first, then its holes), as
/// MapLibre's classifyRings does: the first ring with non-zero area sets the outer winding;
/// every later ring of that winding starts a new polygon, every ring of the other winding is a
/// hole of the current polygon; zero-area rings are dropped (unless there is just one ring).
/// When `maxRings` > 1 a polygon keeps its outer ring and only its `maxRings - 1` largest holes
/// (MapLibre passes 500).
public func classifyRings(_ rings: [[TilePoint]], maxRings: Int = 500) -> [[[TilePoint]]] {
    if rings.count <= 1 { return [rings] }
    var polygons: [[[TilePoint]]] = []
    var areas: [[Int64]] = []
    var polygon: [[TilePoint]] = []
    var polygonAreas: [Int64] = []
    var ccw: Bool?
    for ring in rings {
        let area = signedArea(ring)
        if area == 0 { continue }
        let isCCW = area < 0
        if ccw == nil { ccw = isCCW }
        if ccw == isCCW {
            if !polygon.isEmpty {
                polygons.append(polygon)
                areas.append(polygonAreas)
            }
            polygon = [ring]
            polygonAreas = [abs(area)]
        } else {
            polygon.append(ring)
            polygonAreas.append(abs(area))
        }
    }
    if !polygon.isEmpty {
        polygons.append(polygon)
        areas.append(polygonAreas)
    }
    if maxRings > 1 {
        for k in polygons.indices where polygons[k].count > maxRings {
            // Keep the outer ring and the largest holes, in their original order.
            let holeOrder = (1..<polygons[k].count).sorted { areas[k][$0] > areas[k][$1] }
            let kept = Set(holeOrder.prefix(maxRings - 1))
            var trimmed = [polygons[k][0]]
            for h in 1..<polygons[k].count where kept.contains(h) { trimmed.append(polygons[k][h]) }
            polygons[k] = trimmed
        }
    }
    return polygons
}
