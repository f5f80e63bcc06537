import Foundation
import GLSnapData
import GLSnapImage
import GLSnapLayout

/// Draws `MapDebugOptions` over a finished image, as GL JS draws them over the map: tile borders
/// (draw_debug: a red line strip around each tile) and collision shapes (draw_collision_debug:
/// boxes as 1-pixel GL lines in the collision_box shader's premultiplied colors, line labels'
/// circles as the collision_circle shader's antialiased rings). Coordinates are CSS pixels from
/// the top-left; the image is `pixelRatio` pixels per CSS pixel.
struct DebugOverlay {
    var image: RGBAImage
    let pixelRatio: Double

    /// A placed box: the collision_box shader's (0, 0, 1, 0.5) times its 0.5, taken as
    /// premultiplied as it stands (blue 0.5 over alpha 0.25: over grey the blue saturates).
    static let placedBox: (Double, Double, Double, Double) = (0, 0, 0.5, 0.25)
    /// A box that collided: red, times 0.5.
    static let collidedBox: (Double, Double, Double, Double) = (0.5, 0, 0, 0.5)
    /// Tile borders: opaque red.
    static let border: (Double, Double, Double, Double) = (1, 0, 0, 1)

    /// Blends premultiplied `c` (scaled by `coverage`) over pixel (x, y) as GL's ONE,
    /// ONE_MINUS_SRC_ALPHA does, on the image's straight alpha.
    mutating func blend(_ x: Int, _ y: Int, _ c: (Double, Double, Double, Double), coverage: Double = 1) {
        guard x >= 0, y >= 0, x < image.width, y < image.height, coverage > 0 else { return }
        let k = min(coverage, 1)
        let sr = c.0 * k, sg = c.1 * k, sb = c.2 * k, sa = c.3 * k
        let o = (y * image.width + x) * 4
        let da = Double(image.pixels[o + 3]) / 255
        let outA = sa + da * (1 - sa)
        guard outA > 0 else { return }
        for (i, s) in [sr, sg, sb].enumerated() {
            let d = Double(image.pixels[o + i]) / 255 * da
            image.pixels[o + i] = UInt8(max(0, min(255, ((s + d * (1 - sa)) / outA * 255).rounded())))
        }
        image.pixels[o + 3] = UInt8(max(0, min(255, (outA * 255).rounded())))
    }

