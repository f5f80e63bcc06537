import Foundation
import GLSnapData
import GLSnapStyle

/// The vertex and index arrays of a line layer in one tile, in MapLibre's line program layout.
///
/// Per vertex, `positions` holds two Int16 (`a_pos_normal`): x * 2 + round, y * 2 + up, where
/// round is 1 for the vertices of round caps/joins and up is 1 for the vertex on the line's
/// right side (the "-normal" side). `data` holds four UInt8 (`a_data`): extrude.x * 63 + 128,
/// extrude.y * 63 + 128, (dir + 1) | ((linesofar & 0x3F) << 2), linesofar >> 6, with linesofar the
/// distance along the line in tile units times `lineDistanceScale` (0.5). `indices` are
/// triangles (three per triangle) into the vertices, UInt32 so one draw call covers a tile.
public struct LineBucket: Sendable {
    /// Extrusion vectors are stored times this (MapLibre's EXTRUDE_SCALE).
    public static let extrudeScale = 63.0
    /// Distance along the line is stored times this (MapLibre's LINE_DISTANCE_SCALE).
    public static let lineDistanceScale = 0.5
    /// Distances restart from zero past half of this (2^14 / 0.5 tile units).
    public static let maxLineDistance = 32768.0
    /// Corners sharper than 75 degrees get extra vertices, this many pixels from the corner.
    static let cosHalfSharpCorner = cos(75.0 / 2 * (Double.pi / 180))
    static let sharpCornerOffset = 15.0
    /// Angle covered by each triangle of a fake-round join.
    static let degreesPerTriangle = 20.0

    public var positions: [Int16] = []
    public var data: [UInt8] = []
    public var indices: [UInt32] = []
    /// With `tracksProgress`: per vertex, how far along the whole line it lies (0...1), for
    /// line-gradient (`a_lineprogress`).
    public var progress: [Float] = []
    /// Whether `progress` is filled.
    public let tracksProgress: Bool
    /// With `tracksProgress`: per vertex, the part of the whole line its piece covers (start, end),
    /// for a step line-gradient's ramp, which GL JS renders per piece (`a_lineclip`).
    public var clips: [Float] = []
    /// With `tracksProgress`: the longest piece, in tile units (MapLibre's maxLineLength).
    public private(set) var maxLineLength = 0.0

    /// 1 for a tile drawn at its own zoom, 2^(drawn zoom - tile zoom) when overscaled; sharp
    /// corner vertices are only added up to 16.
    public var overscaling: Double

    private var distance = 0.0
    private var e1 = -1
    private var e2 = -1
    /// Progress of the current line: distance along it (never restarted), its length in this
    /// tile, and the part of the whole line it is (MapLibre's lineClips).
    private var progressDistance = 0.0
    private var totalDistance = 0.0
    private var clip = 0.0...1.0

    public init(overscaling: Double = 1, tracksProgress: Bool = false) {
        self.overscaling = overscaling
        self.tracksProgress = tracksProgress
    }

    /// Makes room for `extra` more elements, growing geometrically: `reserveCapacity` allocates
    /// exactly what it is asked for, so asking for a little more per line would copy the whole
    /// array once per line.
    @inline(__always)
    static func reserve<T>(_ array: inout [T], _ extra: Int) {
        let needed = array.count + extra
        if needed > array.capacity { array.reserveCapacity(max(needed, 2 * array.capacity)) }
    }

    /// The number of vertices so far (record it before and after a feature to know its range).
    public var vertexCount: Int { positions.count / 2 }

