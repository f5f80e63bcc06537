import Foundation
import GLSnapData
import GLSnapStyle

/// Turns one source layer of a tile into a style layer's `LayerGeometry`: filter, sort, scale to
/// `TileExtent`, tessellate. Layout properties and filters are evaluated at the tile's zoom
/// (the overscaled zoom when the tile is drawn past its source's maxzoom), as MapLibre does.
public enum BucketBuilder {
    /// Nil for layer types without buckets here and when no feature survives the filter.
    public static func build(layer: StyleLayer, from source: VectorLayer, zoom: Double, canonical: TileID) -> LayerGeometry? {
        // Nothing is over an unlimited budget.
        (try? build(layer: layer, from: source, zoom: zoom, canonical: canonical, budget: .unlimited)) ?? nil
    }

    /// `build` within `budget`: throws `TessellationError` naming the layer when the tile layer
    /// needs more vertices and indices than the budget allows (checked before each feature
    /// against its point count, so a huge feature is refused before it is tessellated, and
    /// after it), or when a polygon runs out of triangulation steps.
    public static func build(layer: StyleLayer, from source: VectorLayer, zoom: Double, canonical: TileID,
                             budget: TessellationBudget) throws -> LayerGeometry? {
        let features = selectFeatures(layer: layer, from: source, zoom: zoom, canonical: canonical)
        guard !features.isEmpty else { return nil }
        var meter = BudgetMeter(layer: layer.id, budget: budget)
        var geometry: LayerGeometry?
        // One exhaustive switch: a new layer type does not compile until it is handled here.
        switch layer.typed {
        case .fill: geometry = try buildFill(features, extent: source.extent, meter: &meter)
        case .line(let line): geometry = try buildLine(line, features, extent: source.extent, zoom: zoom, canonical: canonical, meter: &meter)
        case .circle, .heatmap: geometry = try buildCircle(features, extent: source.extent, meter: &meter)
        case .fillExtrusion(let extrusion):
            let corners = extrusion.roundedCornerDistance.evaluate(EvaluationContext(zoom: zoom))
            geometry = try buildFillExtrusion(features, extent: source.extent, roundedCorners: corners,
                                              canonical: CanonicalTileID(z: canonical.z, x: canonical.x, y: canonical.y), meter: &meter)
        case .background, .symbol, .raster, .hillshade, .colorRelief: geometry = nil
        }
        guard var geometry, !geometry.isEmpty else { return nil }
        geometry.canonical = CanonicalTileID(z: canonical.z, x: canonical.x, y: canonical.y)
        geometry.extent = source.extent
        return geometry
    }

    /// The features the layer's filter keeps, ordered by `<type>-sort-key` when the layer has one.
    static func selectFeatures(layer: StyleLayer, from source: VectorLayer, zoom: Double, canonical: TileID) -> [VectorFeature] {
        var ctx = tileContext(zoom: zoom, canonical: canonical, extent: source.extent)
        var kept: [VectorFeature]
        if let filter = layer.filter {
            // Features are read in place and copied only when kept.
            let features = source.features
            kept = []
            for i in features.indices {
                let pass: Bool
                if let legacy = filter.evaluateWithoutContext(type: features[i].geometryType, id: { features[i].id },
                                                              property: { features[i].properties[$0] }) {
                    pass = legacy
                } else {
                    ctx.feature = features[i]
                    pass = filter.evaluate(ctx)
                }
                if pass { kept.append(features[i]) }
            }
        } else {
            kept = source.features
        }
        if let sortKey = layer.typed.sortKey, sortKey.isSet {
            let keys = kept.map { f -> Double in
                ctx.feature = f
                return sortKey.evaluate(ctx)
            }
            // Stable: equal keys keep the tile's order.
            kept = kept.indices.sorted { keys[$0] < keys[$1] || (keys[$0] == keys[$1] && $0 < $1) }.map { kept[$0] }
        }
        return kept
    }

