/// A standalone compiled expression, for tools and conformance suites that evaluate expressions
/// outside a style (the style itself uses `PropertyValue` and `Filter`).
public struct StyleExpression: @unchecked Sendable {
    let root: Expr
    let info: PropertyTypeInfo?

    /// The result type as the expression language prints it (`number`, `array<string, 2>`, ...).
    public var typeName: String { root.type.description }
    public var isFeatureConstant: Bool { ExprAnalysis.isFeatureConstant(root) }
    public var isZoomConstant: Bool { ExprAnalysis.isGlobalConstant(root, ["zoom"]) }

    /// Compiles `json`. With a `propertySpec` (the spec's property object), the property-level rules
    /// apply (expected type, data/zoom support, top-level zoom curves). Returns the errors on failure.
    public static func compile(_ json: JSON, propertySpec: JSON?) -> (StyleExpression?, [ExpressionError]) {
        let info = propertySpec.map { PropertyTypeInfo(json: $0) } ?? PropertyTypeInfo.unconstrained
        var expr = json
        if case .object(let o) = json { expr = LegacyFunction.convert(o, info) }
        let (root, errors) = PropertyCompiler.compileExpression(expr, info)
        return (root.map { StyleExpression(root: $0, info: info) }, errors)
    }

    /// Evaluates without falling back to defaults; a runtime error throws `ExpressionEvaluationError`.
    public func evaluate(_ ctx: EvaluationContext) throws -> Value {
        do { return try root.evaluate(ctx) } catch let e as RuntimeError {
            throw ExpressionEvaluationError(message: e.message)
        }
    }

    /// A feature described as GeoJSON-like JSON (`properties`, `id`, `geometry.type`), for test inputs.
    public static func feature(fromJSON j: JSON) -> any FeatureContext {
        var f = JSONFeature()
        f.properties = j["properties"]?.objectValue ?? [:]
        f.featureID = j["id"]
        if let t = j["geometry"]?["type"]?.stringValue {
            f.geometryTypeName = t
            switch t {
            case "Point", "MultiPoint": f.geometryType = .point
            case "LineString", "MultiLineString": f.geometryType = .lineString
            case "Polygon", "MultiPolygon": f.geometryType = .polygon
            default: f.geometryType = .unknown
            }
        }
        return f
    }
}

/// A runtime failure of an expression, with MapLibre's message.
public struct ExpressionEvaluationError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

struct JSONFeature: FeatureContext, GeometryTypeNaming {
    var geometryType: GeometryType = .unknown
    var geometryTypeName: String = "Unknown"
    var featureID: JSON?
    var properties: [String: JSON] = [:]
    func property(_ key: String) -> JSON? { properties[key] }
}
