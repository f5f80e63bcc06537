import Foundation

/// The planet as GL JS draws it: not the sphere itself but its tile mesh, a grid of `segments`
/// cells a side in Mercator x and y, each vertex on the unit sphere, a cell two triangles, and a
/// fan from each polar row to the pole. Without terrain that is GL JS's tile granularity (128
/// cells a tile at zoom 0, halved per zoom, at least 32); with terrain, the terrain's mesh of
/// 128 cells a tile (tiles of the camera's whole zoom).
///
///     v0 (i, j) ---- v1 (i+1, j)          north cap: pole (x of v1), v2, v3
///       |          /  |                   south cap: v0, pole (x of v2), v1
///       |       /     |
///     v2 (i, j+1) -- v3 (i+1, j+1)        triangles v0 v2 v1 and v1 v2 v3
///
/// A pixel's Mercator coordinate is the one the mesh interpolates where the pixel's ray meets it
/// (perspective-correct, as the GPU does), clipped at the horizon's plane as GL JS clips it:
/// toward the rim, where the rays graze the planet, that is well off the sphere's, and the rim
/// runs along the chords.
struct GlobeMesh {
    /// Cells a side of the world.
    let segments: Double
    /// How far below the unit sphere the cells reach at most (a triangle's circumradius is
    /// under 1.5 cells wide there), and the polar fans (under 2.6 degrees).
    let cellDepth: Double, capDepth: Double

    init(zoom: Double, terrain: Bool = false) {
        let tileZoom = max(0, zoom.rounded(.down)), tiles = pow(2, tileZoom)
        segments = terrain ? tiles * 128 : tiles * max(128 / tiles, 32)
        cellDepth = 1 - cos(1.5 * .pi / segments)
        capDepth = max(cellDepth, 1 - cos(2.6 * .pi / 180))
    }

    /// A mesh vertex: its Mercator coordinate and its point on the unit sphere.
    private struct Vertex {
        var m: (x: Double, y: Double)
        var p: (x: Double, y: Double, z: Double)
    }

    private func vertex(_ i: Int, _ j: Int) -> Vertex {
        let x = Double(i) / segments, y = Double(j) / segments
        let lon = (2 * x - 1) * .pi, k = .pi * (1 - 2 * y)
        let cosLat = 1 / cosh(k), sinLat = tanh(k)
        return Vertex(m: (x, y), p: (sin(lon) * cosLat, sinLat, cos(lon) * cosLat))
    }

    private func pole(_ i: Int, north: Bool) -> Vertex {
        Vertex(m: (Double(i) / segments, north ? 0 : 1), p: (0, north ? 1 : -1, 0))
    }

    /// The Mercator coordinate (x unwrapped near the ray's) where the ray from `o` along unit
    /// `d` first meets the mesh, or nil where it passes by.
    func mercatorCoordinate(origin o: (x: Double, y: Double, z: Double), direction d: (x: Double, y: Double, z: Double))
        -> (x: Double, y: Double)? {
        let b = o.x * d.x + o.y * d.y + o.z * d.z
        let c = o.x * o.x + o.y * o.y + o.z * o.z - 1
        let disc = b * b - c
        guard disc >= 0 else { return nil }
        let enter = max(0, -b - disc.squareRoot()), exit = -b + disc.squareRoot()
        guard exit > 0 else { return nil }
        // The mesh lies in the shell between the sphere and `depth` below it: the hit is on the
        // part of the ray inside that shell, in one of the cells that part crosses.
        func shellEnd(_ depth: Double) -> Double {
            let r = 1 - depth, q = b * b - (c + 1 - r * r)
            return q >= 0 ? max(enter, -b - q.squareRoot()) : exit
        }
        let entry = (o.x + d.x * enter, o.y + d.y * enter, o.z + d.z * enter)
        var end = shellEnd(cellDepth)
        let polar = 0.99
        let last = (o.y + d.y * end)
        if abs(entry.1) > polar || abs(last) > polar { end = shellEnd(capDepth) }
        // Samples a third of a cell apart (cells narrow with the latitude's cosine).
        let cosLat = max((entry.0 * entry.0 + entry.2 * entry.2).squareRoot(), 0.02)
        let spacing = 2 * .pi / segments * cosLat / 3
        let count = min(max(Int(((end - enter) / spacing).rounded(.up)) + 1, 2), 96)
        var tried: [(Int, Int)] = []
        tried.reserveCapacity(8)
        let n = Int(segments)
        for k in 0..<count {
            let t = enter + (end - enter) * Double(k) / Double(count - 1)
            let cell = self.cell(at: (o.x + d.x * t, o.y + d.y * t, o.z + d.z * t), rows: n)
            if tried.contains(where: { $0 == cell }) { continue }
            tried.append(cell)
            if let h = hit(cell: cell, rows: n, o, d) { return clipped(h, o, d) }
        }
        // The spherical triangles' edges along a row bow poleward of its latitude: the
        // neighbors of the cells crossed.
        let crossed = tried
        for cell in crossed {
            for dj in -1...1 {
                for di in -1...1 where di != 0 || dj != 0 {
                    let next = (cell.0 + di, min(max(cell.1 + dj, -1), n))
                    if tried.contains(where: { $0 == next }) { continue }
                    tried.append(next)
                    if let h = hit(cell: next, rows: n, o, d) { return clipped(h, o, d) }
                }
            }
        }
        return nil
    }

