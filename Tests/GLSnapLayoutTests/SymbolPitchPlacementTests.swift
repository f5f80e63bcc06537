import XCTest
import GLSnapData
import GLSnapStyle
@testable import GLSnapLayout

/// Placement on pitched views as GL JS 6 places: boxes of labels laid on the map projected corner
/// by corner, nothing placed near the horizon, and the softer edges of text laid on the map.
final class SymbolPitchPlacementTests: XCTestCase {
    private let tile = TileID(z: 0, x: 0, y: 0)!

    /// Lays out point labels "ab" at `points` (tile units of tile 0/0/0) and places them.
    private func place(layout: String, paint: String = "", points: [(Double, Double)], zoom: Double, pitch: Double,
                       debug: Bool = false) throws -> SymbolDrawData {
        let json = #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},"#
            + #" "layers": [{"id": "l", "type": "symbol", "source": "s", "layout": {"text-field": "ab"\#(layout)}, "paint": {\#(paint)}}]}"#
        let l = try XCTUnwrap(try Style(bytes: Array(json.utf8)).layers.first)
        let p = FakeSymbolProvider()
        let src = VectorLayer(name: "s", extent: 8192, version: 2, features: points.map {
            VectorFeature(id: nil, geometryType: .point, properties: [:], geometry: [[TilePoint(x: Int32($0.0), y: Int32($0.1))]])
        })
        let symbols = try XCTUnwrap(SymbolLayout.build(layer: l, from: src, zoom: 0, canonical: tile, provider: p, pixelRatio: 1))
        let t = Transform(width: 512, height: 512, center: (0, 0), zoom: zoom, pitch: pitch)
        return SymbolPlacement.place([SymbolLayerInput(layer: l, tiles: [(CoveredTile(id: tile, wrap: 0, overscaledZoom: 0), symbols)])],
                                     transform: t, provider: p, collisionDebug: debug)[0]
    }

