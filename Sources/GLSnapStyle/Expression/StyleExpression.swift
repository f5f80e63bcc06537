import Foundation

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

    /// A feature described as GeoJSON-like JSON (`properties`, `id`, `geometry`), for test inputs. With a
    /// `canonicalID`, the longitude/latitude coordinates become tile geometry (extent 8192, rounded to
    /// whole units) for `within` and `distance`.
    public static func feature(fromJSON j: JSON, canonicalID: CanonicalTileID? = nil) -> any FeatureContext {
        var f = JSONFeature()
        if let c = canonicalID, let g = j["geometry"] { f.geometry = tileGeometry(g, c) }
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

    /// GeoJSON coordinates as tile points of `c`, grouped as a vector tile groups them; multi-polygons
    /// become the list of all their rings.
    static func tileGeometry(_ g: JSON, _ c: CanonicalTileID) -> [[GeometryPoint]]? {
        guard let t = g["type"]?.stringValue, let coords = g["coordinates"] else { return nil }
        func point(_ p: SIMD2<Double>) -> GeometryPoint {
            let tiles = pow(2, Double(c.z))
            return GeometryPoint(x: TileGeo.jsRound((TileGeo.mercatorX(p.x) * tiles - Double(c.x)) * TileGeo.extent),
                                 y: TileGeo.jsRound((TileGeo.mercatorY(p.y) * tiles - Double(c.y)) * TileGeo.extent))
        }
        typealias G = GeoJSONCoordinates
        switch t {
        case "Point": return G.position(coords).map { [[point($0)]] }
        case "MultiPoint": return G.line(coords).map { $0.map { [point($0)] } }
        case "LineString": return G.line(coords).map { [$0.map(point)] }
        case "MultiLineString", "Polygon": return G.polygon(coords).map { $0.map { $0.map(point) } }
        case "MultiPolygon": return G.multi(coords, G.polygon).map { $0.flatMap { $0.map { $0.map(point) } } }
        default: return nil
        }
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
    var geometry: [[GeometryPoint]]?
    func property(_ key: String) -> JSON? { properties[key] }
    func tileGeometry() -> [[GeometryPoint]]? { geometry }
}