    /// Appends one line (or polygon ring when `isPolygonRing`) in `TileExtent` units, exactly as
    /// MapLibre's LineBucket.addLine: duplicate end points dropped, miter / bevel / round /
    /// fake-round / flip-bevel joins chosen from the miter length, extra vertices around sharp
    /// corners, butt / round / square caps (rings get butt ends and wrap around), and the
    /// distance along the line restarted past `maxLineDistance / 2`.
    /// Lines with fewer than 2 distinct points (rings: 3) add nothing.
    /// `clip` is the part of the whole line this piece covers (from a GeoJSON source's
    /// lineMetrics); progress runs across it in proportion to the distance along the piece.
    public mutating func addLine(_ vertices: [TilePoint], join: LineLayer.Join, cap: LineLayer.Cap,
                                 miterLimit: Double = 2, roundLimit: Double = 1.05, isPolygonRing: Bool = false,
                                 clip: ClosedRange<Double> = 0...1) {
        distance = 0
        var len = vertices.count
        while len >= 2 && vertices[len - 1] == vertices[len - 2] { len -= 1 }
        var first = 0
        while first < len - 1 && vertices[first] == vertices[first + 1] { first += 1 }
        if len < (isPolygonRing ? 3 : 2) { return }
        if tracksProgress {
            progressDistance = 0
            totalDistance = 0
            self.clip = clip
            for i in first..<(len - 1) { totalDistance += Vec2(vertices[i]).dist(Vec2(vertices[i + 1])) }
            maxLineLength = max(maxLineLength, totalDistance)
        }
        let miterLimit = join == .bevel ? 1.05 : miterLimit
        let sharpCornerOffset = overscaling <= 16
            ? LineBucket.sharpCornerOffset * Double(TileExtent.extent) / (512 * overscaling) : 0

        LineBucket.reserve(&positions, len * 8)
        LineBucket.reserve(&data, len * 16)
        LineBucket.reserve(&indices, len * 12)
        e1 = -1
        e2 = -1

        var currentVertex: Vec2?
        var prevVertex: Vec2?
        var prevNormal: Vec2?
        var nextNormal: Vec2?

        if isPolygonRing {
            let cv = Vec2(vertices[len - 2])
            currentVertex = cv
            nextNormal = (Vec2(vertices[first]) - cv).unit.perp
        }

        for i in first..<len {
            let nextVertex: Vec2? = i == len - 1
                ? (isPolygonRing ? Vec2(vertices[first + 1]) : nil)
                : Vec2(vertices[i + 1])
            let vi = Vec2(vertices[i])
            if let nv = nextVertex, nv == vi { continue }

            if let nn = nextNormal { prevNormal = nn }
            if let cv = currentVertex { prevVertex = cv }
            var current = vi

            let next: Vec2 = nextVertex.map { ($0 - current).unit.perp } ?? (prevNormal ?? Vec2(0, 0))
            nextNormal = next
            let prevN = prevNormal ?? next
            prevNormal = prevN

            // The join's extrusion follows the bisector of the two normals; for a 180 degree
            // turn they cancel and the miter length becomes infinite.
            var joinNormal = prevN + next
            if joinNormal.x != 0 || joinNormal.y != 0 { joinNormal = joinNormal.unit }
            let cosAngle = prevN.x * next.x + prevN.y * next.y
            let cosHalfAngle = joinNormal.x * next.x + joinNormal.y * next.y
            let miterLength = cosHalfAngle != 0 ? 1 / cosHalfAngle : Double.infinity
            let approxAngle = 2 * (2 - 2 * cosHalfAngle).squareRoot()
            let isSharpCorner = cosHalfAngle < LineBucket.cosHalfSharpCorner && prevVertex != nil && nextVertex != nil
            let lineTurnsLeft = prevN.x * next.y - prevN.y * next.x > 0

            if isSharpCorner && i > first, let pv = prevVertex {
                let prevSegmentLength = current.dist(pv)
                if prevSegmentLength > 2 * sharpCornerOffset {
                    let newPrev = current - ((current - pv) * (sharpCornerOffset / prevSegmentLength)).rounded
                    updateDistance(pv, newPrev)
                    addCurrentVertex(newPrev, prevN, 0, 0)
                    prevVertex = newPrev
                }
            }

            let middleVertex = prevVertex != nil && nextVertex != nil
            var currentJoin: JoinKind = middleVertex ? JoinKind(join) : (isPolygonRing ? .butt : JoinKind(cap))
            if middleVertex && currentJoin == .round {
                if miterLength < roundLimit {
                    currentJoin = .miter
                } else if miterLength <= 2 {
                    currentJoin = .fakeRound
                }
            }
            if currentJoin == .miter && miterLength > miterLimit { currentJoin = .bevel }
            if currentJoin == .bevel {
                // Extrusions are stored up to 128/63 = 2 line widths; longer miters flip the bevel.
                if miterLength > 2 { currentJoin = .flipBevel }
                if miterLength < miterLimit { currentJoin = .miter }
            }

            if let pv = prevVertex { updateDistance(pv, current) }

            switch currentJoin {
            case .miter:
                addCurrentVertex(current, joinNormal * miterLength, 0, 0)
            case .flipBevel:
                var n: Vec2
                if miterLength > 100 {
                    n = next * -1  // almost parallel lines
                } else {
                    let bevelLength = miterLength * (prevN + next).mag / (prevN - next).mag
                    n = joinNormal.perp * (bevelLength * (lineTurnsLeft ? -1 : 1))
                }
                addCurrentVertex(current, n, 0, 0)
                addCurrentVertex(current, n * -1, 0, 0)
            case .bevel, .fakeRound:
                let offset = -(miterLength * miterLength - 1).squareRoot()
                let offsetA = lineTurnsLeft ? offset : 0
                let offsetB = lineTurnsLeft ? 0 : offset
                if prevVertex != nil { addCurrentVertex(current, prevN, offsetA, offsetB) }
                if currentJoin == .fakeRound {
                    let n = Vec2.storableInt((approxAngle * 180 / Double.pi / LineBucket.degreesPerTriangle).jsRounded)
                    if n > 1 {
                        for m in 1..<n {
                            var t = Double(m) / Double(n)
                            if t != 0.5 {
                                // Approximate spherical interpolation of the normals.
                                let t2 = t - 0.5
                                let a = 1.0904 + cosAngle * (-3.2452 + cosAngle * (3.55645 - cosAngle * 1.43519))
                                let b = 0.848013 + cosAngle * (-1.06021 + cosAngle * 0.215638)
                                t += t * t2 * (t - 1) * (a * t2 * t2 + b)
                            }
                            let extrude = ((next - prevN) * t + prevN).unit * (lineTurnsLeft ? -1 : 1)
                            addHalfVertex(current, extrude.x, extrude.y, round: false, up: lineTurnsLeft, dir: 0)
                        }
                    }
                }
                if nextVertex != nil { addCurrentVertex(current, next, -offsetA, -offsetB) }
            case .butt:
                addCurrentVertex(current, joinNormal, 0, 0)
            case .square:
                let offset: Double = prevVertex != nil ? 1 : -1
                addCurrentVertex(current, joinNormal, offset, offset)
            case .round:
                if prevVertex != nil {
                    addCurrentVertex(current, prevN, 0, 0)
                    addCurrentVertex(current, prevN, 1, 1, round: true)
                }
                if nextVertex != nil {
                    addCurrentVertex(current, next, -1, -1, round: true)
                    addCurrentVertex(current, next, 0, 0)
                }
            }

            if isSharpCorner && i < len - 1, let nv = nextVertex {
                let nextSegmentLength = current.dist(nv)
                if nextSegmentLength > 2 * sharpCornerOffset {
                    let newCurrent = current + ((nv - current) * (sharpCornerOffset / nextSegmentLength)).rounded
                    updateDistance(current, newCurrent)
                    addCurrentVertex(newCurrent, next, 0, 0)
                    current = newCurrent
                }
            }
            currentVertex = current
        }
    }

