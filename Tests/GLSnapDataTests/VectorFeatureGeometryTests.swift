import XCTest
import GLSnapData
import GLSnapStyle

final class VectorFeatureGeometryTests: XCTestCase {
    /// `within` sees a decoded feature's geometry in its layer's extent.
    func testWithinUsesVectorFeatureGeometry() throws {
        let (e, errors) = StyleExpression.compile(try JSON.parse(
            #"["within", {"type": "Polygon", "coordinates": [[[-10, -10], [10, -10], [10, 10], [-10, 10], [-10, -10]]]}]"#),
            propertySpec: nil)
        let expr = try XCTUnwrap(e, "\(errors)")
        let feature = VectorFeature(id: nil, geometryType: .point, properties: [:], geometry: [[TilePoint(x: 2048, y: 2048)]])
        XCTAssertEqual(feature.tileGeometry(), [[GeometryPoint(x: 2048, y: 2048)]])
        var ctx = EvaluationContext(zoom: 0, feature: feature)
        ctx.canonicalID = CanonicalTileID(z: 0, x: 0, y: 0)
        ctx.geometryExtent = 4096
        XCTAssertEqual(try expr.evaluate(ctx), .bool(true))
        ctx.feature = VectorFeature(id: nil, geometryType: .point, properties: [:], geometry: [[TilePoint(x: 100, y: 2048)]])
        XCTAssertEqual(try expr.evaluate(ctx), .bool(false))
    }
}