    /// The screen height of the one label's collision box at the view's center.
    private func boxHeight(pitchAlignment: String) throws -> Double {
        let d = try place(layout: #", "text-pitch-alignment": "\#(pitchAlignment)""#, points: [(4096, 4096)], zoom: 1, pitch: 60)
        let box = try XCTUnwrap(d.placed.first?.boxes.first)
        return box.y2 - box.y1
    }

    /// Laid on the map, the box is the map-plane box projected: foreshortened by the pitch (to
    /// about half at 60 degrees) where a viewer-facing label's keeps its height.
    func testBoxOfTextLaidOnTheMapIsForeshortened() throws {
        let facing = try boxHeight(pitchAlignment: "viewport")
        let flat = try boxHeight(pitchAlignment: "map")
        XCTAssertGreaterThan(facing, 0)
        XCTAssertLessThan(flat, facing * 0.7)
        XCTAssertGreaterThan(flat, facing * 0.3)
    }

    /// GL JS places nothing whose perspective ratio is under 0.6 (clip w over five times the
    /// camera-to-center distance): at pitch 80, a label 3500 px north of the center is left out,
    /// one at the center placed; its collision box is still kept for debug drawing, unplaced.
    func testNothingIsPlacedNearTheHorizon() throws {
        let points = [(4096.0, 4096.0), (4096.0, 596.0)]
        let d = try place(layout: "", points: points, zoom: 4, pitch: 80, debug: true)
        XCTAssertEqual(d.placed.count, 1)
        XCTAssertEqual(d.collisionDebug?.count, 2)
        XCTAssertEqual(d.collisionDebug?.filter(\.placed).count, 1)
        // 2500 px north (w about 4.2 times the distance) it is placed too.
        XCTAssertEqual(try place(layout: "", points: [(4096, 4096), (4096, 1596)], zoom: 4, pitch: 80).placed.count, 2)
        XCTAssertTrue(SymbolPlacement.nearHorizon(w: 5.1, cameraToCenter: 1))
        XCTAssertFalse(SymbolPlacement.nearHorizon(w: 4.9, cameraToCenter: 1))
    }

    /// The SDF edge of text laid on a pitched map widens by clip w / (cos(pitch) × distance): at
    /// the view's center (w = distance) 1 / cos(60°) = 2, more toward the horizon.
    func testPitchedGammaOfTextLaidOnTheMap() throws {
        let flat = try place(layout: #", "text-pitch-alignment": "map""#, points: [(4096, 4096)], zoom: 1, pitch: 60)
        let g = try XCTUnwrap(flat.textGamma)
        XCTAssertEqual(g.scale(x: 256, y: 256), 2, accuracy: 1e-3)
        XCTAssertGreaterThan(g.scale(x: 256, y: 50), 2.5)
        XCTAssertLessThan(g.scale(x: 256, y: 500), 2)
        // The same across the row: roll-free views keep w constant along screen rows.
        XCTAssertEqual(g.scale(x: 10, y: 100), g.scale(x: 500, y: 100), accuracy: 1e-6)
        XCTAssertNil(flat.sdfIconGamma)
        XCTAssertNil(try place(layout: "", points: [(4096, 4096)], zoom: 1, pitch: 60).textGamma)
        XCTAssertNil(try place(layout: #", "text-pitch-alignment": "map""#, points: [(4096, 4096)], zoom: 1, pitch: 0).textGamma)
    }

    /// The mean x and the width (CSS px) of the one label's glyph vertices.
    private func glyphSpan(anchor: String, at point: (Double, Double)) throws -> (mean: Double, width: Double) {
        let layout = #", "text-pitch-alignment": "map", "text-variable-anchor": ["\#(anchor)"]"#
        let text = try place(layout: layout, points: [point], zoom: 1, pitch: 60).text
        let n = SymbolDrawData.floatsPerVertex
        let xs = stride(from: 0, to: text.count, by: n).map { Double(text[$0]) }
        XCTAssertFalse(xs.isEmpty)
        return (xs.reduce(0, +) / Double(xs.count), xs.max()! - xs.min()!)
    }

    /// Text laid on a pitched map with a variable anchor is moved by text-size times the
    /// viewer-facing perspective ratio (GL JS's renderTextSize), while its glyphs grow with
    /// distance: far from the camera the shift is smaller beside the glyphs than near it.
    func testVariableAnchorShiftOfTextLaidOnTheMap() throws {
        func shiftOverWidth(_ point: (Double, Double)) throws -> Double {
            let left = try glyphSpan(anchor: "left", at: point), center = try glyphSpan(anchor: "center", at: point)
            return (left.mean - center.mean) / center.width
        }
        let near = try shiftOverWidth((4096, 4096))
        let far = try shiftOverWidth((4096, 1000))
        XCTAssertGreaterThan(near, 0.2)
        // 387 px north at pitch 60: perspective ratio 0.85, the glyphs' 1.22.
        XCTAssertLessThan(far, near * 0.85)
        XCTAssertGreaterThan(far, near * 0.55)
    }

    /// text-translate moves the box of text laid on a pitched map in the map plane, where GL JS
    /// translates its anchor: the box of a label translated 150 px north is that of the same
    /// label laid 150 px (1200 tile units at zoom 1) farther north (it went by the screen offset
    /// read as a map-plane one, too little under pitch).
    func testTranslatedBoxOfTextLaidOnTheMapIsWhereItsAnchorMoves() throws {
        let layout = #", "text-pitch-alignment": "map""#
        let moved = try place(layout: layout, paint: #""text-translate": [0, -150], "text-translate-anchor": "map""#,
                              points: [(4096, 4096)], zoom: 1, pitch: 60)
        let there = try place(layout: layout, points: [(4096, 4096 - 1200)], zoom: 1, pitch: 60)
        let a = try XCTUnwrap(moved.placed.first?.boxes.first), b = try XCTUnwrap(there.placed.first?.boxes.first)
        for (p, q) in [(a.x1, b.x1), (a.y1, b.y1), (a.x2, b.x2), (a.y2, b.y2)] { XCTAssertEqual(p, q, accuracy: 0.01) }
    }

    /// The screen width of the one label's collision box, laid at `point`.
    private func boxWidth(layout: String, at point: (Double, Double)) throws -> Double {
        let d = try place(layout: layout, points: [point], zoom: 1, pitch: 60)
        let box = try XCTUnwrap(d.placed.first?.boxes.first)
        return box.x2 - box.x1
    }

    /// A box laid on the pitched map grows with distance as its glyphs do (by 0.5 + 0.5 × w / d,
    /// GL JS's pitched perspective ratio) before it is projected: 387 px north of the center at
    /// pitch 60 it is as wide on the screen as the viewer-facing label's box (0.85 of its layout
    /// width), not the 0.70 the projection alone leaves. With a variable anchor GL JS drops the
    /// growth, so there it stays at 0.70.
    func testBoxOfTextLaidOnTheMapGrowsWithDistanceAsItsGlyphs() throws {
        let far = (4096.0, 1000.0)
        let facing = try boxWidth(layout: "", at: far)
        let flat = try boxWidth(layout: #", "text-pitch-alignment": "map""#, at: far)
        XCTAssertEqual(flat / facing, 1, accuracy: 0.04)
        let shifted = try boxWidth(layout: #", "text-pitch-alignment": "map", "text-variable-anchor": ["center"]"#, at: far)
        XCTAssertEqual(shifted / facing, 0.70 / 0.85, accuracy: 0.04)
        // At the center (w = d) the growth is 1: the same box as before.
        let center = (4096.0, 4096.0)
        XCTAssertEqual(try boxWidth(layout: #", "text-pitch-alignment": "map""#, at: center),
                       try boxWidth(layout: #", "text-pitch-alignment": "map", "text-variable-anchor": ["center"]"#, at: center),
                       accuracy: 0.01)
    }

    /// A label laid on the pitched map that takes none of its variable anchors keeps, for debug,
    /// a box of the size GL JS gives boxes tried at variable anchors (not grown with distance):
    /// the same as its placed twin's at the same anchor.
    func testDebugBoxOfUnplacedVariableAnchorLabelIsNotGrown() throws {
        let layout = #", "text-pitch-alignment": "map", "text-variable-anchor": ["center"]"#
        let d = try place(layout: layout, points: [(4096, 1000), (4096, 1000)], zoom: 1, pitch: 60, debug: true)
        let shapes = try XCTUnwrap(d.collisionDebug)
        XCTAssertEqual(shapes.count, 2)
        let placed = try XCTUnwrap(shapes.first { $0.placed }), unplaced = try XCTUnwrap(shapes.first { !$0.placed })
        XCTAssertEqual(unplaced.x2 - unplaced.x1, placed.x2 - placed.x1, accuracy: 0.01)
        XCTAssertEqual(unplaced.y2 - unplaced.y1, placed.y2 - placed.y1, accuracy: 0.01)
    }
}