    private enum JoinKind {
        case miter, bevel, round, fakeRound, flipBevel, butt, square
        init(_ j: LineLayer.Join) {
            switch j { case .miter: self = .miter; case .bevel: self = .bevel; case .round: self = .round }
        }
        init(_ c: LineLayer.Cap) {
            switch c { case .butt: self = .butt; case .round: self = .round; case .square: self = .square }
        }
    }

    private mutating func updateDistance(_ a: Vec2, _ b: Vec2) {
        let d = a.dist(b)
        distance += d
        progressDistance += d
    }

    /// Adds the left and right vertex at `p`; `endLeft` / `endRight` shift each extrusion along
    /// the line (caps and bevels).
    private mutating func addCurrentVertex(_ p: Vec2, _ normal: Vec2, _ endLeft: Double, _ endRight: Double,
                                           round: Bool = false) {
        let leftX = normal.x + normal.y * endLeft
        let leftY = normal.y - normal.x * endLeft
        let rightX = -normal.x + normal.y * endRight
        let rightY = -normal.y - normal.x * endRight
        addHalfVertex(p, leftX, leftY, round: round, up: false, dir: endLeft)
        addHalfVertex(p, rightX, rightY, round: round, up: true, dir: -endRight)
        // Past half the storable distance, restart at zero and repeat the pair.
        if distance > LineBucket.maxLineDistance / 2 {
            distance = 0
            addCurrentVertex(p, normal, endLeft, endRight, round: round)
        }
    }

    private mutating func addHalfVertex(_ p: Vec2, _ extrudeX: Double, _ extrudeY: Double,
                                        round: Bool, up: Bool, dir: Double) {
        let x = Int(p.x), y = Int(p.y)
        positions.append(Int16(truncatingIfNeeded: x * 2 + (round ? 1 : 0)))
        positions.append(Int16(truncatingIfNeeded: y * 2 + (up ? 1 : 0)))
        let linesofar = Vec2.storableInt((distance * LineBucket.lineDistanceScale).rounded(.towardZero))
        let d = dir == 0 ? 0 : (dir < 0 ? -1 : 1)
        data.append(UInt8(truncatingIfNeeded: Vec2.storableInt((LineBucket.extrudeScale * extrudeX).jsRounded) + 128))
        data.append(UInt8(truncatingIfNeeded: Vec2.storableInt((LineBucket.extrudeScale * extrudeY).jsRounded) + 128))
        data.append(UInt8(truncatingIfNeeded: (d + 1) | ((linesofar & 0x3F) << 2)))
        data.append(UInt8(truncatingIfNeeded: linesofar >> 6))
        if tracksProgress {
            let along = totalDistance > 0 ? min(progressDistance / totalDistance, 1) : 0
            progress.append(Float(clip.lowerBound + (clip.upperBound - clip.lowerBound) * along))
            clips.append(Float(clip.lowerBound))
            clips.append(Float(clip.upperBound))
        }
        let e = vertexCount - 1
        if e1 >= 0 && e2 >= 0 {
            indices.append(UInt32(e1))
            indices.append(UInt32(e2))
            indices.append(UInt32(e))
        }
        if up { e2 = e } else { e1 = e }
    }
}
