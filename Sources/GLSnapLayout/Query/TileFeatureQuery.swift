import Foundation
import GLSnapData
import GLSnapStyle

/// One tile's view of a query: the query in the tile's units and how pixels map to them.
public struct TileQuery {
    public var tile: CoveredTile
    /// The query (one point, or a closed ring) on the ground, in tile units.
    public var geometry: [QueryPoint]
    /// The query widened toward the camera (for extrusions), in tile units.
    public var cameraGeometry: [QueryPoint]
    /// Tile units per CSS pixel at the view's zoom.
    public var pixelsToTileUnits: Double
    /// The view's bearing in degrees (viewport-anchored translations turn with it).
    public var bearing: Double
    public var projection: TileScreenProjection

    public init(transform t: Transform, tile: CoveredTile, screen: [QueryPoint]) {
        self.tile = tile
        geometry = t.tilePoints(screen, tile: tile)
        cameraGeometry = t.tilePoints(t.cameraQueryGeometry(screen), tile: tile)
        // The tile's own zoom: an overscaled tile still spans its canonical tile's units.
        pixelsToTileUnits = t.pixelsToTileUnits(tile.id, 1)
        bearing = t.bearing
        projection = TileScreenProjection(transform: t, tile: tile)
    }
}

/// A feature a layer drew under the query: its index in the tile's source layer and, for
/// extrusions, the depth at which the query meets it (smaller is nearer).
public struct TileFeatureHit: Sendable {
    public var index: Int
    public var depth: Double?
}

/// What one style layer drew in one tile under a query, with MapLibre's semantics per layer type
/// (circle radius and stroke, pitch scale and alignment; line width, gap and offset; fill and
/// extrusion translate; extrusion walls and roofs). Paint is evaluated at the view's zoom with
/// each feature's state; the layer filter at the tile's zoom.
public enum TileFeatureQuery {
    /// The indices of the features the layer draws in `source`, in drawing order (by sort key
    /// when the layer has one), as its bucket holds them.
    public static func drawnFeatures(layer: StyleLayer, in source: VectorLayer, tile: CoveredTile) -> [Int] {
        var ctx = BucketBuilder.tileContext(zoom: Double(tile.overscaledZoom), canonical: tile.id, extent: source.extent)
        let features = source.features
        var kept: [Int] = []
        for i in features.indices {
            if let filter = layer.filter {
                let f = features[i]
                if let legacy = filter.evaluateWithoutContext(type: f.geometryType, id: { f.id }, property: { f.properties[$0] }) {
                    if !legacy { continue }
                } else {
                    ctx.feature = f
                    if !filter.evaluate(ctx) { continue }
                }
            }
            kept.append(i)
        }
        if let sortKey = layer.typed.sortKey, sortKey.isSet {
            let keys = kept.map { i -> Double in ctx.feature = features[i]; return sortKey.evaluate(ctx) }
            kept = kept.indices.sorted { keys[$0] < keys[$1] || (keys[$0] == keys[$1] && $0 < $1) }.map { kept[$0] }
        }
        return kept
    }

    /// Whether the layer type answers rendered-feature queries for tile features (symbols answer
    /// through their placed boxes instead).
    public static func isQueryable(_ type: LayerType) -> Bool {
        switch type {
        case .circle, .heatmap, .line, .fill, .fillExtrusion: return true
        case .symbol, .background, .raster, .hillshade, .colorRelief: return false
        }
    }

    /// How far (CSS pixels) beyond its geometry the layer draws a feature: MapLibre's queryRadius,
    /// the largest over `features` where a value depends on the feature.
    public static func queryRadius(layer: StyleLayer, features: [VectorFeature], zoom: Double,
                                   state: (VectorFeature) -> [String: JSON]) -> Double {
        func maximum(_ value: LayerProperty<Double>) -> Double {
            if value.isFeatureConstant { return abs(value.evaluate(EvaluationContext(zoom: zoom))) }
            var ctx = EvaluationContext(zoom: zoom)
            var m = 0.0
            for f in features {
                ctx.feature = f
                ctx.featureState = state(f)
                m = max(m, abs(value.evaluate(ctx)))
            }
            return m
        }
        func translate(_ value: LayerProperty<[Double]>) -> Double {
            let v = value.evaluate(EvaluationContext(zoom: zoom))
            return v.count == 2 ? (v[0] * v[0] + v[1] * v[1]).squareRoot() : 0
        }
        switch layer.typed {
        case .circle(let circle): return maximum(circle.radius) + maximum(circle.strokeWidth) + translate(circle.translate)
        case .line(let line):
            let width = lineWidth(maximum(line.width), gap: maximum(line.gapWidth))
            return width / 2 + maximum(line.offset) + translate(line.translate)
        case .heatmap(let heatmap): return maximum(heatmap.radius)
        case .fill(let fill): return translate(fill.translate)
        case .fillExtrusion(let extrusion): return translate(extrusion.translate)
        case .symbol, .background, .raster, .hillshade, .colorRelief: return 0
        }
    }

    /// The line's drawn width: with a gap, two lines of `width` around it.
    static func lineWidth(_ width: Double, gap: Double) -> Double { gap > 0 ? gap + 2 * width : width }

