import Foundation
import GLSnapData

/// One tile of a view's cover: the canonical tile, the world copy it is drawn in (0 for the
/// main world, -1 to the west, 1 to the east...), and the zoom it is drawn for (above `id.z`
/// when a vector tile is overscaled past its source's maxzoom).
public struct CoveredTile: Hashable, Sendable {
    public var id: TileID
    public var wrap: Int
    public var overscaledZoom: Int
    public init(id: TileID, wrap: Int, overscaledZoom: Int) {
        self.id = id; self.wrap = wrap; self.overscaledZoom = overscaledZoom
    }
}

/// An ideal-zoom tile of the view and the source tile that covers it.
public struct OverscaledTile: Hashable, Sendable {
    /// The tile to ask the source for (the ancestor of `target` at the source's maxzoom, or
    /// `target` itself).
    public var fetch: TileID
    /// The tile position to draw at (the view's ideal zoom).
    public var target: TileID
    public var wrap: Int
}

extension Transform {
    /// The zoom a source of `tileSize`-pixel tiles loads for this camera:
    /// floor (or round) of zoom + log2(512 / tileSize), at least 0 (MapLibre's coveringZoomLevel).
    public func coveringZoomLevel(tileSize: Int = 512, roundZoom: Bool = false) -> Int {
        let ts = tileSize > 0 ? Double(tileSize) : Transform.tileSize
        let z = zoom + log2(Transform.tileSize / ts)
        return max(0, Int(roundZoom ? z.rounded(.toNearestOrAwayFromZero) : z.rounded(.down)))
    }

