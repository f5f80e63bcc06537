import Foundation

/// The tile an expression is evaluated in (`within` and `distance` place the feature on the globe with it).
public struct CanonicalTileID: Hashable, Sendable {
    public var z: Int
    public var x: Int
    public var y: Int
    public init(z: Int, x: Int, y: Int) { self.z = z; self.x = x; self.y = y }
}

/// A point of feature geometry in tile units (0...extent across the tile).
public struct GeometryPoint: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

extension FeatureContext {
    /// No geometry by default: `within` is then false and `distance` NaN.
    public func tileGeometry() -> [[GeometryPoint]]? { nil }
}

/// Planar and geodesic helpers shared by `within` and `distance`, in the extent-8192 world tile space
/// the reference implementation uses.
enum TileGeo {
    static let extent = 8192.0

    typealias P = SIMD2<Double>

    struct BBox {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        mutating func add(_ p: P) {
            minX = Swift.min(minX, p.x); minY = Swift.min(minY, p.y)
            maxX = Swift.max(maxX, p.x); maxY = Swift.max(maxY, p.y)
        }
        /// Strictly inside `other`.
        func isWithin(_ other: BBox) -> Bool {
            minX > other.minX && maxX < other.maxX && minY > other.minY && maxY < other.maxY
        }
        var isValid: Bool { minX != -.infinity && minY != -.infinity && maxX != .infinity && maxY != .infinity }
    }

    static func mercatorX(_ lng: Double) -> Double { Mercator.x(lon: lng) }
    static func mercatorY(_ lat: Double) -> Double { Mercator.y(lat: lat) }

    /// A longitude/latitude in world tile units at zoom `z`, rounded as the reference rounds.
    static func worldPoint(_ lngLat: P, z: Int) -> P {
        let scale = pow(2, Double(z)) * extent
        return P(jsRound(mercatorX(lngLat.x) * scale), jsRound(mercatorY(lngLat.y) * scale))
    }

    /// Rounding half up, as JavaScript's Math.round.
    static func jsRound(_ v: Double) -> Double { (v + 0.5).rounded(.down) }

    /// Tile-local coordinates (extent 8192) back to longitude/latitude.
    static func lngLat(_ p: P, _ c: CanonicalTileID) -> P {
        let tiles = pow(2, Double(c.z))
        let mx = (p.x / extent + Double(c.x)) / tiles
        let my = (p.y / extent + Double(c.y)) / tiles
        return P(Mercator.lon(x: mx), Mercator.lat(y: my))
    }

    /// The feature's geometry scaled to extent 8192, or nil when the context lacks geometry or tile.
    static func featureGeometry(_ ctx: EvaluationContext) -> (CanonicalTileID, [[P]])? {
        guard let c = ctx.canonicalID, let f = ctx.feature, let g = f.tileGeometry() else { return nil }
        let s = ctx.geometryExtent > 0 ? extent / ctx.geometryExtent : 1
        return (c, g.map { $0.map { P($0.x * s, $0.y * s) } })
    }

    // MARK: planar predicates

    static func rayIntersect(_ p: P, _ a: P, _ b: P) -> Bool {
        ((a.y > p.y) != (b.y > p.y)) && (p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x)
    }

    static func onBoundary(_ p: P, _ a: P, _ b: P) -> Bool {
        let x1 = p.x - a.x, y1 = p.y - a.y, x2 = p.x - b.x, y2 = p.y - b.y
        return x1 * y2 - x2 * y1 == 0 && x1 * x2 <= 0 && y1 * y2 <= 0
    }

    /// Even-odd ray casting over all rings; a point on an edge counts as `onBoundary`.
    static func pointInPolygon(_ p: P, _ rings: [[P]], onBoundary boundary: Bool = false) -> Bool {
        var inside = false
        for ring in rings where ring.count > 1 {
            for j in 0..<(ring.count - 1) {
                if onBoundary(p, ring[j], ring[j + 1]) { return boundary }
                if rayIntersect(p, ring[j], ring[j + 1]) { inside.toggle() }
            }
        }
        return inside
    }

    static func cross(_ a: P, _ b: P) -> Double { a.x * b.y - a.y * b.x }

    /// Whether p1 and p2 lie strictly on different sides of q1→q2.
    static func twoSided(_ p1: P, _ p2: P, _ q1: P, _ q2: P) -> Bool {
        let d1 = cross(p1 - q1, q2 - q1), d2 = cross(p2 - q1, q2 - q1)
        return (d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)
    }

