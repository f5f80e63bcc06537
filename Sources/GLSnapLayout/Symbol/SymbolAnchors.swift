import Foundation

/// Where a label sits on a line: a point, the segment it lies on, and that segment's angle.
struct LineAnchor {
    var point: Vec2
    var angle: Double
    var segment: Int
}

/// Anchor placement along lines and inside polygons, as MapLibre does it.
enum SymbolAnchors {
    /// Anchors every `spacing` tile units along `line` (MapLibre's getAnchors + resample).
    /// `labelLength` and `glyphSize` are in 24 px units, scaled by `boxScale` into tile units.
    static func along(_ line: [Vec2], spacing spacingIn: Double, maxAngle: Double, labelLength shaped: Double,
                      glyphSize: Double, hasText: Bool, boxScale: Double, overscaling: Double, extent: Double) -> [LineAnchor] {
        guard line.count >= 2, spacingIn > 0 else { return [] }
        let angleWindow = hasText ? 3.0 / 5.0 * glyphSize * boxScale : 0
        let labelLength = shaped * boxScale
        let first = line[0]
        let continued = first.x == 0 || first.x == extent || first.y == 0 || first.y == extent
        var spacing = spacingIn
        if spacing - labelLength < spacing / 4 { spacing = labelLength + spacing / 4 }
        let fixedExtra = glyphSize * 2
        let offset = !continued
            ? ((shaped / 2 + fixedExtra) * boxScale * overscaling).truncatingRemainder(dividingBy: spacing)
            : (spacing / 2 * overscaling).truncatingRemainder(dividingBy: spacing)
        return resample(line, offset: offset, spacing: spacing, angleWindow: angleWindow, maxAngle: maxAngle,
                        labelLength: labelLength, continued: continued, atMiddle: false, extent: extent)
    }

    static func resample(_ line: [Vec2], offset: Double, spacing: Double, angleWindow: Double, maxAngle: Double,
                         labelLength: Double, continued: Bool, atMiddle: Bool, extent: Double) -> [LineAnchor] {
        let half = labelLength / 2
        var lineLength = 0.0
        for i in 0..<(line.count - 1) { lineLength += line[i].dist(line[i + 1]) }
        var distance = 0.0, marked = offset - spacing
        var anchors: [LineAnchor] = []
        for i in 0..<(line.count - 1) {
            let a = line[i], b = line[i + 1]
            let seg = a.dist(b)
            let angle = atan2(a.y - b.y, a.x - b.x)
            while marked + spacing < distance + seg {
                marked += spacing
                let t = (marked - distance) / seg
                let x = a.x + (b.x - a.x) * t, y = a.y + (b.y - a.y) * t
                if x >= 0, x < extent, y >= 0, y < extent, marked - half >= 0, marked + half <= lineLength {
                    let anchor = LineAnchor(point: Vec2(x, y).rounded, angle: angle, segment: i)
                    if angleWindow == 0 || checkMaxAngle(line, anchor, labelLength: labelLength, window: angleWindow, maxAngle: maxAngle) {
                        anchors.append(anchor)
                    }
                }
                if anchors.count > 10_000 { return anchors }
            }
            distance += seg
        }
        if !atMiddle && anchors.isEmpty && !continued {
            return resample(line, offset: distance / 2, spacing: spacing, angleWindow: angleWindow, maxAngle: maxAngle,
                            labelLength: labelLength, continued: continued, atMiddle: true, extent: extent)
        }
        return anchors
    }