    /// The tiles of a source (zoom range `minZoom...maxZoom`, `tileSize` pixels) that cover
    /// this view, nearest to the center first: MapLibre's coveringTiles. It walks the quadtree
    /// from the root of each world copy (-3...3), keeps tiles whose box meets the camera frustum,
    /// and, when the view is pitched past GL JS's constant-zoom limit (60 degrees at the default
    /// field of view, less for wider or rolled ones), gives each tile the zoom GL JS's
    /// calculateTileZoom asks at its distance from the camera (lower far away, higher right under
    /// a steep camera). Beyond `maxZoom` the maxzoom tiles are returned, with `overscaledZoom`
    /// set to the ideal zoom when `reparseOverscaled` (vector sources) and to `maxZoom` otherwise.
    /// Empty when the ideal zoom is below `minZoom`.
    /// Over terrain, `elevations` (meters) is the height range the ground may take: a tile is in
    /// view when its box between those heights meets the frustum, and every tile takes its own
    /// zoom at any pitch (GL JS's allowVariableZoom with terrain).
    public func coveringTiles(minZoom: Int = 0, maxZoom: Int = 22, tileSize: Int = 512,
                              roundZoom: Bool = false, reparseOverscaled: Bool = true,
                              elevations: ClosedRange<Double>? = nil) -> [CoveredTile] {
        let actualZ = min(coveringZoomLevel(tileSize: tileSize, roundZoom: roundZoom), TileID.maxZoom)
        if actualZ < minZoom { return [] }
        let z = max(0, min(actualZ, maxZoom, TileID.maxZoom))
        let numTiles = pow(2, Double(z))
        let centerX = centerPoint.x / worldSize * numTiles
        let centerY = centerPoint.y / worldSize * numTiles
        let frustum = Frustum(invProj: invProjMatrix, worldSize: worldSize, zoom: Double(z))
        let overscaledZ = reparseOverscaled ? actualZ : z
        // Over terrain GL JS always gives each tile its own zoom.
        let lod = VariableTileZoom(self, tileSize: tileSize, always: elevations != nil)

        struct Node { var minX, minY, maxX, maxY: Double; var zoom, x, y, wrap: Int; var fullyVisible: Bool }
        var stack: [Node] = []
        for i in 1...3 {
            for w in [-i, i] {
                stack.append(Node(minX: Double(w) * numTiles, minY: 0, maxX: Double(w + 1) * numTiles, maxY: numTiles,
                                  zoom: 0, x: 0, y: 0, wrap: w, fullyVisible: false))
            }
        }
        stack.append(Node(minX: 0, minY: 0, maxX: numTiles, maxY: numTiles, zoom: 0, x: 0, y: 0, wrap: 0, fullyVisible: false))

        var result: [(tile: CoveredTile, distanceSq: Double)] = []
        while let node = stack.popLast() {
            var fullyVisible = node.fullyVisible
            if !fullyVisible {
                let r = elevations.map {
                    frustum.intersects(minX: node.minX, minY: node.minY, maxX: node.maxX, maxY: node.maxY, elevations: $0)
                } ?? frustum.intersects(minX: node.minX, minY: node.minY, maxX: node.maxX, maxY: node.maxY)
                if r == .outside { continue }
                fullyVisible = r == .inside
            }
            // The zoom this tile should come at: the view's, or GL JS's per-tile zoom.
            // GL JS lets a tile right under a steep camera come above the view's zoom, up to the
            // source's maxzoom (overscaled past it).
            var target = z, desired = actualZ
            if let lod {
                desired = min(lod.zoom(minX: node.minX / numTiles, minY: node.minY / numTiles,
                                       maxX: node.maxX / numTiles, maxY: node.maxY / numTiles, round: roundZoom), TileID.maxZoom)
                target = min(desired, maxZoom, TileID.maxZoom)
            }
            if node.zoom >= target {
                if node.zoom < minZoom { continue }
                guard let id = TileID(z: node.zoom, x: node.x, y: node.y) else { continue }
                // Distance in this tile's own zoom units, world copy included.
                let f = pow(2, Double(node.zoom - z))
                let ux = Double(node.x + node.wrap * (1 << node.zoom))
                let ex = centerX * f - 0.5 - ux, ey = centerY * f - 0.5 - Double(node.y)
                let overscaled = lod == nil ? (node.zoom == z ? overscaledZ : node.zoom)
                    : (node.zoom == min(maxZoom, TileID.maxZoom) && reparseOverscaled ? max(node.zoom, desired) : node.zoom)
                result.append((CoveredTile(id: id, wrap: node.wrap, overscaledZoom: overscaled), ex * ex + ey * ey))
                continue
            }
            let midX = (node.minX + node.maxX) / 2, midY = (node.minY + node.maxY) / 2
            for i in 0..<4 {
                let left = i % 2 == 0, top = i < 2
                stack.append(Node(minX: left ? node.minX : midX, minY: top ? node.minY : midY,
                                  maxX: left ? midX : node.maxX, maxY: top ? midY : node.maxY,
                                  zoom: node.zoom + 1, x: node.x * 2 + i % 2, y: node.y * 2 + i / 2,
                                  wrap: node.wrap, fullyVisible: fullyVisible))
            }
        }
        result.sort { $0.distanceSq < $1.distanceSq }
        return result.map(\.tile)
    }

    /// Every tile of the view at the ideal zoom (not clamped to the source), each with the tile
    /// to fetch from a source whose tiles stop at `maxZoom`: the target's ancestor at `maxZoom`
    /// (drawn scaled up, clipped to the target) or the target itself. Nearest to the center first.
    public func overscaledCover(minZoom: Int = 0, maxZoom: Int = 22, tileSize: Int = 512,
                                roundZoom: Bool = false) -> [OverscaledTile] {
        coveringTiles(minZoom: minZoom, maxZoom: TileID.maxZoom, tileSize: tileSize, roundZoom: roundZoom)
            .map { t in
                let fz = max(0, min(t.id.z, maxZoom))
                return OverscaledTile(fetch: t.id.parent(atZoom: fz), target: t.id, wrap: t.wrap)
            }
    }
}

/// GL JS's per-tile zoom for steep views (createCalculateTileZoomFunction with its defaults:
/// 9.314 zoom levels on screen at most, a tile count at most 3 times the unpitched one): the
/// center's zoom, raised or lowered by the tile's 3D distance from the camera against the
/// center's, lowered by how obliquely the camera sees it. nil when the view is not pitched past
/// `78.5 - fov / 2` degrees (at most 60; the field of view widened by the roll), where every
/// tile comes at the view's zoom, unless asked for `always` (over terrain).
struct VariableTileZoom {
    static let maxZoomLevelsOnScreen = 9.314
    static let tileCountMaxMinRatio = 3.0

