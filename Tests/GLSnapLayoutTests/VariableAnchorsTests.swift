import XCTest
import GLSnapData
import GLSnapStyle
@testable import GLSnapLayout

/// text-variable-anchor(-offset): offsets, shifts and the order anchors are tried in.
final class VariableAnchorsTests: XCTestCase {
    private func layer(_ layout: String) throws -> StyleLayer {
        let json = #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},"#
            + #" "layers": [{"id": "l", "type": "symbol", "source": "s", "layout": \#(layout)}]}"#
        return try XCTUnwrap(try Style(bytes: Array(json.utf8)).layers.first)
    }

    func testAnchorOffsetWinsAndShiftsByTheBaseline() throws {
        let l = try layer(#"{"text-variable-anchor": ["left"], "text-variable-anchor-offset": ["top", [0, 1], "bottom-left", [0.5, -1], "left", [1, 0]]}"#)
        let anchors = try XCTUnwrap(VariableAnchors.anchors(try XCTUnwrap(l.symbol), EvaluationContext(zoom: 10)))
        XCTAssertEqual(anchors.map(\.anchor), [.top, .bottomLeft, .left])
        XCTAssertEqual(anchors[0].offset, Vec2(0, 24 - 7))
        XCTAssertEqual(anchors[1].offset, Vec2(12, -24 + 7))
        XCTAssertEqual(anchors[2].offset, Vec2(24, 0))
    }

    func testVariableAnchorWithRadialAndTextOffset() throws {
        let radial = try layer(#"{"text-variable-anchor": ["top", "bottom-right", "left"], "text-radial-offset": 1, "text-offset": [5, 5]}"#)
        let a = try XCTUnwrap(VariableAnchors.anchors(try XCTUnwrap(radial.symbol), EvaluationContext(zoom: 10)))
        XCTAssertEqual(a.map(\.anchor), [.top, .bottomRight, .left])
        XCTAssertEqual(a[0].offset, Vec2(0, 24 - 7))
        XCTAssertEqual(a[1].offset.x, -24 / 2.0.squareRoot(), accuracy: 1e-9)
        XCTAssertEqual(a[1].offset.y, -24 / 2.0.squareRoot() + 7, accuracy: 1e-9)
        XCTAssertEqual(a[2].offset, Vec2(24, 0))
        let offset = try layer(#"{"text-variable-anchor": ["bottom-right", "center"], "text-offset": [-1, 2]}"#)
        let b = try XCTUnwrap(VariableAnchors.anchors(try XCTUnwrap(offset.symbol), EvaluationContext(zoom: 10)))
        XCTAssertEqual(b[0].offset, Vec2(-24, -48 + 7))  // absolute values, away from the anchor's sides
        XCTAssertEqual(b[1].offset, Vec2(0, 0))
        XCTAssertNil(VariableAnchors.anchors(try XCTUnwrap(try layer(#"{"text-anchor": "top"}"#).symbol), EvaluationContext(zoom: 10)))
    }

    func testShiftMovesTheCenteredBoxToTheAnchor() {
        let a = VariableAnchor(anchor: .topLeft, offset: Vec2(2, 3))
        // A 100 × 40 box shaped around its center: its top-left corner moves to the anchor.
        XCTAssertEqual(VariableAnchors.shift(a, width: 100, height: 40, boxScale: 0.5), Vec2(50 + 1, 20 + 1.5))
        XCTAssertEqual(VariableAnchors.shift(VariableAnchor(anchor: .bottom, offset: Vec2(0, 0)), width: 100, height: 40, boxScale: 1),
                       Vec2(0, -20))
    }

    func testAttemptOrderIsEachAnchorThenEachWithOverlap() {
        XCTAssertEqual(VariableAnchors.attempts(count: 3, overlapAllowed: false).map(\.index), [0, 1, 2])
        let both = VariableAnchors.attempts(count: 2, overlapAllowed: true)
        XCTAssertEqual(both.map(\.index), [0, 1, 0, 1])
        XCTAssertEqual(both.map(\.overlap), [false, false, true, true])
    }

    func testOverlapModes() {
        var grid = CollisionGrid(width: 100, height: 100)
        var placed = CollisionShape.box(10, 10, 30, 30)
        placed.overlap = .cooperative
        grid.insert(placed)
        var strict = CollisionShape.box(50, 50, 70, 70)
        strict.overlap = .never
        grid.insert(strict)
        let onCooperative = CollisionShape.box(20, 20, 40, 40), onStrict = CollisionShape.box(60, 60, 80, 80)
        XCTAssertTrue(grid.collides(onCooperative, mode: .never))
        XCTAssertFalse(grid.collides(onCooperative, mode: .cooperative))
        XCTAssertTrue(grid.collides(onStrict, mode: .cooperative))
        XCTAssertFalse(grid.collides(onStrict, mode: .always))
    }

    private func placedText(_ layout: String, points: [(Int32, Int32)]) throws -> [Float] {
        let p = FakeSymbolProvider()
        let l = try layer(layout)
        let src = VectorLayer(name: "s", extent: 8192, version: 2, features: points.map {
            VectorFeature(id: nil, geometryType: .point, properties: [:], geometry: [[TilePoint(x: $0.0, y: $0.1)]])
        })
        let symbols = try XCTUnwrap(SymbolLayout.build(layer: l, from: src, zoom: 0, canonical: TileID(z: 0, x: 0, y: 0)!,
                                                       provider: p, pixelRatio: 1))
        let covered = CoveredTile(id: TileID(z: 0, x: 0, y: 0)!, wrap: 0, overscaledZoom: 0)
        let t = Transform(width: 512, height: 512, center: (0, 0), zoom: 0)
        return SymbolPlacement.place([SymbolLayerInput(layer: l, tiles: [(covered, symbols)])], transform: t, provider: p)[0].text
    }

    /// The vertices' y (CSS px) of placed text.
    private func ys(_ verts: [Float]) -> [Float] {
        stride(from: 1, to: verts.count, by: SymbolDrawData.floatsPerVertex).map { verts[$0] }
    }

    func testAllowOverlapTriesEveryAnchorWithoutOverlapFirst() throws {
        // The second point lies 10 px below the first (16 tile units a pixel): at "bottom" its
        // text (19.2 px high, 2 px padding) would overlap the first label's, so it takes "top",
        // below its point. Before, overlap was allowed from the first try and both took "bottom".
        let verts = try placedText(#"{"text-field": "ab", "text-variable-anchor": ["bottom", "top"], "text-allow-overlap": true}"#,
                                   points: [(4096, 4096), (4096, 4096 + 160)])
        XCTAssertEqual(verts.count / SymbolDrawData.floatsPerVertex, 2 * 2 * 6)
        let y = ys(verts)
        // The fake glyphs span 24 to 9.3 px above a label's center; the center lies 11.6 px (half
        // the padded box) less 4.7 px (the baseline offset) from the point: above the first
        // point (at 256 px), below the second (266 px): 272.9, so glyphs reach 263.6. At
        // "bottom" the second label's would reach only 249.7.
        XCTAssertEqual(try XCTUnwrap(y.min()), 256 - 11.6 + 4.667 - 24, accuracy: 0.05)
        XCTAssertEqual(try XCTUnwrap(y.max()), 266 + 11.6 - 4.667 - 9.333, accuracy: 0.05)
    }

    func testWithoutOverlapAnUnplaceableLabelIsHidden() throws {
        let verts = try placedText(#"{"text-field": "ab", "text-variable-anchor": ["bottom"]}"#, points: [(4096, 4096), (4096, 4096)])
        XCTAssertEqual(verts.count / SymbolDrawData.floatsPerVertex, 2 * 6)
        XCTAssertTrue(ys(verts).allSatisfy { $0 < 256 })  // at "bottom": above the anchor
    }

    func testFittedIconWithoutAnchoredTextIsHiddenButCollides() throws {
        // GL JS draws a layer's fitted icons only at their text's variable anchor: a feature with
        // no text keeps its icon's collision box but draws nothing.
        let p = FakeSymbolProvider()
        let json = #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},"#
            + #" "layers": [{"id": "l", "type": "symbol", "source": "s", "layout": {"text-field": ["get", "name"],"#
            + #" "text-variable-anchor": ["center"], "icon-image": "i", "icon-text-fit": "both"}}]}"#
        let l = try XCTUnwrap(try Style(bytes: Array(json.utf8)).layers.first)
        let src = VectorLayer(name: "s", extent: 8192, version: 2, features: [
            VectorFeature(id: nil, geometryType: .point, properties: [:], geometry: [[TilePoint(x: 4096, y: 4096)]]),
            VectorFeature(id: nil, geometryType: .point, properties: ["name": .string("ab")], geometry: [[TilePoint(x: 4096, y: 4096)]]),
        ])
        let symbols = try XCTUnwrap(SymbolLayout.build(layer: l, from: src, zoom: 0, canonical: TileID(z: 0, x: 0, y: 0)!,
                                                       provider: p, pixelRatio: 1))
        let covered = CoveredTile(id: TileID(z: 0, x: 0, y: 0)!, wrap: 0, overscaledZoom: 0)
        let t = Transform(width: 512, height: 512, center: (0, 0), zoom: 0)
        let out = SymbolPlacement.place([SymbolLayerInput(layer: l, tiles: [(covered, symbols)])], transform: t, provider: p)[0]
        XCTAssertTrue(out.icons.isEmpty, "the lone icon is hidden")
        XCTAssertTrue(out.text.isEmpty, "the label on top of the hidden icon's box does not fit")
    }
}
