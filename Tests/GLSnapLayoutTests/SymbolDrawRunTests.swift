import XCTest
import GLSnapData
import GLSnapStyle
@testable import GLSnapLayout

/// A symbol layer's text is drawn in runs, each run's halos before its fills, as GL JS draws
/// it: tile by tile, or sort-key segment by segment; with symbol-z-order viewport-y each tile's
/// labels are drawn by their row (GL JS's sortFeatures), not across tiles.
final class SymbolDrawRunTests: XCTestCase {
    private let quad = 6 * SymbolDrawData.floatsPerVertex

    /// One-glyph labels ("a", "b", ...) at `points` (x, y in tile units, one feature each) in
    /// tiles 1/0/0 and 1/1/0 of a 1024 × 512 view at zoom 1, `layout` added.
    private func draw(_ layout: String, left: [(Int32, Int32, Double)], right: [(Int32, Int32, Double)]) throws -> SymbolDrawData {
        let json = #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},"#
            + #" "layers": [{"id": "l", "type": "symbol", "source": "s", "layout": {"text-field": "{t}", "text-allow-overlap": true, "#
            + layout + "}}]}"
        let l = try XCTUnwrap(try Style(bytes: Array(json.utf8)).layers.first)
        let p = FakeSymbolProvider()
        func tile(_ x: Int, _ points: [(Int32, Int32, Double)]) throws -> (CoveredTile, SymbolTile) {
            let id = TileID(z: 1, x: x, y: 0)!
            let src = VectorLayer(name: "s", extent: 8192, version: 2, features: points.map {
                VectorFeature(id: nil, geometryType: .point, properties: ["t": .string("a"), "k": .number($0.2)],
                              geometry: [[TilePoint(x: $0.0, y: $0.1)]])
            })
            return (CoveredTile(id: id, wrap: 0, overscaledZoom: 1),
                    try XCTUnwrap(SymbolLayout.build(layer: l, from: src, zoom: 1, canonical: id, provider: p, pixelRatio: 1)))
        }
        let t = Transform(width: 1024, height: 512, center: (0, 40), zoom: 1, bearing: 0, pitch: 0)
        return SymbolPlacement.place([SymbolLayerInput(layer: l, tiles: [try tile(0, left), try tile(1, right)])],
                                     transform: t, provider: p)[0]
    }

    /// The screen y of label `n`'s first vertex.
    private func y(_ d: SymbolDrawData, _ n: Int) -> Float { d.text[n * quad + 1] }

    func testEachTileIsARun() throws {
        let d = try draw(#""symbol-z-order": "source""#, left: [(4000, 7000, 0), (5000, 7000, 0)], right: [(4000, 7000, 0)])
        XCTAssertEqual(d.text.count, 3 * quad)
        XCTAssertEqual(d.textRuns, [2 * quad], "the left tile's two labels, then the right tile's")
    }

    func testEachSortKeyIsARunAcrossTiles() throws {
        let d = try draw(#""symbol-sort-key": ["get", "k"]"#, left: [(4000, 7000, 2), (5000, 7000, 0)], right: [(4000, 7000, 1)])
        XCTAssertEqual(d.text.count, 3 * quad)
        // Key 0 (left tile), key 1 (right tile), key 2 (left tile): three runs.
        XCTAssertEqual(d.textRuns, [quad, 2 * quad])
    }

    func testViewportYSortsWithinEachTile() throws {
        // The right tile's label is highest on the screen, yet the left tile is drawn first.
        let d = try draw(#""symbol-z-order": "viewport-y""#, left: [(4000, 7000, 0), (5000, 6000, 0)], right: [(4000, 5000, 0)])
        XCTAssertEqual(d.text.count, 3 * quad)
        XCTAssertLessThan(y(d, 0), y(d, 1), "up the left tile first")
        XCTAssertGreaterThan(y(d, 1), y(d, 2), "then the right tile")
        XCTAssertEqual(d.textRuns, [2 * quad])
    }
}