    let requestedZoom: Double
    let cameraX: Double, cameraY: Double
    let distanceZ: Double, distanceToCenter3D: Double
    let fov: Double
    let pitchLoading: Double
    let countTerm: Double

    init?(_ t: Transform, tileSize: Int, always: Bool = false) {
        let r = t.roll * .pi / 180
        let zfov = t.verticalFieldOfView * (abs(cos(r)) * t.height + abs(sin(r)) * t.width) / t.height
        guard always || t.pitch > min(max(78.5 - zfov / 2, 0), 60) else { return nil }
        let ts = tileSize > 0 ? Double(tileSize) : Transform.tileSize
        requestedZoom = t.zoom + log2(Transform.tileSize / ts)
        // The ground under the camera, and the camera's height over it (Mercator units).
        let p = t.pitch * .pi / 180
        let reach = tan(p) * t.cameraToCenterDistance
        let camera = t.mercatorCoordinate(for: (t.centerScreenPoint.x + reach * sin(r), t.centerScreenPoint.y + reach * cos(r)))
        cameraX = camera.x; cameraY = camera.y
        distanceZ = cos(p) * t.cameraToCenterDistance / t.worldSize
        let cx = t.centerPoint.x / t.worldSize, cy = t.centerPoint.y / t.worldSize
        distanceToCenter3D = (pow(hypot(cx - cameraX, cy - cameraY), 2) + distanceZ * distanceZ).squareRoot()
        fov = t.verticalFieldOfView * .pi / 180
        let horizon = Transform.maxHorizonAngle * .pi / 180
        pitchLoading = 2 * ((Self.maxZoomLevelsOnScreen - 1) / log2(cos(horizon - fov) / cos(horizon)) - 1)
        let centerPitch = acos(min(distanceZ / distanceToCenter3D, 1))
        let countPitch0 = 2 * Self.integralOfCos(power: pitchLoading - 1, 0, fov / 2)
        let highest = min(horizon, centerPitch + fov / 2)
        let lowest = min(highest, centerPitch - fov / 2)
        let count = Self.integralOfCos(power: pitchLoading - 1, lowest, highest)
        countTerm = log2(max(1, count / countPitch0 / Self.tileCountMaxMinRatio)) / 2
    }

    /// The zoom (floored, or rounded) for a tile spanning these Mercator coordinates.
    func zoom(minX: Double, minY: Double, maxX: Double, maxY: Double, round: Bool) -> Int {
        let dx = max(min(maxX, cameraX), minX) - cameraX, dy = max(min(maxY, cameraY), minY) - cameraY
        let distance2D = hypot(dx, dy)
        let tilePitch = atan(distance2D / distanceZ)
        let distance3D = hypot(distance2D, distanceZ)
        var z = requestedZoom + log2(distanceToCenter3D / distance3D / max(0.5, cos(fov / 2)))
        z += pitchLoading * log2(cos(tilePitch)) / 2
        z -= countTerm
        guard z.isFinite else { return 0 }
        return max(0, Int(round ? z.rounded(.toNearestOrAwayFromZero) : z.rounded(.down)))
    }

    /// The midpoint rule over 10 steps of cos(x)^power from `a` to `b` (GL JS's integralOfCosXByP).
    static func integralOfCos(power: Double, _ a: Double, _ b: Double) -> Double {
        let dx = (b - a) / 10
        var sum = 0.0
        for i in 0..<10 { sum += dx * pow(cos(a + (Double(i) + 0.5) * dx), power) }
        return sum
    }
}

/// The camera frustum in tile units of one zoom (z in meters), as MapLibre's Frustum.
struct Frustum {
    enum Intersection { case outside, partial, inside }
    var points: [(Double, Double, Double)] = []
    var planes: [(Double, Double, Double, Double)] = []

