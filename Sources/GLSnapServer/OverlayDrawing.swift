import Foundation
import GLSnap
import GLSnapImage

/// Marker icons (PNG files in the configured icons folder), decoded once and kept.
final class IconStore: @unchecked Sendable {
    private let folder: String
    private var icons: [String: RGBAImage?] = [:]
    private let lock = NSLock()
    static let maxFileBytes = 1 << 20
    static let maxCached = 256

    init(folder: String) { self.folder = folder }

    /// The icon named `name` (a safe file name ending in .png), or nil when there is none.
    func icon(_ name: String) -> RGBAImage? {
        guard isSafeName(name), name.lowercased().hasSuffix(".png") else { return nil }
        lock.lock()
        if let cached = icons[name] { lock.unlock(); return cached }
        lock.unlock()
        let path = (folder as NSString).appendingPathComponent(name)
        var image: RGBAImage?
        if let attrs = try? FileManager.default.attributesOfItem(atPath: path),
           let size = attrs[.size] as? Int, size <= IconStore.maxFileBytes,
           let data = FileManager.default.contents(atPath: path) {
            image = try? PNGDecoder(limits: .init(maxDimension: 512, maxBytes: IconStore.maxFileBytes)).decode(Array(data))
        }
        lock.lock()
        if icons.count < IconStore.maxCached { icons[name] = image }
        lock.unlock()
        return image
    }
}

extension Overlays {
    /// Draws the paths (fill, border, then stroke, as tileserver-gl) and then the markers onto the snapshot image.
    func draw(on o: inout SnapshotOverlay, icons: IconStore) {
        var stroker = Stroker(width: o.image.width, height: o.image.height)
        for path in paths {
            let pts = path.points.map { o.point(for: Coordinate(latitude: $0.lat, longitude: $0.lon)) }
            if let fill = path.fill, pts.count >= 3 { fillPolygon(pts, color: fill, on: &o) }
            if pts.count == 1 {
                if let s = path.stroke, path.width > 0 { o.fillCircle(center: pts[0], radius: path.width / 2, r: s.r, g: s.g, b: s.b, a: s.a) }
                continue
            }
            let px = pts.map { Point(x: $0.x * o.pixelRatio, y: $0.y * o.pixelRatio) }
            if let b = path.border, path.borderWidth > 0 {
                stroker.stroke(px, width: (path.width + 2 * path.borderWidth) * o.pixelRatio, cap: lineCap, join: lineJoin, color: b, on: &o)
            }
            if let s = path.stroke, path.width > 0 {
                stroker.stroke(px, width: path.width * o.pixelRatio, cap: lineCap, join: lineJoin, color: s, on: &o)
            }
        }
        for m in markers {
            let p = o.point(for: Coordinate(latitude: m.lat, longitude: m.lon))
            if let icon = m.inline ?? icons.icon(m.icon) {
                drawIcon(icon, bottomCenter: Point(x: p.x + m.offsetX, y: p.y + m.offsetY), scale: m.scale, on: &o)
            } else {
                let c = Point(x: p.x + m.offsetX, y: p.y + m.offsetY)
                o.fillCircle(center: c, radius: 7 * m.scale, r: 1, g: 1, b: 1, a: 1)
                o.fillCircle(center: c, radius: 5 * m.scale, r: 0.85, g: 0.15, b: 0.15, a: 1)
            }
        }
    }

    /// Even-odd scanline fill at pixel centers (points in points; drawn in pixels).
    private func fillPolygon(_ pts: [Point], color: RGBA, on o: inout SnapshotOverlay) {
        let ratio = o.pixelRatio
        let px = pts.map { (x: $0.x * ratio, y: $0.y * ratio) }
        guard let minY = px.map(\.y).min(), let maxY = px.map(\.y).max(), minY.isFinite, maxY.isFinite else { return }
        let y0 = max(0, Int(minY.rounded(.down))), y1 = min(o.image.height - 1, Int(maxY.rounded(.up)))
        guard y0 <= y1 else { return }
        var xs: [Double] = []
        for y in y0...y1 {
            let yc = Double(y) + 0.5
            xs.removeAll(keepingCapacity: true)
            for i in 0..<px.count {
                let a = px[i], b = px[(i + 1) % px.count]
                if (a.y <= yc) != (b.y <= yc) {
                    xs.append(a.x + (yc - a.y) / (b.y - a.y) * (b.x - a.x))
                }
            }
            xs.sort()
            var k = 0
            while k + 1 < xs.count {
                let from = max(0, Int((xs[k] - 0.5).rounded(.up))), to = min(o.image.width - 1, Int((xs[k + 1] - 0.5).rounded(.down)))
                if from <= to {
                    for x in from...to { o.blend(x: x, y: y, r: color.r, g: color.g, b: color.b, a: color.a) }
                }
                k += 2
            }
        }
    }

