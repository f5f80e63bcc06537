import GLSnapData
import GLSnapStyle

/// Vertex data of one attribute stream.
public enum VertexData: Sendable {
    case int16([Int16])
    case uint8([UInt8])
    case float([Float])

    public var count: Int {
        switch self {
        case .int16(let a): return a.count
        case .uint8(let a): return a.count
        case .float(let a): return a.count
        }
    }
}

/// One attribute stream: the shader attribute it feeds and its components per vertex.
public struct VertexStream: Sendable {
    public var attribute: String
    public var components: Int
    public var data: VertexData
    public init(attribute: String, components: Int, data: VertexData) {
        self.attribute = attribute; self.components = components; self.data = data
    }
}

/// The vertices one feature added, so per-feature paint values can be written next to them.
public struct FeatureSpan: Sendable {
    /// Index into `LayerGeometry.features`.
    public var feature: Int32
    public var vertexStart: Int32
    public var vertexCount: Int32
    public init(feature: Int32, vertexStart: Int32, vertexCount: Int32) {
        self.feature = feature; self.vertexStart = vertexStart; self.vertexCount = vertexCount
    }
}

/// A layer's tessellated geometry in one tile: what a GPU upload needs, plus the features kept by
/// the filter (for data-driven paint). Built once per tile and layout zoom, then cached.
public struct LayerGeometry: Sendable {
    public var streams: [VertexStream]
    /// Index lists by purpose: fill → [triangles, outline line pairs]; line and circle → [triangles].
    public var indices: [[UInt32]]
    public var vertexCount: Int
    public var spans: [FeatureSpan]
    public var features: [VectorFeature]
    /// The tile the geometry was built in and its extent, for paint expressions that place the
    /// feature on the globe (`within`, `distance`); set by `BucketBuilder.build`.
    public var canonical: CanonicalTileID?
    public var extent: Int = 0
    /// Lines with line-gradient: the longest line piece, in tile widths (MapLibre's
    /// maxLineLength / EXTENT), which sizes a step gradient's ramp. 0 for other layers.
    public var maxLineLength: Double = 0

    public init(streams: [VertexStream], indices: [[UInt32]], vertexCount: Int, spans: [FeatureSpan], features: [VectorFeature]) {
        self.streams = streams; self.indices = indices; self.vertexCount = vertexCount
        self.spans = spans; self.features = features
    }

    public var isEmpty: Bool { indices.allSatisfy { $0.isEmpty } }
    /// Vertices plus indices (what `TessellationBudget` counts).
    public var elementCount: Int { indices.reduce(vertexCount) { $0 + $1.count } }
}
