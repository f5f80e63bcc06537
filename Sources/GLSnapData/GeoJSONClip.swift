/// Axis-aligned clipping of tiling features to a strip, and antimeridian wrapping.
///
/// Lines are cut where they leave the strip (one feature may become several lines); polygon
/// rings stay closed along the strip edge. New intersection points get importance 1 so every
/// zoom keeps them.
///
///        k1        k2
///    ----|----------|----   axis 0 clips x, axis 1 clips y
///     out    kept    out
enum GeoJSONClip {
    /// The features' parts inside `[k1, k2] / scale` on `axis`; `minAll`/`maxAll` bound all
    /// features on that axis, for trivial accept and reject.
    /// With `trackMetrics`, each piece of a line records where it starts and ends along the
    /// whole line (geojson-vt's lineMetrics).
    static func clip(_ features: [GeoJSONTileFeature], scale: Double, k1 k1In: Double, k2 k2In: Double,
                     axis: Int, minAll: Double, maxAll: Double, trackMetrics: Bool = false) -> [GeoJSONTileFeature] {
        let k1 = k1In / scale, k2 = k2In / scale
        if minAll >= k1 && maxAll < k2 { return features }
        if maxAll < k1 || minAll >= k2 { return [] }
        var clipped: [GeoJSONTileFeature] = []
        for feature in features {
            let lo = axis == 0 ? feature.minX : feature.minY
            let hi = axis == 0 ? feature.maxX : feature.maxY
            if lo >= k1 && hi < k2 { clipped.append(feature); continue }
            if hi < k1 || lo >= k2 { continue }
            var paths: [GeoJSONPath] = []
            switch feature.type {
            case .point:
                for path in feature.paths { clipPoints(path, k1, k2, axis, into: &paths) }
            case .lineString:
                for path in feature.paths {
                    clipLine(path, k1, k2, axis, polygon: false, trackMetrics: trackMetrics, into: &paths)
                }
            case .polygon:
                for path in feature.paths { clipLine(path, k1, k2, axis, polygon: true, trackMetrics: false, into: &paths) }
            case .unknown:
                continue
            }
            guard !paths.isEmpty else { continue }
            var copy = feature
            copy.paths = paths
            copy.updateBounds()
            clipped.append(copy)
        }
        return clipped
    }

    private static func clipPoints(_ path: GeoJSONPath, _ k1: Double, _ k2: Double, _ axis: Int,
                                   into out: inout [GeoJSONPath]) {
        var coords: [Double] = []
        var i = 0
        let c = path.coords
        while i + 2 < c.count {
            let a = c[i + axis]
            if a >= k1 && a <= k2 { coords.append(c[i]); coords.append(c[i + 1]); coords.append(c[i + 2]) }
            i += 3
        }
        if !coords.isEmpty { out.append(GeoJSONPath(coords: coords, size: path.size, isOuter: path.isOuter, start: path.start, end: path.end)) }
    }

    private static func clipLine(_ path: GeoJSONPath, _ k1: Double, _ k2: Double, _ axis: Int, polygon: Bool,
                                 trackMetrics: Bool, into out: inout [GeoJSONPath]) {
        let c = path.coords
        guard c.count >= 3 else { return }
        var slice: [Double] = []
        var piece = GeoJSONPath(coords: [], size: path.size, isOuter: path.isOuter, start: path.start, end: path.end)
        // Distance along the whole line at the current segment's start (metrics only).
        var length = path.start
        /// Appends the point where the segment meets `k`; returns the fraction of the segment before it.
        @inline(__always) func intersect(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ k: Double) -> Double {
            if axis == 0 {
                let t = (k - ax) / (bx - ax)
                slice.append(k); slice.append(ay + (by - ay) * t); slice.append(1)
                return t
            } else {
                let t = (k - ay) / (by - ay)
                slice.append(ax + (bx - ax) * t); slice.append(k); slice.append(1)
                return t
            }
        }
        var i = 0
        while i + 5 < c.count {
            let ax = c[i], ay = c[i + 1], az = c[i + 2], bx = c[i + 3], by = c[i + 4]
            let a = axis == 0 ? ax : ay, b = axis == 0 ? bx : by
            let segment = trackMetrics ? ((bx - ax) * (bx - ax) + (by - ay) * (by - ay)).squareRoot() : 0
            var exited = false
            var t = 0.0
            if a < k1 {
                if b > k1 { t = intersect(ax, ay, bx, by, k1); piece.start = length + segment * t }  // enters low
            } else if a > k2 {
                if b < k2 { t = intersect(ax, ay, bx, by, k2); piece.start = length + segment * t }  // enters high
            } else {
                slice.append(ax); slice.append(ay); slice.append(az)
            }
            if b < k1 && a >= k1 { t = intersect(ax, ay, bx, by, k1); exited = true }  // leaves low
            if b > k2 && a <= k2 { t = intersect(ax, ay, bx, by, k2); exited = true }  // leaves high
            if !polygon && exited {
                if trackMetrics { piece.end = length + segment * t }
                piece.coords = slice
                out.append(piece)
                slice = []
                piece = GeoJSONPath(coords: [], size: path.size, isOuter: path.isOuter, start: path.start, end: path.end)
            }
            length += segment
            i += 3
        }
        let last = c.count - 3
        let a = axis == 0 ? c[last] : c[last + 1]
        if a >= k1 && a <= k2 { slice.append(c[last]); slice.append(c[last + 1]); slice.append(c[last + 2]) }
        // Close a ring whose clipped end no longer meets its start.
        let end = slice.count - 3
        if polygon && end >= 3 && (slice[end] != slice[0] || slice[end + 1] != slice[1]) {
            slice.append(slice[0]); slice.append(slice[1]); slice.append(slice[2])
        }
        if !slice.isEmpty {
            piece.coords = slice
            out.append(piece)
        }
    }

    /// Copies features that cross the antimeridian (x < 0 or x > 1) to the other side of the
    /// world, so tiles at both edges draw them; `buffer` is in world units.
    static func wrap(_ features: [GeoJSONTileFeature], buffer: Double) -> [GeoJSONTileFeature] {
        let left = clip(features, scale: 1, k1: -1 - buffer, k2: buffer, axis: 0, minAll: -1, maxAll: 2)
        let right = clip(features, scale: 1, k1: 1 - buffer, k2: 2 + buffer, axis: 0, minAll: -1, maxAll: 2)
        guard !left.isEmpty || !right.isEmpty else { return features }
        var merged = shifted(left, by: 1)
        merged += clip(features, scale: 1, k1: -buffer, k2: 1 + buffer, axis: 0, minAll: -1, maxAll: 2)
        merged += shifted(right, by: -1)
        return merged
    }

    private static func shifted(_ features: [GeoJSONTileFeature], by offset: Double) -> [GeoJSONTileFeature] {
        features.map { feature in
            var copy = feature
            for p in copy.paths.indices {
                var i = 0
                while i < copy.paths[p].coords.count { copy.paths[p].coords[i] += offset; i += 3 }
            }
            copy.minX += offset; copy.maxX += offset
            return copy
        }
    }
}
