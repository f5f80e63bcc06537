import XCTest
import GLSnapData
import GLSnapStyle
@testable import GLSnapLayout

/// text-translate on a pitched view moves the label in the map plane, and the label is sized by
/// its distance there (text-translate-anchor/*), as GL JS's translated matrix sizes it.
final class SymbolTranslateTests: XCTestCase {
    /// The width on the screen of the label "ab" at the tile's middle, translated by `translate`.
    private func labelWidth(translate: String, pitch: Double) throws -> Float {
        let json = #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},"#
            + #" "layers": [{"id": "l", "type": "symbol", "source": "s", "layout": {"text-field": "ab", "text-allow-overlap": true},"#
            + #" "paint": {"text-translate": \#(translate), "text-translate-anchor": "map"}}]}"#
        let l = try XCTUnwrap(try Style(bytes: Array(json.utf8)).layers.first)
        let p = FakeSymbolProvider()
        let src = VectorLayer(name: "s", extent: 8192, version: 2, features: [
            VectorFeature(id: nil, geometryType: .point, properties: [:], geometry: [[TilePoint(x: 4096, y: 4096)]])
        ])
        let tile = TileID(z: 0, x: 0, y: 0)!
        let symbols = try XCTUnwrap(SymbolLayout.build(layer: l, from: src, zoom: 0, canonical: tile, provider: p, pixelRatio: 1))
        let t = Transform(width: 512, height: 512, center: (0, 0), zoom: 1, pitch: pitch)
        let text = SymbolPlacement.place([SymbolLayerInput(layer: l, tiles: [(CoveredTile(id: tile, wrap: 0, overscaledZoom: 0), symbols)])],
                                         transform: t, provider: p)[0].text
        let n = SymbolDrawData.floatsPerVertex
        XCTAssertEqual(text.count, 2 * 6 * n)
        let xs = stride(from: 0, to: text.count, by: n).map { text[$0] }
        return xs.max()! - xs.min()!
    }

    func testTranslatedLabelIsSizedWhereItLands() throws {
        let here = try labelWidth(translate: "[0, 0]", pitch: 60)
        // 150 px north in the map plane: farther from the camera, so smaller.
        let farther = try labelWidth(translate: "[0, -150]", pitch: 60)
        XCTAssertLessThan(farther, here * 0.95)
        // Without pitch the distance is the same everywhere.
        XCTAssertEqual(try labelWidth(translate: "[0, -150]", pitch: 0), try labelWidth(translate: "[0, 0]", pitch: 0), accuracy: 1e-3)
    }
}
