extension GeoJSONGeometry {
    /// Calls `body` with every position of the geometry.
    func forEachPosition(_ body: (GeoJSONPosition) -> Void) {
        switch self {
        case .point(let p): body(p)
        case .multiPoint(let ps), .lineString(let ps): ps.forEach(body)
        case .multiLineString(let ls), .polygon(let ls): ls.forEach { $0.forEach(body) }
        case .multiPolygon(let polys): polys.forEach { $0.forEach { $0.forEach(body) } }
        case .geometryCollection(let gs): gs.forEach { $0.forEachPosition(body) }
        }
    }
}

extension GeoJSONFeature {
    /// West, south, east, north of a feature list; nil when it has no positions.
    static func bounds(_ features: [GeoJSONFeature]) -> [Double]? {
        var w = Double.infinity, s = Double.infinity, e = -Double.infinity, n = -Double.infinity
        for f in features {
            f.geometry.forEachPosition { p in
                w = min(w, p.lon); e = max(e, p.lon); s = min(s, p.lat); n = max(n, p.lat)
            }
        }
        return w.isFinite ? [w, s, e, n] : nil
    }
}
