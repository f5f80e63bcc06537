import XCTest
import GLSnapData
import GLSnapStyle
@testable import GLSnapLayout

/// How far past the view labels are placed: GL JS's 100 px viewport padding, pitched or not.
final class SymbolViewportPaddingTests: XCTestCase {
    private let tile = TileID(z: 0, x: 0, y: 0)!

    /// The labels "ab" at tile points of 0/0/0 that `SymbolPlacement` places, pitched.
    private func placedCount(_ points: [Vec2], transform t: Transform) throws -> Int {
        let json = #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},"#
            + #" "layers": [{"id": "l", "type": "symbol", "source": "s", "layout": {"text-field": "ab"}}]}"#
        let l = try XCTUnwrap(try Style(bytes: Array(json.utf8)).layers.first)
        let p = FakeSymbolProvider()
        let src = VectorLayer(name: "s", extent: 8192, version: 2, features: points.map {
            VectorFeature(id: nil, geometryType: .point, properties: [:], geometry: [[TilePoint(x: Int32($0.x), y: Int32($0.y))]])
        })
        let symbols = try XCTUnwrap(SymbolLayout.build(layer: l, from: src, zoom: 0, canonical: tile, provider: p, pixelRatio: 1))
        let input = SymbolLayerInput(layer: l, tiles: [(CoveredTile(id: tile, wrap: 0, overscaledZoom: 0), symbols)])
        return SymbolPlacement.place([input], transform: t, provider: p)[0].placed.count
    }

    /// The tile point south of the center whose anchor lands `below` px under the view's bottom.
    private func pointBelowTheView(_ below: Double, _ t: Transform) throws -> Vec2 {
        let projector = TileProjector(transform: t, tile: CoveredTile(id: tile, wrap: 0, overscaledZoom: 0), symbols: SymbolTile())
        var y = 4096.0
        while let p = projector.project(Vec2(4096, y)), p.y < t.height + below, y < 8192 { y += 1 }
        return Vec2(4096, y)
    }

    func testAPitchedViewPlacesNothingPastAHundredPixels() throws {
        // Under pitch 45 a label whose anchor lies 150 px under the view (its box some 10 px
        // around it) is left out, as GL JS leaves it out; 50 px under, it is placed (and so may
        // hide labels reaching into the view). Before, pitched views were padded 200 px.
        let t = Transform(width: 512, height: 512, center: (0, 0), zoom: 1, pitch: 45)
        let center = Vec2(4096, 4096)
        XCTAssertEqual(try placedCount([center, try pointBelowTheView(150, t)], transform: t), 1)
        XCTAssertEqual(try placedCount([center, try pointBelowTheView(50, t)], transform: t), 2)
        XCTAssertEqual(CollisionGrid(width: 512, height: 512).isInside(.box(0, 620, 10, 630)), false)
        XCTAssertEqual(CollisionGrid(width: 512, height: 512).isInside(.box(0, 600, 10, 611)), true)
    }
}