    /// Line strings fill as the rings they close, as MapLibre fills them.
    static func buildFill(_ features: [VectorFeature], extent: Int, meter: inout BudgetMeter) throws -> LayerGeometry {
        var bucket = FillBucket()
        bucket.triangulationStepsPerVertex = meter.budget.triangulationStepsPerVertex
        var spans: [FeatureSpan] = []
        for (i, f) in features.enumerated() where f.geometryType == .polygon || f.geometryType == .lineString {
            let start = bucket.vertexCount
            // Each ring point is a vertex and ends two outline indices.
            try meter.admit(f, elementsPerPoint: 3)
            bucket.addPolygon(TileExtent.scale(f.geometry, fromExtent: extent))
            try meter.check(bucket.vertexCount + bucket.triangleIndices.count + bucket.lineIndices.count, untriangulated: bucket.untriangulated)
            let n = bucket.vertexCount - start
            if n > 0 { spans.append(FeatureSpan(feature: Int32(i), vertexStart: Int32(start), vertexCount: Int32(n))) }
        }
        return LayerGeometry(streams: [VertexStream(attribute: "a_pos", components: 2, data: .int16(bucket.positions))],
                             indices: [bucket.triangleIndices, bucket.lineIndices],
                             vertexCount: bucket.vertexCount, spans: spans, features: features)
    }

    static func buildLine(_ layer: LineLayer, _ features: [VectorFeature], extent: Int, zoom: Double, canonical: TileID,
                          meter: inout BudgetMeter) throws -> LayerGeometry {
        let gradient = layer.gradient.isSet
        var bucket = LineBucket(overscaling: max(1, pow2(zoom - Double(canonical.z))), tracksProgress: gradient)
        var spans: [FeatureSpan] = []
        let joinValue = layer.join, capValue = layer.cap
        let miterValue = layer.miterLimit, roundValue = layer.roundLimit
        var ctx = tileContext(zoom: zoom, canonical: canonical, extent: extent)
        for (i, f) in features.enumerated() where f.geometryType == .lineString || f.geometryType == .polygon {
            ctx.feature = f
            let join = joinValue.evaluate(ctx), cap = capValue.evaluate(ctx)
            let miter = miterValue.evaluate(ctx), round = roundValue.evaluate(ctx)
            let start = bucket.vertexCount
            let clip = gradient ? lineClip(f) : 0...1
            // Each point is at least two vertices (both sides of the line).
            try meter.admit(f, elementsPerPoint: 2)
            for line in TileExtent.scale(f.geometry, fromExtent: extent) {
                bucket.addLine(line, join: join, cap: cap, miterLimit: miter, roundLimit: round,
                               isPolygonRing: f.geometryType == .polygon, clip: clip)
            }
            try meter.check(bucket.vertexCount + bucket.indices.count)
            let n = bucket.vertexCount - start
            if n > 0 { spans.append(FeatureSpan(feature: Int32(i), vertexStart: Int32(start), vertexCount: Int32(n))) }
        }
        var streams = [VertexStream(attribute: "a_pos_normal", components: 2, data: .int16(bucket.positions)),
                       VertexStream(attribute: "a_data", components: 4, data: .uint8(bucket.data))]
        if gradient {
            streams.append(VertexStream(attribute: "a_lineprogress", components: 1, data: .float(bucket.progress)))
            streams.append(VertexStream(attribute: "a_lineclip", components: 2, data: .float(bucket.clips)))
        }
        var geometry = LayerGeometry(streams: streams, indices: [bucket.indices], vertexCount: bucket.vertexCount, spans: spans, features: features)
        geometry.maxLineLength = bucket.maxLineLength / Double(TileExtent.extent)
        return geometry
    }

    /// The part of its whole line a clipped line feature covers: `mapbox_clip_start` ...
    /// `mapbox_clip_end` from a GeoJSON source with lineMetrics, else all of it.
    static func lineClip(_ f: VectorFeature) -> ClosedRange<Double> {
        guard case .number(let start)? = f.property("mapbox_clip_start"), case .number(let end)? = f.property("mapbox_clip_end"),
              start.isFinite, end.isFinite, start <= end else { return 0...1 }
        let s = min(max(start, 0), 1)
        return s...min(max(end, s), 1)
    }

