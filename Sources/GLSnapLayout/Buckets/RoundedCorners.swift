import Foundation
import GLSnapData
import GLSnapStyle

/// `fill-extrusion-rounded-corner-distance`: each corner of a feature's rings replaced by a
/// circular arc, as MapLibre GL JS 6 rounds them before it builds walls and roofs.
///
///         tangentA
///     ────●╮           the corner at `current` is cut back by `r` along both edges
///          ╲ arc       (r: the distance, at most a fifth of either edge) and joined by
///           ●          an arc around the circle tangent to both edges, in segments of
///           │ tangentB at most 30 degrees (2 to 8 of them)
///
/// Corners of nearly straight (or folded back) edges stay sharp. GL JS keeps the arc's points
/// fractional and its vertex buffers (Int16) drop the fraction; glsnap drops it here, toward
/// zero as they do. Every corner is rounded, also those where the tile's buffer cut the ring:
/// the part of the feature in the buffer is drawn by both tiles, and both round it alike.
public enum RoundedCorners {
    /// Turns within this angle of straight (or of folded back) keep their corner.
    static let straightCosine = cos(5 * Double.pi / 180)
    /// An arc cuts at most this share of either edge.
    static let maxEdgeShare = 0.2
    /// The most an arc segment spans.
    static let segmentAngle = Double.pi / 6
    /// Arc segments per corner, at least and at most.
    static let segmentRange = 2...8
    /// A distance under half a tile unit rounds nothing.
    static let minimumDistance = 0.5

    /// `rings` (in `TileExtent` units, of a feature in tile `canonical`) with their corners
    /// rounded by `meters`; unchanged when that is under half a tile unit. A ring of n corners
    /// comes back with at most 9n points.
    public static func round(_ rings: [[TilePoint]], meters: Double, canonical: CanonicalTileID) -> [[TilePoint]] {
        guard meters > 0, meters.isFinite, !rings.isEmpty else { return rings }
        let distance = meters * tileUnitsPerMeter(canonical)
        guard distance >= minimumDistance else { return rings }
        return rings.map { roundRing($0, distance: distance) }
    }

    /// Tile units per meter at the tile's center (Mercator's scale there).
    static func tileUnitsPerMeter(_ canonical: CanonicalTileID) -> Double {
        let tiles = exp2(Double(canonical.z))
        let y = (Double(canonical.y) + 0.5) / tiles
        let latitude = atan(sinh(Double.pi * (1 - 2 * y)))
        let earthCircumference = 2 * Double.pi * 6_371_008.8
        let mercatorPerMeter = 1 / (earthCircumference * cos(latitude))
        return mercatorPerMeter * tiles * Double(TileExtent.extent)
    }

    static func roundRing(_ ring: [TilePoint], distance: Double) -> [TilePoint] {
        guard ring.count >= 3 else { return ring }
        let closed = ring.first == ring.last
        let count = closed ? ring.count - 1 : ring.count
        guard count >= 3 else { return ring }
        var out: [TilePoint] = []
        out.reserveCapacity(count * 4)
        for i in 0..<count {
            appendCorner(&out, ring[(i + count - 1) % count], ring[i], ring[(i + 1) % count], distance: distance)
        }
        if closed { out.append(out[0]) }
        return out
    }

    /// The arc that replaces the corner at `current`, or the corner itself.
    static func appendCorner(_ out: inout [TilePoint], _ previous: TilePoint, _ current: TilePoint, _ next: TilePoint,
                             distance: Double) {
        let cx = Double(current.x), cy = Double(current.y)
        var ax = Double(previous.x) - cx, ay = Double(previous.y) - cy
        var bx = Double(next.x) - cx, by = Double(next.y) - cy
        let lengthA = (ax * ax + ay * ay).squareRoot(), lengthB = (bx * bx + by * by).squareRoot()
        guard lengthA >= 1e-6, lengthB >= 1e-6 else { out.append(current); return }
        ax /= lengthA; ay /= lengthA; bx /= lengthB; by /= lengthB
        let dot = ax * bx + ay * by
        guard abs(dot) <= straightCosine else { out.append(current); return }
        let r = min(distance, lengthA * maxEdgeShare, lengthB * maxEdgeShare)
        // The center lies on the bisector, r / cos(half the corner's angle) from the corner; the
        // arc's radius is r tan(half the angle).
        let cosHalf = ((1 + dot) / 2).squareRoot(), tanHalf = ((1 - dot) / (1 + dot)).squareRoot()
        var sx = ax + bx, sy = ay + by
        let sLength = (sx * sx + sy * sy).squareRoot()
        sx /= sLength; sy /= sLength
        let ox = cx + sx * r / cosHalf, oy = cy + sy * r / cosHalf
        let radius = r * tanHalf
        let angleA = atan2(cy + ay * r - oy, cx + ax * r - ox)
        let angleB = atan2(cy + by * r - oy, cx + bx * r - ox)
        // The shorter way around from A to B.
        var sweep = angleB - angleA
        while sweep <= -Double.pi { sweep += 2 * Double.pi }
        while sweep > Double.pi { sweep -= 2 * Double.pi }
        let wanted = Int((abs(sweep) / segmentAngle).rounded(.up))
        let segments = min(segmentRange.upperBound, max(segmentRange.lowerBound, wanted))
        for s in 0...segments {
            let angle = angleA + Double(s) / Double(segments) * sweep
            out.append(TilePoint(x: truncated(ox + radius * cos(angle)), y: truncated(oy + radius * sin(angle))))
        }
    }

    /// What an Int16 vertex buffer keeps of a coordinate: the integer part, toward zero.
    static func truncated(_ v: Double) -> Int32 { Int32(clamping: Int(v.rounded(.towardZero))) }
}
