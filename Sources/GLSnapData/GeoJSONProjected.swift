import Foundation
import GLSnapStyle

/// A point list, line or ring in Web Mercator world units (0..1 across the world, y down),
/// flattened as (x, y, importance) triples. `importance` is the squared distance at which
/// Douglas–Peucker would drop the point (1 for end points and clip intersections: always kept).
struct GeoJSONPath: Sendable {
    var coords: [Double]
    /// Length for lines, absolute area for rings (world units), for dropping tiny ones.
    var size: Double
    /// For polygon rings: true for an outer ring, false for a hole.
    var isOuter: Bool
    /// For lines: where this piece starts and ends along the whole line (world units; the
    /// whole line runs from 0 to `size`). Clipping keeps them when it tracks line metrics.
    var start = 0.0
    var end = 0.0
}

/// A feature ready for tiling: its paths in world units and its bounding box.
struct GeoJSONTileFeature: Sendable {
    var type: GeometryType
    var paths: [GeoJSONPath]
    /// Index into the source's feature table (id and properties), shared by the clipped copies.
    var index: Int32
    var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity

    init(type: GeometryType, paths: [GeoJSONPath], index: Int32) {
        self.type = type; self.paths = paths; self.index = index
        updateBounds()
    }

    mutating func updateBounds() {
        minX = .infinity; minY = .infinity; maxX = -.infinity; maxY = -.infinity
        for path in paths {
            var i = 0
            while i + 1 < path.coords.count {
                let x = path.coords[i], y = path.coords[i + 1]
                if x < minX { minX = x }; if x > maxX { maxX = x }
                if y < minY { minY = y }; if y > maxY { maxY = y }
                i += 3
            }
        }
    }
}

/// Turns parsed lon/lat features into tiling features: projection, simplification ranks, sizes.
enum GeoJSONProjection {
    static func x(_ lon: Double) -> Double { Mercator.geoJSONX(lon: lon) }

    /// Mercator y, clamped to the world square (the poles project to infinity).
    static func y(_ lat: Double) -> Double {
        let y = Mercator.geoJSONY(lat: lat)
        return y < 0 ? 0 : (y > 1 ? 1 : (y.isNaN ? 0 : y))
    }

    /// Projects every feature; a GeometryCollection becomes one tiling feature per member, all
    /// sharing the collection's feature index. `sqTolerance` is the squared simplification
    /// tolerance at the source's maxzoom, in world units.
    static func convert(_ features: [GeoJSONFeature], sqTolerance: Double) -> [GeoJSONTileFeature] {
        var out: [GeoJSONTileFeature] = []
        out.reserveCapacity(features.count)
        for (i, feature) in features.enumerated() {
            append(feature.geometry, index: Int32(truncatingIfNeeded: i), sqTolerance: sqTolerance, to: &out)
        }
        return out
    }

    private static func append(_ geometry: GeoJSONGeometry, index: Int32, sqTolerance: Double,
                               to out: inout [GeoJSONTileFeature]) {
        switch geometry {
        case .point(let p):
            out.append(GeoJSONTileFeature(type: .point, paths: [points([p])], index: index))
        case .multiPoint(let ps):
            guard !ps.isEmpty else { return }
            out.append(GeoJSONTileFeature(type: .point, paths: [points(ps)], index: index))
        case .lineString(let line):
            guard !line.isEmpty else { return }
            out.append(GeoJSONTileFeature(type: .lineString, paths: [path(line, polygon: false, outer: false, sqTolerance)],
                                          index: index))
        case .multiLineString(let lines):
            let paths = lines.filter { !$0.isEmpty }.map { path($0, polygon: false, outer: false, sqTolerance) }
            guard !paths.isEmpty else { return }
            out.append(GeoJSONTileFeature(type: .lineString, paths: paths, index: index))
        case .polygon(let rings):
            let paths = polygon(rings, sqTolerance)
            guard !paths.isEmpty else { return }
            out.append(GeoJSONTileFeature(type: .polygon, paths: paths, index: index))
        case .multiPolygon(let polygons):
            let paths = polygons.flatMap { polygon($0, sqTolerance) }
            guard !paths.isEmpty else { return }
            out.append(GeoJSONTileFeature(type: .polygon, paths: paths, index: index))
        case .geometryCollection(let parts):
            for part in parts { append(part, index: index, sqTolerance: sqTolerance, to: &out) }
        }
    }

    private static func polygon(_ rings: [[GeoJSONPosition]], _ sqTolerance: Double) -> [GeoJSONPath] {
        var paths: [GeoJSONPath] = []
        for (i, ring) in rings.enumerated() where !ring.isEmpty {
            paths.append(path(ring, polygon: true, outer: i == 0, sqTolerance))
        }
        // A polygon whose outer ring is empty has nothing to cut holes from.
        return rings.first?.isEmpty == false ? paths : []
    }

