import XCTest
import GLSnapData
import GLSnapStyle
@testable import GLSnapLayout

/// The order tiles are placed in: GL JS's, column by column (x, then y), deeper zoom first.
final class SymbolTileOrderTests: XCTestCase {
    private func covered(_ z: Int, _ x: Int, _ y: Int, wrap: Int = 0, overscaled: Int? = nil) throws -> CoveredTile {
        CoveredTile(id: try XCTUnwrap(TileID(z: z, x: x, y: y)), wrap: wrap, overscaledZoom: overscaled ?? z)
    }

    func testTilesArePlacedColumnByColumnDeeperZoomFirst() throws {
        let tiles = [try covered(2, 1, 0), try covered(2, 0, 1), try covered(1, 0, 0), try covered(2, 0, 0),
                     try covered(2, 1, 1), try covered(2, 0, 0, wrap: -1), try covered(2, 3, 3, overscaled: 3)]
        let order = SymbolPlacement.sortedTiles(tiles.map { ($0, SymbolTile()) }).map(\.tile)
        XCTAssertEqual(order, [try covered(2, 3, 3, overscaled: 3), try covered(2, 0, 0, wrap: -1), try covered(2, 0, 0),
                               try covered(2, 0, 1), try covered(2, 1, 0), try covered(2, 1, 1), try covered(1, 0, 0)])
    }

    func testTheWesternColumnWinsASeamAtAnyRow() throws {
        // Two labels at the corner the z1 tiles share (the view's center): one in the north-east
        // tile, one in the south-west. GL JS places the western column first, so the south-west
        // label stays; MapLibre Native's row order kept the north-east one.
        let p = FakeSymbolProvider()
        let json = #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},"#
            + #" "layers": [{"id": "l", "type": "symbol", "source": "s", "layout": {"text-field": "abcd"}}]}"#
        let l = try XCTUnwrap(try Style(bytes: Array(json.utf8)).layers.first)
        func tile(_ x: Int, _ y: Int, point: (Int32, Int32)) throws -> (CoveredTile, SymbolTile) {
            let id = try XCTUnwrap(TileID(z: 1, x: x, y: y))
            let src = VectorLayer(name: "s", extent: 8192, version: 2, features: [
                VectorFeature(id: nil, geometryType: .point, properties: [:], geometry: [[TilePoint(x: point.0, y: point.1)]]),
            ])
            let symbols = try XCTUnwrap(SymbolLayout.build(layer: l, from: src, zoom: 1, canonical: id, provider: p, pixelRatio: 1))
            return (CoveredTile(id: id, wrap: 0, overscaledZoom: 1), symbols)
        }
        // 16 tile units a pixel at zoom 1 with 512 px tiles: 10 px right and up of the corner,
        // and 10 px left and down of it.
        let northEast = try tile(1, 0, point: (160, 8192 - 160)), southWest = try tile(0, 1, point: (8192 - 160, 160))
        let t = Transform(width: 512, height: 512, center: (0, 0), zoom: 1)
        let text = SymbolPlacement.place([SymbolLayerInput(layer: l, tiles: [northEast, southWest])], transform: t, provider: p)[0].text
        let xs = stride(from: 0, to: text.count, by: SymbolDrawData.floatsPerVertex).map { text[$0] }
        XCTAssertEqual(xs.count, 4 * 6, "one label of four glyphs")
        let center = (try XCTUnwrap(xs.min()) + (try XCTUnwrap(xs.max()))) / 2
        XCTAssertEqual(center, 256 - 10, accuracy: 1, "the south-west label is kept")
    }
}