    /// Nearest-neighbour scaled icon, straight alpha blended.
    private func drawIcon(_ icon: RGBAImage, bottomCenter p: Point, scale: Double, on o: inout SnapshotOverlay) {
        let s = scale * o.pixelRatio
        let w = Double(icon.width) * s, h = Double(icon.height) * s
        let left = p.x * o.pixelRatio - w / 2, top = p.y * o.pixelRatio - h
        let x0 = max(0, Int(left.rounded(.down))), x1 = min(o.image.width - 1, Int((left + w).rounded(.up)))
        let y0 = max(0, Int(top.rounded(.down))), y1 = min(o.image.height - 1, Int((top + h).rounded(.up)))
        guard x0 <= x1, y0 <= y1 else { return }
        for y in y0...y1 {
            let sy = Int((Double(y) + 0.5 - top) / s)
            guard sy >= 0, sy < icon.height else { continue }
            for x in x0...x1 {
                let sx = Int((Double(x) + 0.5 - left) / s)
                guard sx >= 0, sx < icon.width else { continue }
                let i = (sy * icon.width + sx) * 4
                let a = Double(icon.pixels[i + 3]) / 255
                guard a > 0 else { continue }
                o.blend(x: x, y: y, r: Double(icon.pixels[i]) / 255, g: Double(icon.pixels[i + 1]) / 255,
                        b: Double(icon.pixels[i + 2]) / 255, a: a)
            }
        }
    }
}

/// Strokes polylines with canvas caps and joins, antialiased: each piece (a segment's rectangle, a
/// cap, a join) writes its coverage into a buffer as a maximum, so overlapping pieces blend once.
/// Each piece costs its own bounding box, not the whole path's.
struct Stroker {
    let width: Int, height: Int
    private var coverage: [Float]
    /// Rows and columns touched since the last blend.
    private var touched = (x0: Int.max, y0: Int.max, x1: Int.min, y1: Int.min)

    /// The buffer is allocated on the first stroke.
    init(width: Int, height: Int) { self.width = width; self.height = height; coverage = [] }

    /// `points` and `width` in pixels; a path whose last point is its first is closed (joined, no caps).
    mutating func stroke(_ points: [Point], width w: Double, cap: LineCap, join: LineJoin, color: RGBA, on o: inout SnapshotOverlay) {
        var pts: [Point] = []
        for p in points where p.x.isFinite && p.y.isFinite && pts.last.map({ $0.x != p.x || $0.y != p.y }) ?? true { pts.append(p) }
        guard pts.count >= 2 else { return }
        let closed = pts.count > 2 && pts.first!.x == pts.last!.x && pts.first!.y == pts.last!.y
        let h = w / 2
        let n = pts.count
        for i in 0..<(n - 1) {
            let a = pts[i], b = pts[i + 1]
            let len = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
            let d = Point(x: (b.x - a.x) / len, y: (b.y - a.y) / len), nrm = Point(x: -d.y, y: d.x)
            let startExt = (cap == .square && !closed && i == 0) ? h : 0
            let endExt = (cap == .square && !closed && i == n - 2) ? h : 0
            let a2 = Point(x: a.x - d.x * startExt, y: a.y - d.y * startExt), b2 = Point(x: b.x + d.x * endExt, y: b.y + d.y * endExt)
            polygon([Point(x: a2.x + nrm.x * h, y: a2.y + nrm.y * h), Point(x: b2.x + nrm.x * h, y: b2.y + nrm.y * h),
                     Point(x: b2.x - nrm.x * h, y: b2.y - nrm.y * h), Point(x: a2.x - nrm.x * h, y: a2.y - nrm.y * h)])
        }
        if !closed && cap == .round { disc(pts[0], h); disc(pts[n - 1], h) }
        // Joins at the inner vertices, and at the first point of a closed path.
        for i in (closed ? 0 : 1)..<(n - 1) {
            let prev = i == 0 ? pts[n - 2] : pts[i - 1], v = pts[i], next = pts[i + 1]
            joinPiece(prev, v, next, h, join)
        }
        blend(color, on: &o)
    }