    /// Proper crossing of segments a→b and c→d (parallel segments never cross).
    static func segmentsCross(_ a: P, _ b: P, _ c: P, _ d: P) -> Bool {
        if cross(d - c, b - a) == 0 { return false }
        return twoSided(a, b, c, d) && twoSided(c, d, a, b)
    }

    static func lineCrossesPolygon(_ a: P, _ b: P, _ rings: [[P]]) -> Bool {
        for ring in rings where ring.count > 1 {
            for j in 0..<(ring.count - 1) where segmentsCross(a, b, ring[j], ring[j + 1]) { return true }
        }
        return false
    }

    static func lineInPolygon(_ line: [P], _ rings: [[P]]) -> Bool {
        for p in line where !pointInPolygon(p, rings) { return false }
        if line.count > 1 {
            for i in 0..<(line.count - 1) where lineCrossesPolygon(line[i], line[i + 1], rings) { return false }
        }
        return true
    }

    /// Signed ring area (positive for clockwise rings in tile coordinates, the vector-tile outer rings).
    static func signedArea(_ ring: [P]) -> Double {
        var sum = 0.0
        var j = ring.count - 1
        for i in 0..<ring.count {
            sum += (ring[j].x - ring[i].x) * (ring[i].y + ring[j].y)
            j = i
        }
        return sum
    }

    /// Groups rings into polygons: a ring with the first ring's winding starts a polygon, the others are its holes.
    static func classifyRings(_ rings: [[P]]) -> [[[P]]] {
        if rings.count <= 1 { return [rings] }
        var polygons: [[[P]]] = []
        var current: [[P]] = []
        var ccw: Bool?
        for ring in rings {
            let area = signedArea(ring)
            if area == 0 { continue }
            if ccw == nil { ccw = area < 0 }
            if ccw == (area < 0) {
                if !current.isEmpty { polygons.append(current) }
                current = [ring]
            } else {
                current.append(ring)
            }
        }
        if !current.isEmpty { polygons.append(current) }
        return polygons
    }
}

/// Geodesic distances in meters on a local flat approximation of the WGS84 ellipsoid around one latitude.
struct CheapRuler {
    let kx: Double, ky: Double

    init(latitude: Double) {
        let re = 6378.137, fe = 1 / 298.257223563
        let e2 = fe * (2 - fe), rad = Double.pi / 180
        let m = rad * re * 1000
        let coslat = cos(latitude * rad)
        let w2 = 1 / (1 - e2 * (1 - coslat * coslat))
        let w = w2.squareRoot()
        kx = m * w * coslat
        ky = m * w * w2 * (1 - e2)
    }

    /// `deg` in -180...180, as cheap-ruler's loop of ±360 gives it, in one exact remainder: the
    /// loop took minutes for far-off coordinates, and never ended past 1e19 (360 is below their ulp).
    func wrap(_ deg: Double) -> Double {
        guard deg.isFinite else { return deg }
        let d = deg.truncatingRemainder(dividingBy: 360)
        return d < -180 ? d + 360 : (d > 180 ? d - 360 : d)
    }

    func distance(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
        let dx = wrap(a.x - b.x) * kx, dy = (a.y - b.y) * ky
        return (dx * dx + dy * dy).squareRoot()
    }

    /// The distance from `p` to the nearest point of `line`; NaN for a line of fewer than two points.
    func distance(_ p: SIMD2<Double>, toLine line: ArraySlice<SIMD2<Double>>) -> Double {
        guard line.count > 1 else { return .nan }
        var best = Double.infinity
        var bestPoint = p
        var i = line.startIndex
        while i + 1 < line.endIndex {
            var x = line[i].x, y = line[i].y
            let dx = wrap(line[i + 1].x - x) * kx, dy = (line[i + 1].y - y) * ky
            if dx != 0 || dy != 0 {
                let t = (wrap(p.x - x) * kx * dx + (p.y - y) * ky * dy) / (dx * dx + dy * dy)
                if t > 1 {
                    x = line[i + 1].x; y = line[i + 1].y
                } else if t > 0 {
                    x += dx / kx * t; y += dy / ky * t
                }
            }
            let ex = wrap(p.x - x) * kx, ey = (p.y - y) * ky
            let sq = ex * ex + ey * ey
            if sq < best { best = sq; bestPoint = SIMD2(x, y) }
            i += 1
        }
        return distance(p, bestPoint)
    }
}