    /// GL JS clips the mesh at the horizon's plane (the plane through the points where lines
    /// from the camera touch the sphere, `p · camera = 1` on the unit sphere): chords past it
    /// are not drawn, and the faces behind are culled, so the ray shows space.
    private func clipped(_ h: (t: Double, m: (x: Double, y: Double)), _ o: (x: Double, y: Double, z: Double),
                         _ d: (x: Double, y: Double, z: Double)) -> (x: Double, y: Double)? {
        let p = (o.x + d.x * h.t, o.y + d.y * h.t, o.z + d.z * h.t)
        return p.0 * o.x + p.1 * o.y + p.2 * o.z >= 1 ? h.m : nil
    }

    /// The cell (column unwrapped, row -1 the north cap, `rows` the south) over point `p`.
    private func cell(at p: (x: Double, y: Double, z: Double), rows: Int) -> (Int, Int) {
        let lon = atan2(p.x, p.z), lat = atan2(p.y, (p.x * p.x + p.z * p.z).squareRoot())
        let x = lon / (2 * .pi) + 0.5
        let s = min(max(sin(lat), -1 + 1e-15), 1 - 1e-15)
        let y = 0.5 - 0.25 * log((1 + s) / (1 - s)) / .pi
        let j = y < 0 ? -1 : (y >= 1 ? rows : Int((y * segments).rounded(.down)))
        return (Int((x * segments).rounded(.down)), min(max(j, -1), rows))
    }

    /// Where the ray meets cell `cell`'s triangles from the front: how far along, and the
    /// Mercator coordinate interpolated there.
    private func hit(cell: (Int, Int), rows: Int, _ o: (x: Double, y: Double, z: Double), _ d: (x: Double, y: Double, z: Double))
        -> (t: Double, m: (x: Double, y: Double))? {
        let (i, j) = cell
        if j < 0 {
            return GlobeMesh.intersect(pole(i + 1, north: true), vertex(i, 0), vertex(i + 1, 0), o, d)
        }
        if j >= rows {
            return GlobeMesh.intersect(vertex(i, rows), pole(i, north: false), vertex(i + 1, rows), o, d)
        }
        let v0 = vertex(i, j), v1 = vertex(i + 1, j), v2 = vertex(i, j + 1), v3 = vertex(i + 1, j + 1)
        return GlobeMesh.intersect(v0, v2, v1, o, d) ?? GlobeMesh.intersect(v1, v2, v3, o, d)
    }