    /// False when the line bends more than `maxAngle` (radians) within any window of the label.
    static func checkMaxAngle(_ line: [Vec2], _ anchor: LineAnchor, labelLength: Double, window: Double, maxAngle: Double) -> Bool {
        var index = anchor.segment + 1
        var anchorDistance = 0.0
        // Is there enough room before the anchor?
        while anchorDistance > -labelLength / 2 {
            index -= 1
            if index < 0 { return false }
            anchorDistance -= line[index].dist(index == anchor.segment ? anchor.point : line[index + 1])
        }
        anchorDistance += line[index].dist(line[index + 1])
        index += 1
        var recent: [(distance: Double, angleDelta: Double)] = []
        var total = 0.0
        while anchorDistance < labelLength / 2 {
            guard index + 1 < line.count, index >= 1 else { return false }
            let prev = line[index - 1], cur = line[index], next = line[index + 1]
            var delta = atan2(prev.y - cur.y, prev.x - cur.x) - atan2(cur.y - next.y, cur.x - next.x)
            delta = abs((delta + 3 * .pi).truncatingRemainder(dividingBy: 2 * .pi) - .pi)
            recent.append((anchorDistance, delta))
            total += delta
            while let f = recent.first, anchorDistance - f.distance > window {
                total -= f.angleDelta
                recent.removeFirst()
            }
            if total > maxAngle { return false }
            index += 1
            anchorDistance += cur.dist(next)
        }
        return true
    }

    /// The line's midpoint by length (for `line-center`), or nil for a degenerate line.
    static func center(_ line: [Vec2], labelLength: Double, angleWindow: Double, maxAngle: Double) -> LineAnchor? {
        var length = 0.0
        for i in 0..<max(0, line.count - 1) { length += line[i].dist(line[i + 1]) }
        guard length > 0 else { return nil }
        var d = 0.0
        let target = length / 2
        for i in 0..<(line.count - 1) {
            let a = line[i], b = line[i + 1]
            let seg = a.dist(b)
            if d + seg > target && seg > 0 {
                let t = (target - d) / seg
                let anchor = LineAnchor(point: Vec2(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t).rounded,
                                        angle: atan2(a.y - b.y, a.x - b.x), segment: i)
                if angleWindow > 0 && !checkMaxAngle(line, anchor, labelLength: labelLength, window: angleWindow, maxAngle: maxAngle) { return nil }
                return anchor
            }
            d += seg
        }
        return nil
    }

    /// MapLibre's bboxifyLabel: circles of diameter `boxSize` every half diameter along the line
    /// around the anchor, covering the label plus padding for pitched views. All in tile units.
    static func collisionCircles(_ line: [Vec2], anchor: Vec2, segment: Int, labelLength: Double, boxSize: Double,
                                 overscaling: Double, into out: inout [LineCircle]) {
        guard boxSize > 0, segment >= 0, segment + 1 < line.count else { return }
        let step = boxSize / 2
        let nBoxes = max(Int(min((labelLength / step).rounded(.down), 10_000)), 1)
        let pitchPadding = Int((Double(nBoxes) * (1 + 0.4 * log2(overscaling)) / 2).rounded(.down))
        let firstBoxOffset = -boxSize / 2
        var p = anchor
        var index = segment + 1
        var anchorDistance = firstBoxOffset
        let labelStart = -labelLength / 2
        let paddingStart = labelStart - labelLength / 8
        // Back along the line to the first segment the label (with padding) lies on.
        repeat {
            if index == 0 {
                if anchorDistance > labelStart { return }
                break
            }
            index -= 1
            anchorDistance -= line[index].dist(p)
            p = line[index]
        } while anchorDistance > paddingStart
        var segmentLength = line[index].dist(line[index + 1])
        for i in -pitchPadding..<(nBoxes + pitchPadding) {
            let boxOffset = Double(i) * step
            var distance = labelStart + boxOffset
            if boxOffset < 0 { distance += boxOffset }
            if boxOffset > labelLength { distance += boxOffset - labelLength }
            if distance < anchorDistance { continue }
            while anchorDistance + segmentLength < distance {
                anchorDistance += segmentLength
                index += 1
                if index + 1 >= line.count { return }
                segmentLength = line[index].dist(line[index + 1])
            }
            let along = distance - anchorDistance
            let p0 = line[index], p1 = line[index + 1]
            let t = segmentLength > 0 ? along / segmentLength : 0
            let center = Vec2(p0.x + t * (p1.x - p0.x), p0.y + t * (p1.y - p0.y))
            let padded = abs(distance - firstBoxOffset) < step ? 0 : (distance - firstBoxOffset) * 0.8
            out.append(LineCircle(center: center, distance: padded))
        }
    }

