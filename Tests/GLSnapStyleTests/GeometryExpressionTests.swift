import XCTest
@testable import GLSnapStyle

/// A feature with tile geometry, for `within` and `distance`.
struct GeometryFeature: FeatureContext {
    var geometryType: GeometryType
    var featureID: JSON? { nil }
    var properties: [String: JSON] { [:] }
    var points: [[GeometryPoint]]
    func property(_ key: String) -> JSON? { nil }
    func tileGeometry() -> [[GeometryPoint]]? { points }
}

final class GeometryExpressionTests: XCTestCase {
    func compile(_ text: String) throws -> StyleExpression {
        let (e, errors) = StyleExpression.compile(try json(text), propertySpec: nil)
        return try XCTUnwrap(e, "\(errors)")
    }

    func context(_ f: any FeatureContext, z: Int = 0, x: Int = 0, y: Int = 0, extent: Double = 8192) -> EvaluationContext {
        var ctx = EvaluationContext(zoom: Double(z), feature: f)
        ctx.canonicalID = CanonicalTileID(z: z, x: x, y: y)
        ctx.geometryExtent = extent
        return ctx
    }

    /// Tile 0/0/0 with extent 8192: lng 0 is x 4096, lat 0 is y 4096.
    func testWithinPointsAndLines() throws {
        let e = try compile(#"["within", {"type": "Polygon", "coordinates": [[[-10, -10], [10, -10], [10, 10], [-10, 10], [-10, -10]]]}]"#)
        XCTAssertFalse(e.isFeatureConstant)
        let inside = GeometryFeature(geometryType: .point, points: [[GeometryPoint(x: 4096, y: 4096)]])
        let outside = GeometryFeature(geometryType: .point, points: [[GeometryPoint(x: 1000, y: 4096)]])
        XCTAssertEqual(try e.evaluate(context(inside)), .bool(true))
        XCTAssertEqual(try e.evaluate(context(outside)), .bool(false))
        // The same point given in a 4096-extent tile.
        let half = GeometryFeature(geometryType: .point, points: [[GeometryPoint(x: 2048, y: 2048)]])
        XCTAssertEqual(try e.evaluate(context(half, extent: 4096)), .bool(true))
        // A line leaving the polygon.
        let line = GeometryFeature(geometryType: .lineString, points: [[GeometryPoint(x: 4096, y: 4096), GeometryPoint(x: 8000, y: 4096)]])
        XCTAssertEqual(try e.evaluate(context(line)), .bool(false))
        // Polygons, features without geometry and contexts without a tile are never within.
        let poly = GeometryFeature(geometryType: .polygon, points: [[GeometryPoint(x: 4090, y: 4090), GeometryPoint(x: 4100, y: 4090), GeometryPoint(x: 4090, y: 4100)]])
        XCTAssertEqual(try e.evaluate(context(poly)), .bool(false))
        XCTAssertEqual(try e.evaluate(context(TestFeature())), .bool(false))
        XCTAssertEqual(try e.evaluate(EvaluationContext(zoom: 0, feature: inside)), .bool(false))
    }

    func testWithinRejectsNonPolygons() {
        let (e, errors) = StyleExpression.compile(.array([.string("within"), .object(["type": .string("LineString"), "coordinates": .array([])])]), propertySpec: nil)
        XCTAssertNil(e)
        XCTAssertEqual(errors.map(\.message), ["'within' expression requires valid geojson object that contains polygon geometry type."])
    }

    /// At the equator one degree of longitude is the WGS84 equatorial radius × π/180 on the cheap ruler.
    func testDistanceAlongTheEquator() throws {
        let oneDegree = 6378137.0 * Double.pi / 180
        let origin = GeometryFeature(geometryType: .point, points: [[GeometryPoint(x: 4096, y: 4096)]])
        let toPoint = try compile(#"["distance", {"type": "Point", "coordinates": [1, 0]}]"#)
        XCTAssertEqual(try XCTUnwrap(toPoint.evaluate(context(origin)).number), oneDegree, accuracy: 1e-6)
        // To a vertical line at lng 2: two degrees.
        let toLine = try compile(#"["distance", {"type": "LineString", "coordinates": [[2, -1], [2, 1]]}]"#)
        XCTAssertEqual(try XCTUnwrap(toLine.evaluate(context(origin)).number), 2 * oneDegree, accuracy: 1e-6)
        // Inside a polygon: zero.
        let toPolygon = try compile(#"["distance", {"type": "Polygon", "coordinates": [[[-1, -1], [1, -1], [1, 1], [-1, 1], [-1, -1]]]}]"#)
        XCTAssertEqual(try toPolygon.evaluate(context(origin)), .number(0))
        // Without geometry: NaN.
        XCTAssertTrue(try XCTUnwrap(toPoint.evaluate(context(TestFeature())).number).isNaN)
    }

    func testDistanceRejectsNonGeoJSON() {
        let (e, errors) = StyleExpression.compile(.array([.string("distance"), .object(["type": .string("Nope!")])]), propertySpec: nil)
        XCTAssertNil(e)
        XCTAssertEqual(errors.count, 1)
    }
}
