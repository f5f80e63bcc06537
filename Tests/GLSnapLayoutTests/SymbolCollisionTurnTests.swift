import XCTest
import GLSnapData
import GLSnapStyle
@testable import GLSnapLayout

/// Point symbols turned by text-rotate or icon-rotate collide as MapLibre's CollisionFeature
/// has them: the box padded, then turned about the anchor (offsets included), its bounding box
/// taken; icon-padding is read per feature.
final class SymbolCollisionTurnTests: XCTestCase {
    /// The placed symbols' collision boxes, relative to the anchor in the middle of a 512² view
    /// of tile 0/0/0, one point feature per entry of `properties`.
    private func boxes(_ layout: String, _ properties: [[String: JSON]] = [[:]]) throws -> [[QueryBox]] {
        let json = #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},"#
            + #" "layers": [{"id": "l", "type": "symbol", "source": "s", "layout": {"# + layout + "}}]}"
        let l = try XCTUnwrap(try Style(bytes: Array(json.utf8)).layers.first)
        let p = FakeSymbolProvider()
        let src = VectorLayer(name: "s", extent: 8192, version: 2, features: properties.map {
            VectorFeature(id: nil, geometryType: .point, properties: $0, geometry: [[TilePoint(x: 4096, y: 4096)]])
        })
        let tile = TileID(z: 0, x: 0, y: 0)!
        let symbols = try XCTUnwrap(SymbolLayout.build(layer: l, from: src, zoom: 0, canonical: tile, provider: p, pixelRatio: 1))
        let t = Transform(width: 512, height: 512, center: (0, 0), zoom: 0, bearing: 0, pitch: 0)
        let placed = SymbolPlacement.place([SymbolLayerInput(layer: l, tiles: [(CoveredTile(id: tile, wrap: 0, overscaledZoom: 0), symbols)])],
                                           transform: t, provider: p)[0].placed
        return placed.map { $0.boxes.map { QueryBox(x1: $0.x1 - 256, y1: $0.y1 - 256, x2: $0.x2 - 256, y2: $0.y2 - 256) } }
    }

    private func assertBox(_ b: QueryBox?, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double,
                           file: StaticString = #filePath, line: UInt = #line) {
        guard let b else { return XCTFail("no box", file: file, line: line) }
        for (got, want) in [(b.x1, x1), (b.y1, y1), (b.x2, x2), (b.y2, y2)] {
            XCTAssertEqual(got, want, accuracy: 1e-4, "\(b)", file: file, line: line)
        }
    }

    func testAnOffsetIconTurnsItsBoxAboutTheAnchor() throws {
        // The 20 × 10 icon 40 px east: x 30...50, y -5...5, padded 2: 28...52, -7...7; a
        // quarter turn clockwise takes it south of the anchor.
        let turned = try boxes(#""icon-image": "i", "icon-rotate": 90, "icon-offset": [40, 0]"#)
        assertBox(turned.first?.first, -7, 28, 7, 52)
        let level = try boxes(#""icon-image": "i", "icon-offset": [40, 0]"#)
        assertBox(level.first?.first, 28, -7, 52, 7)
    }

    func testTurnedTextCollidesAsItsBoundingBox() throws {
        // "ab" at 16 px: 24 × 28.8 units, 16 × 19.2 px, padded 2: 20 × 23.2; turned 45°, its
        // bounding box is (20 + 23.2) / √2 a side.
        let turned = try boxes(#""text-field": "ab", "text-rotate": 45"#)
        let side = (20 + 23.2) / 2.0.squareRoot()
        assertBox(turned.first?.first, -side / 2, -side / 2, side / 2, side / 2)
    }

    func testIconPaddingIsReadPerFeature() throws {
        let placed = try boxes(#""icon-image": "i", "icon-allow-overlap": true, "icon-padding": ["coalesce", ["get", "p"], ["literal", [2]]]"#,
                               [[:], ["p": .number(10)], ["p": .array([.number(0), .number(5)])]])
        let widths = placed.compactMap { $0.first.map { $0.x2 - $0.x1 } }.sorted()
        let heights = placed.compactMap { $0.first.map { $0.y2 - $0.y1 } }.sorted()
        XCTAssertEqual(widths, [24, 30, 40])
        XCTAssertEqual(heights, [10, 14, 30])
    }
}
