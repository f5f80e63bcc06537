import Foundation
import GLSnapImage

/// What an overlay handler gets after the map is drawn: the image to draw on, in pixels, and the
/// snapshot's coordinate conversions (in points; multiply by `pixelRatio` for pixels).
public struct SnapshotOverlay {
    /// The map as drawn; what the handler leaves here is the snapshot's image.
    public var image: RGBAImage
    /// Image pixels per point.
    public let pixelRatio: Double
    private let snapshot: Snapshot

    init(snapshot: Snapshot) {
        self.snapshot = snapshot
        self.image = snapshot.image
        self.pixelRatio = snapshot.pixelRatio
    }

    /// Where `coordinate` is drawn, in points (see `Snapshot.point(for:)`).
    public func point(for coordinate: Coordinate) -> Point { snapshot.point(for: coordinate) }
    /// The coordinate drawn at `point` (in points; see `Snapshot.coordinate(for:)`).
    public func coordinate(for point: Point) -> Coordinate { snapshot.coordinate(for: point) }

    /// Blends a straight-alpha color (components 0...1) over pixel (x, y) with coverage `coverage`.
    public mutating func blend(x: Int, y: Int, r: Double, g: Double, b: Double, a: Double, coverage: Double = 1) {
        guard x >= 0, y >= 0, x < image.width, y < image.height else { return }
        let alpha = max(0, min(1, a * coverage))
        guard alpha > 0 else { return }
        let o = (y * image.width + x) * 4
        let da = Double(image.pixels[o + 3]) / 255
        let outA = alpha + da * (1 - alpha)
        guard outA > 0 else { return }
        for (i, c) in [r, g, b].enumerated() {
            let dc = Double(image.pixels[o + i]) / 255
            let v = (c * alpha + dc * da * (1 - alpha)) / outA
            image.pixels[o + i] = UInt8(max(0, min(255, (v * 255).rounded())))
        }
        image.pixels[o + 3] = UInt8(max(0, min(255, (outA * 255).rounded())))
    }

    /// Fills an antialiased disc centered at `center` (in points) with `radius` points.
    public mutating func fillCircle(center: Point, radius: Double, r: Double, g: Double, b: Double, a: Double = 1) {
        let cx = center.x * pixelRatio, cy = center.y * pixelRatio, rad = radius * pixelRatio
        let x0 = Int((cx - rad - 1).rounded(.down)), x1 = Int((cx + rad + 1).rounded(.up))
        let y0 = Int((cy - rad - 1).rounded(.down)), y1 = Int((cy + rad + 1).rounded(.up))
        guard x1 >= 0, y1 >= 0, x0 < image.width, y0 < image.height else { return }
        for y in max(0, y0)...min(image.height - 1, y1) {
            for x in max(0, x0)...min(image.width - 1, x1) {
                let d = ((Double(x) + 0.5 - cx) * (Double(x) + 0.5 - cx) + (Double(y) + 0.5 - cy) * (Double(y) + 0.5 - cy)).squareRoot()
                blend(x: x, y: y, r: r, g: g, b: b, a: a, coverage: rad + 0.5 - d)
            }
        }
    }

    /// Strokes the polyline through `points` (in points), `width` points wide, antialiased.
    public mutating func strokeLine(_ points: [Point], width: Double, r: Double, g: Double, b: Double, a: Double = 1) {
        guard points.count >= 2 else { return }
        let half = width * pixelRatio / 2
        let ps = points.map { (x: $0.x * pixelRatio, y: $0.y * pixelRatio) }
        let minX = Int((ps.map(\.x).min()! - half - 1).rounded(.down)), maxX = Int((ps.map(\.x).max()! + half + 1).rounded(.up))
        let minY = Int((ps.map(\.y).min()! - half - 1).rounded(.down)), maxY = Int((ps.map(\.y).max()! + half + 1).rounded(.up))
        guard maxX >= 0, maxY >= 0, minX < image.width, minY < image.height else { return }
        for y in max(0, minY)...min(image.height - 1, maxY) {
            for x in max(0, minX)...min(image.width - 1, maxX) {
                let px = Double(x) + 0.5, py = Double(y) + 0.5
                var best = Double.infinity
                for i in 0..<(ps.count - 1) {
                    let ax = ps[i].x, ay = ps[i].y, bx = ps[i + 1].x, by = ps[i + 1].y
                    let dx = bx - ax, dy = by - ay
                    let len2 = dx * dx + dy * dy
                    let t = len2 == 0 ? 0 : max(0, min(1, ((px - ax) * dx + (py - ay) * dy) / len2))
                    let qx = ax + t * dx - px, qy = ay + t * dy - py
                    best = min(best, (qx * qx + qy * qy).squareRoot())
                }
                blend(x: x, y: y, r: r, g: g, b: b, a: a, coverage: half + 0.5 - best)
            }
        }
    }
}
