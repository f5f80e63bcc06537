import GLSnapGL
import GLSnapLayout
import GLSnapStyle

/// How one shader attribute gets a paint property's value.
struct PaintAttribute {
    enum Kind { case color, number }
    var attribute: String
    /// The paint property's spec name (what its cached values are keyed by).
    var property: String
    var value: PropertyValue
    var kind: Kind
    /// Evaluated at the integer zoom (MapLibre's cross-faded and "floor" properties).
    var integerZoom = false
    /// Multiplies number values (e.g. 1 for most).
    var components: Int { kind == .color ? 4 : 1 }

    init(attribute: String, property: LayerProperty<Color>, integerZoom: Bool = false) {
        self.attribute = attribute
        self.property = property.name
        value = property.value
        kind = .color
        self.integerZoom = integerZoom
    }

    init(attribute: String, property: LayerProperty<Double>, integerZoom: Bool = false) {
        self.attribute = attribute
        self.property = property.name
        value = property.value
        kind = .number
        self.integerZoom = integerZoom
    }
}

/// A paint property evaluated for a draw: one value for all vertices, or one per vertex.
enum PaintBinding {
    case constant([Float])
    case perVertex([Float])
}

enum PaintBinder {
    /// Evaluates `attr` at `zoom`: constant when the property does not depend on the
    /// feature, else per vertex through the geometry's feature spans.
    /// `states` are the feature states of the layer's source layer (nil when it has none).
    static func bind(_ attr: PaintAttribute, geometry: LayerGeometry, zoom: Double,
                     states: (states: [String: [String: JSON]], promoteId: String?)? = nil) -> PaintBinding {
        let value = attr.value
        if value.isFeatureConstant {
            return .constant(components(value, attr.kind, EvaluationContext(zoom: zoom)))
        }
        var out = [Float](repeating: 0, count: geometry.vertexCount * attr.components)
        var ctx = EvaluationContext(zoom: zoom)
        ctx.canonicalID = geometry.canonical
        ctx.geometryExtent = Double(geometry.extent)
        for span in geometry.spans {
            let feature = geometry.features[Int(span.feature)]
            ctx.feature = feature
            if let states { ctx.featureState = FeatureStates.state(of: feature, in: states.states, promoteId: states.promoteId) }
            let v = components(value, attr.kind, ctx)
            let start = Int(span.vertexStart) * attr.components
            let end = start + Int(span.vertexCount) * attr.components
            var i = start
            while i < end {
                for c in 0..<attr.components { out[i + c] = v[c] }
                i += attr.components
            }
        }
        return .perVertex(out)
    }

    static func components(_ value: PropertyValue, _ kind: PaintAttribute.Kind, _ ctx: EvaluationContext) -> [Float] {
        switch kind {
        case .color:
            let c = value.evaluateColor(ctx)
            return [Float(c.r), Float(c.g), Float(c.b), Float(c.a)]
        case .number:
            return [Float(value.evaluateNumber(ctx))]
        }
    }
}