    private static func points(_ ps: [GeoJSONPosition]) -> GeoJSONPath {
        var coords: [Double] = []
        coords.reserveCapacity(ps.count * 3)
        for p in ps { coords.append(x(p.lon)); coords.append(y(p.lat)); coords.append(0) }
        return GeoJSONPath(coords: coords, size: 0, isOuter: false)
    }

    private static func path(_ ps: [GeoJSONPosition], polygon: Bool, outer: Bool, _ sqTolerance: Double) -> GeoJSONPath {
        var coords: [Double] = []
        coords.reserveCapacity(ps.count * 3)
        var size = 0.0
        var px = 0.0, py = 0.0
        for (i, p) in ps.enumerated() {
            let cx = x(p.lon), cy = y(p.lat)
            coords.append(cx); coords.append(cy); coords.append(0)
            if i > 0 {
                size += polygon ? (px * cy - cx * py) / 2 : ((cx - px) * (cx - px) + (cy - py) * (cy - py)).squareRoot()
            }
            px = cx; py = cy
        }
        let last = coords.count - 3
        coords[0 + 2] = 1
        GeoJSONSimplify.rank(&coords, first: 0, last: last, sqTolerance: sqTolerance)
        coords[last + 2] = 1
        return GeoJSONPath(coords: coords, size: abs(size), isOuter: outer, start: 0, end: polygon ? 0 : abs(size))
    }
}

/// Douglas–Peucker ranking: marks each point's importance (the squared distance at which it
/// would be dropped) so each zoom can keep the points above its own tolerance without
/// simplifying again. Iterative, so hostile input cannot exhaust the stack.
///
/// Each split scans its whole range, so a line whose farthest point is always near an end of
/// its range (a zigzag) costs up to n²/2 point visits: 49 s for a million points, hours for a
/// few million. Past `visitsPerPoint` visits a point (a balanced split needs about log2 n), a
/// range whose farthest point is outside its middle half splits at its middle point instead,
/// ranked with the range's farthest distance: at most about 2.4 n log2 n more visits, and a
/// range's points are still dropped only where all of them lie within the tolerance of its chord.
enum GeoJSONSimplify {
    /// Point visits per point before ranges are split at their middle.
    static let visitsPerPoint = 32

    static func rank(_ coords: inout [Double], first: Int, last: Int, sqTolerance: Double) {
        guard last - first > 3 else { return }
        var stack: [(Int, Int)] = [(first, last)]
        var visitsLeft = max(1 << 20, (last - first) / 3 * visitsPerPoint)
        while let (first, last) = stack.popLast() {
            visitsLeft -= (last - first) / 3
            var maxSqDist = sqTolerance
            let mid = first + ((last - first) / 6) * 3
            var minPosToMid = last - first
            var index = -1
            let ax = coords[first], ay = coords[first + 1], bx = coords[last], by = coords[last + 1]
            var i = first + 3
            while i < last {
                let d = segmentSqDistance(coords[i], coords[i + 1], ax, ay, bx, by)
                if d > maxSqDist {
                    index = i; maxSqDist = d
                } else if d == maxSqDist {
                    // Prefer a pivot near the middle: keeps degenerate (collinear) input shallow.
                    let posToMid = abs(i - mid)
                    if posToMid < minPosToMid { index = i; minPosToMid = posToMid }
                }
                i += 3
            }
            if index >= 0 && maxSqDist > sqTolerance {
                // Over budget: a split off the middle half of the range goes to the middle
                // instead (ranges here span at least two points inside), so each halves at worst.
                let quarter = (last - first) / 4
                if visitsLeft < 0 && (index - first < quarter || last - index < quarter) { index = mid }
                coords[index + 2] = maxSqDist
                if index - first > 3 { stack.append((first, index)) }
                if last - index > 3 { stack.append((index, last)) }
            }
        }
    }

    /// Squared distance from (px, py) to the segment a-b.
    static func segmentSqDistance(_ px: Double, _ py: Double, _ ax: Double, _ ay: Double,
                                  _ bx: Double, _ by: Double) -> Double {
        var x = ax, y = ay
        var dx = bx - x, dy = by - y
        if dx != 0 || dy != 0 {
            let t = ((px - x) * dx + (py - y) * dy) / (dx * dx + dy * dy)
            if t > 1 { x = bx; y = by } else if t > 0 { x += dx * t; y += dy * t }
        }
        dx = px - x; dy = py - y
        return dx * dx + dy * dy
    }
}
