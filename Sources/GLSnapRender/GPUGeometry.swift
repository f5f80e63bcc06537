import GLSnapGL
import GLSnapLayout

/// A tile layer's geometry, boxed so GPU uploads can be cached by identity and shared by snapshots.
public final class GeometryBox: @unchecked Sendable {
    public let geometry: LayerGeometry
    public init(_ geometry: LayerGeometry) { self.geometry = geometry }
}

/// `LayerGeometry` uploaded to one context, plus the per-vertex paint buffers last computed for it.
final class GPUGeometry {
    let streams: [String: (buffer: VertexBuffer, components: Int, type: AttributeType, normalized: Bool)]
    let indices: [(buffer: IndexBuffer, count: Int)]
    /// Per-vertex paint buffers by attribute, each with what it was computed for.
    var paint: [String: (key: PaintKey, buffer: VertexBuffer)] = [:]
    var lastUsedFrame = 0

    init(context: GLContext, geometry: LayerGeometry) {
        var s: [String: (VertexBuffer, Int, AttributeType, Bool)] = [:]
        for stream in geometry.streams {
            switch stream.data {
            case .int16(let a):
                s[stream.attribute] = (VertexBuffer(context: context, data: a), stream.components, .int16, false)
            case .uint8(let a):
                s[stream.attribute] = (VertexBuffer(context: context, data: a), stream.components, .uint8, false)
            case .float(let a):
                s[stream.attribute] = (VertexBuffer(context: context, data: a), stream.components, .float, false)
            }
        }
        streams = s.mapValues { (buffer: $0.0, components: $0.1, type: $0.2, normalized: $0.3) }
        indices = geometry.indices.map { (IndexBuffer(context: context, indices: $0), $0.count) }
    }
}

/// What per-vertex paint values were computed for: the layer (by style generation and id) and zoom.
struct PaintKey: Equatable {
    var layer: String
    var property: String
    var generation: Int
    var zoom: Double
    /// Floats per vertex.
    var components: Int
    /// `FeatureStates.generation` for properties that read `feature-state`, else 0.
    var stateGeneration = 0
}
