import GLSnapData

/// The vertex and index arrays of a fill layer in one tile, in MapLibre's fill program layout.
///
/// `positions` holds two Int16 per vertex (`a_pos`: x, y in `TileExtent` units). Every ring
/// vertex is stored once and shared by `triangleIndices` (three per triangle, from earcut) and
/// `lineIndices` (two per outline segment, for fill-antialias and fill-outline-color: each ring
/// closes from its last vertex back to its first).
public struct FillBucket: Sendable {
    /// Polygons keep their outer ring and at most this many rings in all (MapLibre's value).
    public static let maxRings = 500

    public var positions: [Int16] = []
    public var triangleIndices: [UInt32] = []
    public var lineIndices: [UInt32] = []
    /// Earcut steps per polygon vertex (see `TessellationBudget`); a polygon that runs out keeps
    /// its outline but gets no triangles, and is noted in `untriangulated`.
    public var triangulationStepsPerVertex = Int.max
    /// The last polygon that ran out of steps: its vertices and the steps it had.
    public private(set) var untriangulated: (vertices: Int, steps: Int)?

    public init() {}

    /// The number of vertices so far.
    public var vertexCount: Int { positions.count / 2 }

    /// Appends the rings of one polygon feature (in `TileExtent` units, outer rings clockwise as
    /// the vector-tile spec orders them): groups them with `classifyRings`, then triangulates
    /// each polygon with `earcut`.
    public mutating func addPolygon(_ rings: [[TilePoint]]) {
        var flat: [Double] = []
        var holes: [Int] = []
        for polygon in classifyRings(rings, maxRings: FillBucket.maxRings) {
            let base = vertexCount
            flat.removeAll(keepingCapacity: true)
            holes.removeAll(keepingCapacity: true)
            for (k, ring) in polygon.enumerated() where !ring.isEmpty {
                if k > 0 { holes.append(flat.count / 2) }
                let start = vertexCount
                lineIndices.append(UInt32(start + ring.count - 1))
                lineIndices.append(UInt32(start))
                for (i, p) in ring.enumerated() {
                    positions.append(Int16(truncatingIfNeeded: p.x))
                    positions.append(Int16(truncatingIfNeeded: p.y))
                    if i > 0 {
                        lineIndices.append(UInt32(start + i - 1))
                        lineIndices.append(UInt32(start + i))
                    }
                    flat.append(Double(p.x))
                    flat.append(Double(p.y))
                }
            }
            let steps = TessellationBudget.triangulationSteps(vertices: flat.count / 2, perVertex: triangulationStepsPerVertex)
            guard let triangles = earcut(flat, holeIndices: holes, maxSteps: steps) else {
                untriangulated = (flat.count / 2, steps)
                continue
            }
            for index in triangles {
                triangleIndices.append(UInt32(base) + index)
            }
        }
    }
}

/// The vertex and index arrays of a circle layer in one tile, in MapLibre's circle layout:
/// four vertices per point, `a_pos` Int16 x2 = (x * 2 + (ex + 1) / 2, y * 2 + (ey + 1) / 2) for
/// the extrusions (-1,-1), (1,-1), (1,1), (-1,1), and two triangles (0,1,2), (0,3,2).
public struct CircleBucket: Sendable {
    public var positions: [Int16] = []
    public var indices: [UInt32] = []

    public init() {}

    /// The number of vertices so far (four per point).
    public var vertexCount: Int { positions.count / 2 }

    /// Appends one point in `TileExtent` units. Points outside the tile (x or y below 0 or at
    /// least `TileExtent.extent`) are skipped, as MapLibre does, since the neighbouring tile
    /// draws them; returns whether the point was added.
    @discardableResult
    public mutating func addPoint(_ p: TilePoint) -> Bool {
        guard p.x >= 0, p.x < TileExtent.extent, p.y >= 0, p.y < TileExtent.extent else { return false }
        let base = UInt32(vertexCount)
        let x = Int16(p.x) * 2, y = Int16(p.y) * 2
        positions += [x, y, x + 1, y, x + 1, y + 1, x, y + 1]
        indices += [base, base + 1, base + 2, base, base + 3, base + 2]
        return true
    }
}

/// The name the design notes use for the line buffers.
public typealias LineVertexBuffer = LineBucket
/// The name the design notes use for the fill buffers.
public typealias FillGeometry = FillBucket
