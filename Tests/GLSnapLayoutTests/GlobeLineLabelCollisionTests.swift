import XCTest
import GLSnapData
import GLSnapStyle
@testable import GLSnapLayout

/// Line labels placed on the globe as GL JS places them: the sphere has one copy of each tile
/// (a world copy lands where the original does), and the label's collision circles are its own.
final class GlobeLineLabelCollisionTests: XCTestCase {
    private let tile = TileID(z: 0, x: 0, y: 0)!

    /// A line label along the equator from 45° W to 45° E, laid out in tile 0/0/0, placed on the
    /// globe of a 256² view at zoom 0 centered at 45° N, with the tile given in `wraps` copies.
    private func place(wraps: [Int]) throws -> SymbolDrawData {
        let json = #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},"#
            + #" "layers": [{"id": "l", "type": "symbol", "source": "s", "layout": {"symbol-placement": "line","#
            + #" "text-field": "AAAAAAAAAAA", "text-rotation-alignment": "map", "text-pitch-alignment": "map"}}]}"#
        let l = try XCTUnwrap(try Style(bytes: Array(json.utf8)).layers.first)
        let p = FakeSymbolProvider()
        let src = VectorLayer(name: "s", extent: 8192, version: 2, features: [
            VectorFeature(id: nil, geometryType: .lineString, properties: [:],
                          geometry: [[TilePoint(x: 3072, y: 4096), TilePoint(x: 5120, y: 4096)]])
        ])
        let symbols = try XCTUnwrap(SymbolLayout.build(layer: l, from: src, zoom: 0, canonical: tile, provider: p, pixelRatio: 1))
        let t = Transform(width: 256, height: 256, center: (0, 45), zoom: 0)
        let tiles = wraps.map { (CoveredTile(id: tile, wrap: $0, overscaledZoom: 0), symbols) }
        return SymbolPlacement.place([SymbolLayerInput(layer: l, tiles: tiles)], transform: t, provider: p,
                                     collisionDebug: true, globe: GlobeView(flat: t))[0]
    }

    /// A world copy of a tile is the same place on the sphere: it is placed once, not a second
    /// time over the first (whose circles it would hit, drawn red over the blue ones).
    func testAWorldCopyOfATileIsPlacedOnce() throws {
        let one = try place(wraps: [0])
        let copies = try place(wraps: [-1, 0, 1])
        XCTAssertFalse(one.text.isEmpty)
        XCTAssertEqual(copies.text.count, one.text.count, "the label is drawn once")
        XCTAssertEqual(copies.collisionDebug?.count, one.collisionDebug?.count)
        XCTAssertEqual(copies.collisionDebug?.allSatisfy(\.placed), true, "no circle collides with a copy of its own label")
    }

    /// The circles lie as GL JS lays them on the globe: evenly spaced on the screen along the
    /// label's path from its first glyph to its last, a path that bends with the sphere (the
    /// equator seen from 45° N curves down between the label's ends).
    func testCirclesAreSpacedEvenlyAlongTheBentPath() throws {
        let shapes = try XCTUnwrap(try place(wraps: [0]).collisionDebug)
        XCTAssertGreaterThanOrEqual(shapes.count, 3)
        let centers = shapes.map { (x: ($0.x1 + $0.x2) / 2, y: ($0.y1 + $0.y2) / 2) }
        let gaps = zip(centers, centers.dropFirst()).map { hypot($1.x - $0.x, $1.y - $0.y) }
        for gap in gaps { XCTAssertEqual(gap, gaps[0], accuracy: 1, "\(gaps)") }
        let first = centers[0], last = centers[centers.count - 1], mid = centers[centers.count / 2]
        let chordY = first.y + (last.y - first.y) * (mid.x - first.x) / (last.x - first.x)
        XCTAssertGreaterThan(mid.y - chordY, 2, "the middle circle lies below the chord: the path follows the sphere")
        XCTAssertTrue(shapes.allSatisfy(\.placed))
    }
}