    /// The pole of inaccessibility of a polygon (outer ring first), to `precision` tile units.
    static func poleOfInaccessibility(_ polygon: [[Vec2]], precision: Double = 16) -> Vec2 {
        guard let outer = polygon.first, let p0 = outer.first else { return Vec2(0, 0) }
        var minX = p0.x, minY = p0.y, maxX = p0.x, maxY = p0.y
        for p in outer { minX = min(minX, p.x); minY = min(minY, p.y); maxX = max(maxX, p.x); maxY = max(maxY, p.y) }
        let width = maxX - minX, height = maxY - minY
        let cellSize = min(width, height)
        var h = cellSize / 2
        guard cellSize > 0 else { return Vec2(minX, minY) }
        struct Cell { var c: Vec2; var h: Double; var d: Double; var max: Double }
        func make(_ c: Vec2, _ h: Double) -> Cell {
            let d = signedDistance(c, polygon)
            return Cell(c: c, h: h, d: d, max: d + h * 2.0.squareRoot())
        }
        var queue: [Cell] = []
        var x = minX
        while x < maxX {
            var y = minY
            while y < maxY { queue.append(make(Vec2(x + h, y + h), h)); y += cellSize }
            x += cellSize
        }
        var best = make(centroid(outer), 0)
        var iterations = 0
        while !queue.isEmpty && iterations < 10_000 {
            iterations += 1
            var bi = 0
            for i in queue.indices where queue[i].max > queue[bi].max { bi = i }
            queue.swapAt(bi, queue.count - 1)
            let cell = queue.removeLast()
            if cell.d > best.d { best = cell }
            if cell.max - best.d <= precision { continue }
            h = cell.h / 2
            queue.append(make(Vec2(cell.c.x - h, cell.c.y - h), h))
            queue.append(make(Vec2(cell.c.x + h, cell.c.y - h), h))
            queue.append(make(Vec2(cell.c.x - h, cell.c.y + h), h))
            queue.append(make(Vec2(cell.c.x + h, cell.c.y + h), h))
        }
        return best.c
    }

    private static func centroid(_ ring: [Vec2]) -> Vec2 {
        var area = 0.0, x = 0.0, y = 0.0
        var j = ring.count - 1
        for i in ring.indices {
            let a = ring[i], b = ring[j]
            let f = a.x * b.y - b.x * a.y
            x += (a.x + b.x) * f; y += (a.y + b.y) * f; area += f * 3
            j = i
        }
        return area == 0 ? ring[0] : Vec2(x / area, y / area)
    }

    private static func signedDistance(_ p: Vec2, _ polygon: [[Vec2]]) -> Double {
        var inside = false
        var minDistSq = Double.infinity
        for ring in polygon where ring.count > 1 {
            var j = ring.count - 1
            for i in ring.indices {
                let a = ring[i], b = ring[j]
                if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
                minDistSq = min(minDistSq, segmentDistSq(p, a, b))
                j = i
            }
        }
        return (inside ? 1 : -1) * minDistSq.squareRoot()
    }

    private static func segmentDistSq(_ p: Vec2, _ a: Vec2, _ b: Vec2) -> Double {
        var x = a.x, y = a.y
        var dx = b.x - x, dy = b.y - y
        if dx != 0 || dy != 0 {
            let t = ((p.x - x) * dx + (p.y - y) * dy) / (dx * dx + dy * dy)
            if t > 1 { x = b.x; y = b.y } else if t > 0 { x += dx * t; y += dy * t }
        }
        dx = p.x - x; dy = p.y - y
        return dx * dx + dy * dy
    }
}