    static func buildCircle(_ features: [VectorFeature], extent: Int, meter: inout BudgetMeter) throws -> LayerGeometry {
        var bucket = CircleBucket()
        var spans: [FeatureSpan] = []
        for (i, f) in features.enumerated() {
            let start = bucket.vertexCount
            try meter.admit(f, elementsPerPoint: 1)
            for part in f.geometry {
                for p in part { bucket.addPoint(TileExtent.scale(p, fromExtent: extent)) }
            }
            try meter.check(bucket.vertexCount + bucket.indices.count)
            let n = bucket.vertexCount - start
            if n > 0 { spans.append(FeatureSpan(feature: Int32(i), vertexStart: Int32(start), vertexCount: Int32(n))) }
        }
        return LayerGeometry(streams: [VertexStream(attribute: "a_pos", components: 2, data: .int16(bucket.positions))],
                             indices: [bucket.indices], vertexCount: bucket.vertexCount, spans: spans, features: features)
    }

    /// `roundedCorners`: `fill-extrusion-rounded-corner-distance` in meters (0: square corners).
    static func buildFillExtrusion(_ features: [VectorFeature], extent: Int, roundedCorners: Double = 0,
                                   canonical: CanonicalTileID = CanonicalTileID(z: 0, x: 0, y: 0),
                                   meter: inout BudgetMeter) throws -> LayerGeometry {
        var bucket = FillExtrusionBucket()
        bucket.triangulationStepsPerVertex = meter.budget.triangulationStepsPerVertex
        var spans: [FeatureSpan] = []
        for (i, f) in features.enumerated() where f.geometryType == .polygon {
            let start = bucket.vertexCount
            try meter.admit(f, elementsPerPoint: 1)
            var rings = TileExtent.scale(f.geometry, fromExtent: extent)
            if roundedCorners > 0 {
                rings = RoundedCorners.round(rings, meters: roundedCorners, canonical: canonical)
                try meter.admit(rings, elementsPerPoint: 1)
            }
            bucket.addPolygon(rings)
            try meter.check(bucket.vertexCount + bucket.indices.count, untriangulated: bucket.untriangulated)
            let n = bucket.vertexCount - start
            if n > 0 { spans.append(FeatureSpan(feature: Int32(i), vertexStart: Int32(start), vertexCount: Int32(n))) }
        }
        return LayerGeometry(streams: [VertexStream(attribute: "a_pos", components: 2, data: .int16(bucket.positions)),
                                       VertexStream(attribute: "a_normal_ed", components: 4, data: .int16(bucket.normals))],
                             indices: [bucket.indices], vertexCount: bucket.vertexCount, spans: spans, features: features)
    }

    /// An evaluation context that knows the tile, so `within` and `distance` can place features.
    public static func tileContext(zoom: Double, canonical: TileID, extent: Int) -> EvaluationContext {
        var ctx = EvaluationContext(zoom: zoom)
        ctx.canonicalID = CanonicalTileID(z: canonical.z, x: canonical.x, y: canonical.y)
        ctx.geometryExtent = Double(extent)
        ctx.checksScripts = true
        return ctx
    }

    private static func pow2(_ x: Double) -> Double { exp2(x) }
}

/// Keeps one tile layer's tessellation within its budget.
struct BudgetMeter {
    let layer: String
    let budget: TessellationBudget
    /// Vertices and indices after the last feature.
    private(set) var elements = 0

    init(layer: String, budget: TessellationBudget) { self.layer = layer; self.budget = budget }

    /// Refuses a feature that cannot fit before it is tessellated: each point becomes at least
    /// `elementsPerPoint` vertices and indices.
    func admit(_ f: VectorFeature, elementsPerPoint: Int) throws {
        try admit(f.geometry, elementsPerPoint: elementsPerPoint)
    }

    /// `admit` for geometry made from a feature's (rounded corners add points).
    func admit(_ geometry: [[TilePoint]], elementsPerPoint: Int) throws {
        var points = 0
        for part in geometry { points += part.count }
        let (needed, overflow) = points.multipliedReportingOverflow(by: elementsPerPoint)
        if overflow || needed > budget.maxElements - elements {
            throw TessellationError.tooManyElements(layer: layer, elements: overflow ? .max : elements + needed, limit: budget.maxElements)
        }
    }

    /// Records the layer's vertices and indices after a feature.
    mutating func check(_ total: Int, untriangulated: (vertices: Int, steps: Int)? = nil) throws {
        elements = total
        if total > budget.maxElements {
            throw TessellationError.tooManyElements(layer: layer, elements: total, limit: budget.maxElements)
        }
        if let (vertices, steps) = untriangulated {
            throw TessellationError.polygonTooComplex(layer: layer, vertices: vertices, steps: steps)
        }
    }
}