    /// Möller-Trumbore: the ray's hit on triangle a b c (wound clockwise seen from outside,
    /// as the tile mesh is), its Mercator coordinate interpolated; nil past its edges, behind
    /// the origin or from behind.
    private static func intersect(_ a: Vertex, _ b: Vertex, _ c: Vertex,
                                  _ o: (x: Double, y: Double, z: Double), _ d: (x: Double, y: Double, z: Double))
        -> (t: Double, m: (x: Double, y: Double))? {
        let e1 = (b.p.x - a.p.x, b.p.y - a.p.y, b.p.z - a.p.z)
        let e2 = (c.p.x - a.p.x, c.p.y - a.p.y, c.p.z - a.p.z)
        let h = (d.y * e2.2 - d.z * e2.1, d.z * e2.0 - d.x * e2.2, d.x * e2.1 - d.y * e2.0)
        let det = e1.0 * h.0 + e1.1 * h.1 + e1.2 * h.2
        guard abs(det) > 1e-300 else { return nil }
        let s = (o.x - a.p.x, o.y - a.p.y, o.z - a.p.z)
        let u = (s.0 * h.0 + s.1 * h.1 + s.2 * h.2) / det
        guard u >= 0, u <= 1 else { return nil }
        let q = (s.1 * e1.2 - s.2 * e1.1, s.2 * e1.0 - s.0 * e1.2, s.0 * e1.1 - s.1 * e1.0)
        let v = (d.x * q.0 + d.y * q.1 + d.z * q.2) / det
        guard v >= 0, u + v <= 1 else { return nil }
        let t = (e2.0 * q.0 + e2.1 * q.1 + e2.2 * q.2) / det
        guard t > 0 else { return nil }
        // Seen from the front: the face's outward normal (e1 × e2 points into the sphere for a
        // clockwise face, so check against the face's position instead of the winding).
        let n = (e1.1 * e2.2 - e1.2 * e2.1, e1.2 * e2.0 - e1.0 * e2.2, e1.0 * e2.1 - e1.1 * e2.0)
        let outward = n.0 * a.p.x + n.1 * a.p.y + n.2 * a.p.z >= 0 ? 1.0 : -1.0
        guard (n.0 * d.x + n.1 * d.y + n.2 * d.z) * outward < 0 else { return nil }
        let w = 1 - u - v
        return (t, (a.m.x * w + b.m.x * u + c.m.x * v, a.m.y * w + b.m.y * u + c.m.y * v))
    }
}

extension GlobeView {
    /// Past how many pixels the chords shift what a pixel shows the mesh is sampled, not the sphere.
    static let meshShiftThreshold = 0.25

    /// Cells a side of the world in the tile mesh the planet is drawn with.
    public var meshSegments: Double { mesh.segments }

    /// The Mercator coordinate drawn at a screen position (CSS pixels from the top-left) where
    /// the planet is GL JS's tile mesh (`GlobeMesh`) rather than the sphere: what the image shows
    /// there, nil in space. Between the transition zooms, `mercatorCoordinate(for:)`.
    public func meshMercatorCoordinate(for point: (x: Double, y: Double)) -> (x: Double, y: Double)? {
        guard globeness >= 1 else { return mercatorCoordinate(for: point) }
        let nx = point.x / flat.width * 2 - 1, ny = 1 - point.y / flat.height * 2
        let b = Mat4.transform(sphereMatrixInverse, nx, ny, 1, 1)
        let o = camera
        var dir = (b.0 / b.3 - o.x, b.1 / b.3 - o.y, b.2 / b.3 - o.z)
        let len = (dir.0 * dir.0 + dir.1 * dir.1 + dir.2 * dir.2).squareRoot()
        guard len > 0 else { return nil }
        dir = (dir.0 / len, dir.1 / len, dir.2 / len)
        // Where the rays meet the planet head on, the chords shift what a pixel shows by a
        // small fraction of a pixel: there the sphere's answer, with its exact latitudes.
        let bq = o.x * dir.0 + o.y * dir.1 + o.z * dir.2
        let disc = bq * bq - (o.x * o.x + o.y * o.y + o.z * o.z - 1)
        guard disc >= 0 else { return nil }
        let t = -bq - disc.squareRoot()
        let p = (o.x + dir.0 * t, o.y + dir.1 * t, o.z + dir.2 * t)
        let cosIncidence = max(-(p.0 * dir.0 + p.1 * dir.1 + p.2 * dir.2), 1e-9)
        let shift = mesh.cellDepth * (1 - cosIncidence * cosIncidence).squareRoot() / cosIncidence * radius
        if shift < GlobeView.meshShiftThreshold { return mercatorCoordinate(for: point) }
        guard var m = mesh.mercatorCoordinate(origin: o, direction: (dir.0, dir.1, dir.2)) else { return nil }
        let cx = Mercator.x(lon: flat.center.lon)
        m.x -= (m.x - cx).rounded()
        return m
    }
}