    /// A 1-pixel aliased line from a to b (CSS px), lit as GL rasterizes lines: one pixel per
    /// column (or row, for steep lines) whose center the segment crosses, the far end left out.
    mutating func line(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double), _ c: (Double, Double, Double, Double)) {
        let ax = a.x * pixelRatio, ay = a.y * pixelRatio, bx = b.x * pixelRatio, by = b.y * pixelRatio
        guard ax.isFinite, ay.isFinite, bx.isFinite, by.isFinite else { return }
        let dx = bx - ax, dy = by - ay
        let limit = Double(max(image.width, image.height)) * 4
        if abs(dx) >= abs(dy) {
            guard dx != 0 else { return }
            let lo = max(min(ax, bx), -limit), hi = min(max(ax, bx), limit)
            var x = (lo - 0.5).rounded(.up)
            while x + 0.5 < hi {
                let y = ay + (x + 0.5 - ax) / dx * dy
                blend(Int(x), Int(y.rounded(.down)), c)
                x += 1
            }
        } else {
            let lo = max(min(ay, by), -limit), hi = min(max(ay, by), limit)
            var y = (lo - 0.5).rounded(.up)
            while y + 0.5 < hi {
                let x = ax + (y + 0.5 - ay) / dy * dx
                blend(Int(x.rounded(.down)), Int(y), c)
                y += 1
            }
        }
    }

    /// The collision shapes placement tested (`CollisionDebugShape`).
    mutating func collision(_ shapes: [CollisionDebugShape]) {
        for s in shapes {
            if s.isCircle { circle(s) } else {
                var c = s.placed ? DebugOverlay.placedBox : DebugOverlay.collidedBox
                if !s.used { c = (c.0 * 0.1, c.1 * 0.1, c.2 * 0.1, c.3 * 0.1) }
                let corners = [(s.x1, s.y1), (s.x2, s.y1), (s.x2, s.y2), (s.x1, s.y2)]
                for i in 0..<4 { boxEdge((corners[i].0, corners[i].1), (corners[(i + 1) % 4].0, corners[(i + 1) % 4].1), c) }
            }
        }
    }

    /// A line label's circle as the collision_circle shader rings it: opacity falling from 1 on
    /// the radius to 0 at 0.9 CSS px off it, over a quad 1.2 radii across each side.
    mutating func circle(_ s: CollisionDebugShape) {
        let cx = (s.x1 + s.x2) / 2, cy = (s.y1 + s.y2) / 2, r = (s.x2 - s.x1) / 2
        guard cx.isFinite, cy.isFinite, r.isFinite, r > 0, r < Double(max(image.width, image.height)) else { return }
        let stroke = 0.9, half = r * 1.2
        let color = s.placed ? (0.0, 0.0, 1.0, 0.5) : (1.0, 0.0, 0.0, 1.0)
        let x0 = Int(((cx - half) * pixelRatio).rounded(.down)), x1 = Int(((cx + half) * pixelRatio).rounded(.up))
        let y0 = Int(((cy - half) * pixelRatio).rounded(.down)), y1 = Int(((cy + half) * pixelRatio).rounded(.up))
        guard x1 >= 0, y1 >= 0, x0 < image.width, y0 < image.height else { return }
        for py in max(0, y0)...min(image.height - 1, y1) {
            for px in max(0, x0)...min(image.width - 1, x1) {
                let ex = (Double(px) + 0.5) / pixelRatio - cx, ey = (Double(py) + 0.5) / pixelRatio - cy
                guard abs(ex) <= half, abs(ey) <= half else { continue }
                let edge = abs((ex * ex + ey * ey).squareRoot() - r)
                let t = DebugOverlay.smoothstep(-stroke, 0, -edge)
                guard t > 0 else { continue }
                blend(px, py, (color.0 * 0.5, color.1 * 0.5, color.2 * 0.5, color.3 * 0.5), coverage: t)
            }
        }
    }

    static func smoothstep(_ e0: Double, _ e1: Double, _ x: Double) -> Double {
        let t = min(max((x - e0) / (e1 - e0), 0), 1)
        return t * t * (3 - 2 * t)
    }

    /// Each tile's border: its square's edges projected to the screen.
    mutating func tileBorders(_ tiles: [CoveredTile], transform: Transform) {
        let e = Double(TileExtent.extent)
        for tile in tiles {
            let m = transform.tileMatrix(for: tile.id, wrap: tile.wrap).map(Double.init)
            func project(_ x: Double, _ y: Double) -> (x: Double, y: Double)? {
                let cx = m[0] * x + m[4] * y + m[12], cy = m[1] * x + m[5] * y + m[13], w = m[3] * x + m[7] * y + m[15]
                guard w > 1e-6 else { return nil }
                return ((cx / w + 1) / 2 * transform.width, (1 - cy / w) / 2 * transform.height)
            }
            let corners = [(0.0, 0.0), (e, 0), (e, e), (0, e)].map { project($0.0, $0.1) }
            for i in 0..<4 {
                guard let a = corners[i], let b = corners[(i + 1) % 4] else { continue }
                line(a, b, DebugOverlay.border)
            }
        }
    }

    /// The source GL JS draws tile borders for: of the sources the frame's layers use, the vector
    /// one with the highest maxzoom, else any with the highest (`selectDebugSource`).
    static func debugSource(_ names: [String], sources: [String: TileSource]) -> String? {
        let used = names.compactMap { n in sources[n].map { (name: n, info: $0.info) } }
        let vector = used.filter { $0.info.type == .vector }
        let pool = vector.isEmpty ? used : vector
        return pool.reduce(nil as (name: String, info: SourceInfo)?) { best, s in
            guard let b = best else { return s }
            return s.info.maxzoom > b.info.maxzoom ? s : b
        }?.name
    }
}

extension ImageDrawing {
    /// Draws the options' debug shapes on `image` (the whole image): a no-op without them.
    func drawDebug(on image: inout RGBAImage) {
        let debug = checked.options.debug
        guard debug.contains(.tileBorders) || debug.contains(.collision) else { return }
        var overlay = DebugOverlay(image: image, pixelRatio: checked.options.pixelRatio)
        image = RGBAImage(width: 1, height: 1)
        if debug.contains(.tileBorders) {
            let names = style.style.layers.compactMap { $0.isVisible(atZoom: transform.zoom) ? $0.source : nil }
            if let name = DebugOverlay.debugSource(names, sources: style.sources) {
                overlay.tileBorders(builder.fullCovers[name] ?? [], transform: transform)
            }
        }
        if debug.contains(.collision) { overlay.collision(builder.collisionDebugShapes) }
        image = overlay.image
    }
}
