import XCTest
import GLSnapData
import GLSnapStyle
@testable import GLSnapLayout

/// text-keep-upright for line labels laid flat on a pitched map: decided on the screen.
final class SymbolKeepUprightTests: XCTestCase {
    private func firstAndLastGlyphX(bearing: Double, pitch: Double) throws -> (Float, Float) {
        let json = #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},"#
            + #" "layers": [{"id": "l", "type": "symbol", "source": "s", "layout": {"text-field": "abcd", "symbol-placement": "line","#
            + #" "text-pitch-alignment": "map", "text-allow-overlap": true}}]}"#
        let l = try XCTUnwrap(try Style(bytes: Array(json.utf8)).layers.first)
        let p = FakeSymbolProvider()
        // A west-to-east line through the tile's middle.
        let src = VectorLayer(name: "s", extent: 8192, version: 2, features: [
            VectorFeature(id: nil, geometryType: .lineString, properties: [:],
                          geometry: [[TilePoint(x: 1000, y: 4096), TilePoint(x: 7000, y: 4096)]])
        ])
        let symbols = try XCTUnwrap(SymbolLayout.build(layer: l, from: src, zoom: 0, canonical: TileID(z: 0, x: 0, y: 0)!,
                                                       provider: p, pixelRatio: 1))
        let covered = CoveredTile(id: TileID(z: 0, x: 0, y: 0)!, wrap: 0, overscaledZoom: 0)
        let t = Transform(width: 512, height: 512, center: (0, 0), zoom: 0, bearing: bearing, pitch: pitch)
        let text = SymbolPlacement.place([SymbolLayerInput(layer: l, tiles: [(covered, symbols)])], transform: t, provider: p)[0].text
        let quad = 6 * SymbolDrawData.floatsPerVertex
        XCTAssertGreaterThanOrEqual(text.count, 4 * quad)
        // x of the first and the last glyph's first vertex, in the first label ("abcd": 4 quads).
        return (text[0], text[3 * quad])
    }

    func testFlatLineLabelReadsLeftToRightWhenTheMapIsTurnedAround() throws {
        let north = try firstAndLastGlyphX(bearing: 0, pitch: 40)
        XCTAssertLessThan(north.0, north.1)
        // Turned by 180°, the line runs right to left on the screen: the label is flipped, so
        // that its first glyph stays on the left.
        let south = try firstAndLastGlyphX(bearing: 180, pitch: 40)
        XCTAssertLessThan(south.0, south.1)
    }
}