    init(invProj: [Double], worldSize: Double, zoom: Double) {
        let corners: [(Double, Double, Double)] = [(-1, 1, -1), (1, 1, -1), (1, -1, -1), (-1, -1, -1),
                                                   (-1, 1, 1), (1, 1, 1), (1, -1, 1), (-1, -1, 1)]
        let scale = pow(2, zoom)
        for c in corners {
            let v = Mat4.transform(invProj, c.0, c.1, c.2, 1)
            let s = 1.0 / v.3 / worldSize * scale
            points.append((v.0 * s, v.1 * s, v.2 / v.3))
        }
        // near, far, left, right, bottom, top
        let indices = [(0, 1, 2), (6, 5, 4), (0, 3, 7), (2, 1, 5), (3, 2, 6), (0, 4, 5)]
        for (i0, i1, i2) in indices {
            let p0 = points[i0], p1 = points[i1], p2 = points[i2]
            let a = (p0.0 - p1.0, p0.1 - p1.1, p0.2 - p1.2)
            let b = (p2.0 - p1.0, p2.1 - p1.1, p2.2 - p1.2)
            var n = (a.1 * b.2 - a.2 * b.1, a.2 * b.0 - a.0 * b.2, a.0 * b.1 - a.1 * b.0)
            let len = (n.0 * n.0 + n.1 * n.1 + n.2 * n.2).squareRoot()
            if len > 0 { n = (n.0 / len, n.1 / len, n.2 / len) }
            let d = -(n.0 * p1.0 + n.1 * p1.1 + n.2 * p1.2)
            planes.append((n.0, n.1, n.2, d))
        }
    }

    /// Separating-axis test of a box between two heights (meters) against the frustum.
    func intersects(minX: Double, minY: Double, maxX: Double, maxY: Double, elevations: ClosedRange<Double>) -> Intersection {
        var corners: [(Double, Double, Double)] = []
        for z in [elevations.lowerBound, elevations.upperBound] {
            corners += [(minX, minY, z), (maxX, minY, z), (maxX, maxY, z), (minX, maxY, z)]
        }
        var fullyInside = true
        for p in planes {
            var inside = 0
            for c in corners where p.0 * c.0 + p.1 * c.1 + p.2 * c.2 + p.3 >= 0 { inside += 1 }
            if inside == 0 { return .outside }
            if inside != corners.count { fullyInside = false }
        }
        if fullyInside { return .inside }
        let mins = [minX, minY, elevations.lowerBound]
        let extents = [maxX - minX, maxY - minY, elevations.upperBound - elevations.lowerBound]
        for axis in 0..<3 {
            var lo = Double.greatestFiniteMagnitude, hi = -Double.greatestFiniteMagnitude
            for pt in points {
                let v = (axis == 0 ? pt.0 : axis == 1 ? pt.1 : pt.2) - mins[axis]
                lo = min(lo, v); hi = max(hi, v)
            }
            if hi < 0 || lo > extents[axis] { return .outside }
        }
        return .partial
    }

    /// Separating-axis test of a flat box (z = 0) against the frustum.
    func intersects(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Intersection {
        let corners = [(minX, minY), (maxX, minY), (maxX, maxY), (minX, maxY)]
        var fullyInside = true
        for p in planes {
            var inside = 0
            for c in corners where p.0 * c.0 + p.1 * c.1 + p.3 >= 0 { inside += 1 }
            if inside == 0 { return .outside }
            if inside != corners.count { fullyInside = false }
        }
        if fullyInside { return .inside }
        let mins = [minX, minY, 0], extents = [maxX - minX, maxY - minY, 0]
        for axis in 0..<3 {
            var lo = Double.greatestFiniteMagnitude, hi = -Double.greatestFiniteMagnitude
            for pt in points {
                let v = (axis == 0 ? pt.0 : axis == 1 ? pt.1 : pt.2) - mins[axis]
                lo = min(lo, v); hi = max(hi, v)
            }
            if hi < 0 || lo > extents[axis] { return .outside }
        }
        return .partial
    }
}