    private mutating func joinPiece(_ p: Point, _ v: Point, _ q: Point, _ h: Double, _ join: LineJoin) {
        if join == .round { disc(v, h); return }
        func unit(_ x: Double, _ y: Double) -> Point { let l = (x * x + y * y).squareRoot(); return Point(x: x / l, y: y / l) }
        let d1 = unit(v.x - p.x, v.y - p.y), d2 = unit(q.x - v.x, q.y - v.y)
        var n1 = Point(x: -d1.y, y: d1.x), n2 = Point(x: -d2.y, y: d2.x)
        // The gap opens on the side away from the turn.
        if n1.x * d2.x + n1.y * d2.y > 0 { n1 = Point(x: -n1.x, y: -n1.y); n2 = Point(x: -n2.x, y: -n2.y) }
        let e1 = Point(x: v.x + n1.x * h, y: v.y + n1.y * h), e2 = Point(x: v.x + n2.x * h, y: v.y + n2.y * h)
        let bis = unit(n1.x + n2.x, n1.y + n2.y)
        let cosHalf = bis.x * n1.x + bis.y * n1.y
        if join == .miter, cosHalf > 0.1, bis.x.isFinite {
            let m = Point(x: v.x + bis.x * h / cosHalf, y: v.y + bis.y * h / cosHalf)
            polygon([v, e1, m, e2])
        } else {
            polygon([v, e1, e2])
        }
    }

    /// A convex polygon's coverage: 0.5 minus the largest signed distance to its edges' lines.
    private mutating func polygon(_ ps: [Point]) {
        guard ps.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return }
        var area = 0.0
        for i in 0..<ps.count { let a = ps[i], b = ps[(i + 1) % ps.count]; area += a.x * b.y - b.x * a.y }
        guard abs(area) > 1e-9 else { return }
        let sign = area > 0 ? 1.0 : -1.0
        var edges: [(nx: Double, ny: Double, c: Double)] = []
        for i in 0..<ps.count {
            let a = ps[i], b = ps[(i + 1) % ps.count]
            let ex = b.x - a.x, ey = b.y - a.y, l = (ex * ex + ey * ey).squareRoot()
            guard l > 0 else { continue }
            // Outward normal of a counter-clockwise (in y-down pixels: area > 0) polygon.
            let nx = sign * ey / l, ny = -sign * ex / l
            edges.append((nx, ny, nx * a.x + ny * a.y))
        }
        fill(minX: ps.map(\.x).min()!, maxX: ps.map(\.x).max()!, minY: ps.map(\.y).min()!, maxY: ps.map(\.y).max()!) { x, y in
            var d = -Double.infinity
            for e in edges { d = max(d, e.nx * x + e.ny * y - e.c) }
            return d
        }
    }

    private mutating func disc(_ c: Point, _ r: Double) {
        fill(minX: c.x - r, maxX: c.x + r, minY: c.y - r, maxY: c.y + r) { x, y in
            ((x - c.x) * (x - c.x) + (y - c.y) * (y - c.y)).squareRoot() - r
        }
    }

    /// Coverage 0.5 - distance at each pixel center of the box (one pixel of margin), kept as a maximum.
    private mutating func fill(minX: Double, maxX: Double, minY: Double, maxY: Double, distance: (Double, Double) -> Double) {
        let x0 = max(0, Int((minX - 1).rounded(.down))), x1 = min(width - 1, Int((maxX + 1).rounded(.up)))
        let y0 = max(0, Int((minY - 1).rounded(.down))), y1 = min(height - 1, Int((maxY + 1).rounded(.up)))
        guard x0 <= x1, y0 <= y1 else { return }
        if coverage.isEmpty { coverage = [Float](repeating: 0, count: width * height) }
        touched = (min(touched.x0, x0), min(touched.y0, y0), max(touched.x1, x1), max(touched.y1, y1))
        for y in y0...y1 {
            for x in x0...x1 {
                let c = Float(max(0, min(1, 0.5 - distance(Double(x) + 0.5, Double(y) + 0.5))))
                if c > coverage[y * width + x] { coverage[y * width + x] = c }
            }
        }
    }

    /// Blends the color by the coverage over the touched box and clears it for the next stroke.
    private mutating func blend(_ color: RGBA, on o: inout SnapshotOverlay) {
        guard touched.x0 <= touched.x1, touched.y0 <= touched.y1 else { return }
        for y in touched.y0...touched.y1 {
            for x in touched.x0...touched.x1 {
                let c = coverage[y * width + x]
                guard c > 0 else { continue }
                o.blend(x: x, y: y, r: color.r, g: color.g, b: color.b, a: color.a, coverage: Double(c))
                coverage[y * width + x] = 0
            }
        }
        touched = (Int.max, Int.max, Int.min, Int.min)
    }
}
