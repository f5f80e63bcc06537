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
    /// Draws the paths (fill, then stroke) and then the markers onto the snapshot image.
    func draw(on o: inout SnapshotOverlay, icons: IconStore) {
        for path in paths {
            let pts = path.points.map { o.point(for: Coordinate(latitude: $0.lat, longitude: $0.lon)) }
            if let fill = path.fill, pts.count >= 3 { fillPolygon(pts, color: fill, on: &o) }
            guard path.width > 0 else { continue }
            let s = path.stroke
            if pts.count == 1 {
                o.fillCircle(center: pts[0], radius: path.width / 2, r: s.r, g: s.g, b: s.b, a: s.a)
            }
            // Segment by segment: each stroke's cost is its own bounding box, not the whole path's.
            for i in 0..<max(0, pts.count - 1) {
                o.strokeLine([pts[i], pts[i + 1]], width: path.width, r: s.r, g: s.g, b: s.b, a: s.a)
            }
        }
        for m in markers {
            let p = o.point(for: Coordinate(latitude: m.lat, longitude: m.lon))
            if let icon = icons.icon(m.icon) {
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
