import XCTest
import GLSnapData
import GLSnapStyle
@testable import GLSnapLayout

/// icon-offset on icons laid along a line: GL JS 6 moves them by the offset in their quad (times
/// icon-size) and walks the line by it again as a line label's offset, in 24 px units (times
/// icon-size over 24): icon-offset/pitched-offset.
final class LineIconOffsetTests: XCTestCase {
    private let tile0 = TileID(z: 0, x: 0, y: 0)!

    /// The screen centers of a layer's icons, sorted top to bottom.
    private func centers(offset: String, pitchAlignment: String) throws -> [Vec2] {
        let json = #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},"#
            + #" "layers": [{"id": "l", "type": "symbol", "source": "s", "layout": {"icon-image": "i", "icon-size": 5,"#
            + #" "symbol-placement": "line", "symbol-spacing": 300, "icon-allow-overlap": true, "icon-rotation-alignment": "map","#
            + #" "icon-pitch-alignment": "\#(pitchAlignment)", "icon-offset": \#(offset)}}]}"#
        let l = try XCTUnwrap(try Style(bytes: Array(json.utf8)).layers.first)
        // A north-south line through the middle of the tile.
        let src = VectorLayer(name: "s", extent: 8192, version: 2, features: [
            VectorFeature(id: nil, geometryType: .lineString, properties: [:],
                          geometry: [[TilePoint(x: 4096, y: 100), TilePoint(x: 4096, y: 8100)]])
        ])
        let p = FakeSymbolProvider()
        let symbols = try XCTUnwrap(SymbolLayout.build(layer: l, from: src, zoom: 0, canonical: tile0, provider: p, pixelRatio: 1))
        let covered = CoveredTile(id: tile0, wrap: 0, overscaledZoom: 0)
        let t = Transform(width: 512, height: 512, center: (0, 0), zoom: 1)
        let icons = SymbolPlacement.place([SymbolLayerInput(layer: l, tiles: [(covered, symbols)])], transform: t, provider: p)[0].icons
        let stride = SymbolDrawData.floatsPerVertex, quad = 6 * stride
        var out: [Vec2] = []
        for q in Swift.stride(from: 0, to: icons.count, by: quad) {
            let xs = (0..<6).map { Double(icons[q + $0 * stride]) }, ys = (0..<6).map { Double(icons[q + $0 * stride + 1]) }
            out.append(Vec2((xs.min()! + xs.max()!) / 2, (ys.min()! + ys.max()!) / 2))
        }
        return out.sorted { $0.y < $1.y }
    }

    func testLineIconIsWalkedByItsOffsetTimesSizeOver24BesidesItsQuadOffset() throws {
        for alignment in ["map", "viewport"] {
            let plain = try centers(offset: "[0, 0]", pitchAlignment: alignment)
            XCTAssertGreaterThanOrEqual(plain.count, 2, alignment)
            // Across the line: 10 px times icon-size 5 in the quad, 10 × 5 / 24 more on the walk.
            let across = try centers(offset: "[0, 10]", pitchAlignment: alignment)
            XCTAssertEqual(across.count, plain.count, alignment)
            for (a, b) in zip(plain, across) {
                XCTAssertEqual(abs(b.x - a.x), 50 + 50.0 / 24, accuracy: 0.01, "\(alignment): \(a) -> \(b)")
                XCTAssertEqual(b.y, a.y, accuracy: 0.01, alignment)
            }
            // Along the line likewise.
            let along = try centers(offset: "[10, 0]", pitchAlignment: alignment)
            XCTAssertEqual(along.count, plain.count, alignment)
            for (a, b) in zip(plain, along) {
                XCTAssertEqual(abs(b.y - a.y), 50 + 50.0 / 24, accuracy: 0.01, "\(alignment): \(a) -> \(b)")
                XCTAssertEqual(b.x, a.x, accuracy: 0.01, alignment)
            }
        }
    }
}
