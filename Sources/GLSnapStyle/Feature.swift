/// The geometry kinds of the vector-tile spec, with its numbering.
public enum GeometryType: UInt8, Sendable {
    case unknown = 0
    case point = 1
    case lineString = 2
    case polygon = 3
}

/// What an expression may read of a feature: its properties, id and geometry type.
///
/// Decoded vector-tile and GeoJSON features conform to this in `GLSnapData`, so the expression
/// engine never depends on how a feature is stored.
public protocol FeatureContext {
    var geometryType: GeometryType { get }
    /// The feature id as a number or string; nil when the feature has none.
    var featureID: JSON? { get }
    func property(_ key: String) -> JSON?
    /// All properties, for `["properties"]`.
    var properties: [String: JSON] { get }
    /// The geometry in tile units (extent `EvaluationContext.geometryExtent`), grouped as the vector-tile
    /// spec groups it (one array per point, line or ring); nil when unknown. For `within` and `distance`;
    /// the default implementation returns nil.
    func tileGeometry() -> [[GeometryPoint]]?
}