    /// The query moved against the layer's translation, in tile units (MapLibre's translate).
    static func translated(_ query: [QueryPoint], translate: LayerProperty<[Double]>, anchor: LayerProperty<TranslateAnchor>,
                           zoom: Double, _ q: TileQuery) -> [QueryPoint] {
        let ctx = EvaluationContext(zoom: zoom)
        let v = translate.evaluate(ctx)
        guard v.count == 2, v[0] != 0 || v[1] != 0 else { return query }
        var dx = v[0] * q.pixelsToTileUnits, dy = v[1] * q.pixelsToTileUnits
        if anchor.evaluate(ctx) == .viewport {
            // Turned from the screen into the map (y down): by the bearing.
            let a = q.bearing * .pi / 180
            (dx, dy) = (dx * cos(a) - dy * sin(a), dx * sin(a) + dy * cos(a))
        }
        return query.map { QueryPoint($0.x - dx, $0.y - dy) }
    }

    /// The feature's geometry in tile units (`TileExtent.extent`), as the buckets load it.
    public static func tileGeometry(_ feature: VectorFeature, extent: Int) -> [[QueryPoint]] {
        TileExtent.scale(feature.geometry, fromExtent: extent).map { ring in ring.map { QueryPoint(Double($0.x), Double($0.y)) } }
    }

    /// Whether the layer drew `feature` under the query; for extrusions the depth of the hit.
    /// nil: not hit.
    public static func hit(layer: StyleLayer, feature: VectorFeature, geometry: [[QueryPoint]], state: [String: JSON],
                           zoom: Double, query q: TileQuery) -> Double?? {
        var ctx = EvaluationContext(zoom: zoom, feature: feature)
        ctx.featureState = state
        switch layer.typed {
        case .circle(let circle):
            let query = translated(q.geometry, translate: circle.translate, anchor: circle.translateAnchor, zoom: zoom, q)
            let size = circle.radius.evaluate(ctx) + circle.strokeWidth.evaluate(ctx)
            let alignMap = circle.pitchAlignment.evaluate(ctx) == .map
            let scaleMap = circle.pitchScale.evaluate(ctx) == .map
            let screenQuery = alignMap ? query : query.map { q.projection.project($0).point }
            for ring in geometry {
                for p in ring {
                    let projected = q.projection.project(p)
                    var radius = alignMap ? size * q.pixelsToTileUnits : size
                    if !scaleMap && alignMap { radius *= projected.w / q.projection.cameraToCenterDistance }
                    if scaleMap && !alignMap { radius *= q.projection.cameraToCenterDistance / projected.w }
                    if QueryIntersection.queryHitsCircle(screenQuery, center: alignMap ? p : projected.point, radius: radius) {
                        return .some(nil)
                    }
                }
            }
            return nil
        case .heatmap(let heatmap):
            // A circle of heatmap-radius in the map plane, as MapLibre tests it.
            let radius = heatmap.radius.evaluate(ctx) * q.pixelsToTileUnits
            for ring in geometry {
                for p in ring where QueryIntersection.queryHitsCircle(q.geometry, center: p, radius: radius) { return .some(nil) }
            }
            return nil
        case .line(let line):
            let query = translated(q.geometry, translate: line.translate, anchor: line.translateAnchor, zoom: zoom, q)
            let halfWidth = q.pixelsToTileUnits / 2 * lineWidth(line.width.evaluate(ctx), gap: line.gapWidth.evaluate(ctx))
            let offset = line.offset.evaluate(ctx)
            let lines = offset != 0 ? offsetLines(geometry, by: offset * q.pixelsToTileUnits) : geometry
            return QueryIntersection.queryHitsLines(query, lines: lines, halfWidth: halfWidth) ? .some(nil) : nil
        case .fill(let fill):
            let query = translated(q.geometry, translate: fill.translate, anchor: fill.translateAnchor, zoom: zoom, q)
            return QueryIntersection.queryHitsPolygon(query, rings: geometry) ? .some(nil) : nil
        case .fillExtrusion(let extrusion):
            let query = translated(q.geometry, translate: extrusion.translate, anchor: extrusion.translateAnchor, zoom: zoom, q)
            let height = extrusion.height.evaluate(ctx), base = extrusion.base.evaluate(ctx)
            return extrusionDepth(query.map { q.projection.project($0).point }, geometry: geometry, base: base, height: height,
                                  projection: q.projection).map { .some($0) }
        case .symbol, .background, .raster, .hillshade, .colorRelief:
            return nil
        }
    }

    /// Lines moved sideways by `offset` tile units, each vertex along its corner's bisector
    /// (MapLibre's offsetLine).
    static func offsetLines(_ lines: [[QueryPoint]], by offset: Double) -> [[QueryPoint]] {
        func unitPerp(_ a: QueryPoint, _ b: QueryPoint) -> QueryPoint {
            let dx = b.x - a.x, dy = b.y - a.y, m = (dx * dx + dy * dy).squareRoot()
            return m == 0 ? QueryPoint(0, 0) : QueryPoint(-dy / m, dx / m)
        }
        return lines.map { line in
            line.indices.map { i in
                let b = line[i]
                let ab = i == 0 ? QueryPoint(0, 0) : unitPerp(line[i - 1], b)
                let bc = i == line.count - 1 ? QueryPoint(0, 0) : unitPerp(b, line[i + 1])
                var ex = ab.x + bc.x, ey = ab.y + bc.y
                let m = (ex * ex + ey * ey).squareRoot()
                if m != 0 { ex /= m; ey /= m }
                let cosHalf = ex * bc.x + ey * bc.y
                // The last vertex has no next segment (cosHalf 0): it moves along the last one's normal.
                let k = cosHalf != 0 ? offset / cosHalf : offset
                return QueryPoint(b.x + ex * k, b.y + ey * k)
            }
        }
    }
}
