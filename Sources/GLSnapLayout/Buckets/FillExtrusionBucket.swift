import GLSnapData

/// The vertex and index arrays of a fill-extrusion layer in one tile, in MapLibre's layout:
/// `a_pos` (Int16 x2, tile units) and `a_normal_ed` (Int16 x4: the face normal scaled by 2^14,
/// with "top" (1) or "bottom" (0) in the low bit of x, and the distance along the ring's edges
/// for patterns). Walls get four vertices per edge, roofs one per ring vertex, triangulated.
///
///     0 ── 1     a wall: 0 and 1 at the edge's first point (bottom, top), 2 and 3 at its
///     │  ╱ │     second; triangles (0, 2, 1) and (1, 2, 3)
///     2 ── 3
public struct FillExtrusionBucket: Sendable {
    /// The normal's fixed-point scale (MapLibre's factor 2^13, doubled to make room for the top bit).
    static let normalScale = 8192.0

    public var positions: [Int16] = []
    public var normals: [Int16] = []
    public var indices: [UInt32] = []
    /// Earcut steps per roof vertex (see `TessellationBudget`); a roof that runs out keeps its
    /// walls but gets no triangles, and is noted in `untriangulated`.
    public var triangulationStepsPerVertex = Int.max
    /// The last roof that ran out of steps: its vertices and the steps it had.
    public private(set) var untriangulated: (vertices: Int, steps: Int)?

    public init() {}

    public var vertexCount: Int { positions.count / 2 }

    private mutating func add(_ p: TilePoint, nx: Double, ny: Double, nz: Double, top: Int16, distance: Double) {
        positions.append(Int16(truncatingIfNeeded: p.x))
        positions.append(Int16(truncatingIfNeeded: p.y))
        normals.append(Int16(truncatingIfNeeded: Int((nx * Self.normalScale).rounded(.down)) * 2) + top)
        normals.append(Int16(truncatingIfNeeded: Int(ny * Self.normalScale * 2)))
        normals.append(Int16(truncatingIfNeeded: Int(nz * Self.normalScale * 2)))
        normals.append(Int16(truncatingIfNeeded: Int(distance.rounded())))
    }

    /// Appends one polygon feature's rings (tile units): walls for every edge that does not run
    /// along the tile's border outside it, then the roof. A polygon whose outer ring lies wholly
    /// outside the tile (in its buffer) is left to the tile it is in, walls and roof, as GL JS
    /// does: over terrain each tile lifts its roofs by its own centroid sample.
    public mutating func addPolygon(_ rings: [[TilePoint]]) {
        for polygon in classifyRings(rings, maxRings: FillBucket.maxRings) {
            if let outer = polygon.first, Self.isEntirelyOutside(outer) { continue }
            for (k, ring) in polygon.enumerated() where ring.count > 1 && !Self.isEntirelyOutside(ring) {
                // Walls face outward only when the outer ring runs clockwise on screen and holes
                // the other way (the vector-tile order; GeoJSON may come either way).
                let clockwise = signedArea(ring) > 0
                addWalls(clockwise == (k == 0) ? ring : ring.reversed())
            }
            let base = vertexCount
            var flat: [Double] = []
            var holes: [Int] = []
            for (k, ring) in polygon.enumerated() where !ring.isEmpty {
                if k > 0 { holes.append(flat.count / 2) }
                for p in ring {
                    add(p, nx: 0, ny: 0, nz: 1, top: 1, distance: 0)
                    flat.append(Double(p.x))
                    flat.append(Double(p.y))
                }
            }
            // Roof triangles all wound the same way (counterclockwise on screen), so culling
            // the faces turned away keeps every roof.
            let steps = TessellationBudget.triangulationSteps(vertices: flat.count / 2, perVertex: triangulationStepsPerVertex)
            guard let roof = earcut(flat, holeIndices: holes, maxSteps: steps) else {
                untriangulated = (flat.count / 2, steps)
                continue
            }
            var t = 0
            while t + 2 < roof.count {
                let a = Int(roof[t]), b = Int(roof[t + 1]), c = Int(roof[t + 2])
                let cross = (flat[b * 2] - flat[a * 2]) * (flat[c * 2 + 1] - flat[a * 2 + 1])
                    - (flat[b * 2 + 1] - flat[a * 2 + 1]) * (flat[c * 2] - flat[a * 2])
                let (second, third) = cross > 0 ? (c, b) : (b, c)
                indices += [UInt32(base + a), UInt32(base + second), UInt32(base + third)]
                t += 3
            }
        }
    }

    private mutating func addWalls(_ ring: [TilePoint]) {
        var distance = 0.0
        let closed = ring.first == ring.last
        let edges = closed ? ring.count - 1 : ring.count
        for i in 0..<edges {
            let p2 = ring[i], p1 = ring[(i + 1) % ring.count]
            if Self.isBoundaryEdge(p1, p2) { continue }
            let dx = Double(p1.x - p2.x), dy = Double(p1.y - p2.y)
            let length = (dx * dx + dy * dy).squareRoot()
            guard length > 0 else { continue }
            // The perpendicular (-dy, dx), normalized: the wall faces outward for clockwise rings.
            let nx = -dy / length, ny = dx / length
            if distance + length > 32768 { distance = 0 }
            let base = UInt32(vertexCount)
            add(p1, nx: nx, ny: ny, nz: 0, top: 0, distance: distance)
            add(p1, nx: nx, ny: ny, nz: 0, top: 1, distance: distance)
            distance += length
            add(p2, nx: nx, ny: ny, nz: 0, top: 0, distance: distance)
            add(p2, nx: nx, ny: ny, nz: 0, top: 1, distance: distance)
            indices += [base, base + 2, base + 1, base + 1, base + 2, base + 3]
        }
    }

    /// An edge on or beyond one side of the tile: the neighbor tile draws that wall.
    static func isBoundaryEdge(_ a: TilePoint, _ b: TilePoint) -> Bool {
        let e = TileExtent.extent
        return (a.x == b.x && (a.x < 0 || a.x > e)) || (a.y == b.y && (a.y < 0 || a.y > e))
    }

    static func isEntirelyOutside(_ ring: [TilePoint]) -> Bool {
        let e = TileExtent.extent
        return ring.allSatisfy { $0.x < 0 } || ring.allSatisfy { $0.x > e }
            || ring.allSatisfy { $0.y < 0 } || ring.allSatisfy { $0.y > e }
    }
}
