import XCTest
import GLSnapData
import GLSnapStyle
@testable import GLSnapLayout

/// Line labels set glyph by glyph as GL JS sets them: text-offset across the line follows a
/// path parallel to it, single glyphs are kept upright by their segment, and viewport-glyph
/// labels follow the line with each glyph level on the screen.
final class SymbolLineGlyphTests: XCTestCase {
    /// The text vertices of a line label drawn on a 512² view of tile 0/0/0 along `points`.
    private func text(_ layout: String, _ points: [(Int32, Int32)], bearing: Double = 0) throws -> [Float] {
        let json = #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},"#
            + #" "layers": [{"id": "l", "type": "symbol", "source": "s", "layout": {"symbol-placement": "line","#
            + #" "text-allow-overlap": true, "text-ignore-placement": true, "symbol-spacing": 1000, "# + layout + "}}]}"
        let l = try XCTUnwrap(try Style(bytes: Array(json.utf8)).layers.first)
        let p = FakeSymbolProvider()
        let src = VectorLayer(name: "s", extent: 8192, version: 2, features: [
            VectorFeature(id: nil, geometryType: .lineString, properties: [:], geometry: [points.map { TilePoint(x: $0.0, y: $0.1) }])
        ])
        let symbols = try XCTUnwrap(SymbolLayout.build(layer: l, from: src, zoom: 0, canonical: TileID(z: 0, x: 0, y: 0)!,
                                                       provider: p, pixelRatio: 1))
        let covered = CoveredTile(id: TileID(z: 0, x: 0, y: 0)!, wrap: 0, overscaledZoom: 0)
        let t = Transform(width: 512, height: 512, center: (0, 0), zoom: 0, bearing: bearing, pitch: 0)
        return SymbolPlacement.place([SymbolLayerInput(layer: l, tiles: [(covered, symbols)])], transform: t, provider: p)[0].text
    }

    private let quad = 6 * SymbolDrawData.floatsPerVertex
    private let f = SymbolDrawData.floatsPerVertex

    /// Vertex `v` (0 tl, 1 tr, 2 bl, 5 br) of glyph `g`.
    private func vertex(_ text: [Float], glyph g: Int, _ v: Int) -> (x: Float, y: Float) {
        (text[g * quad + v * f], text[g * quad + v * f + 1])
    }

    func testSingleGlyphOnALineRunningWestIsTurnedUpright() throws {
        // East to west through the middle: a lone glyph would read upside down unflipped.
        let west = try text(#""text-field": "A""#, [(7000, 4096), (1000, 4096)])
        XCTAssertEqual(west.count, quad)
        let tl = vertex(west, glyph: 0, 0), br = vertex(west, glyph: 0, 5)
        XCTAssertLessThan(tl.x, br.x, "the glyph's top left stays left")
        XCTAssertLessThan(tl.y, br.y, "and on top")
        let east = try text(#""text-field": "A""#, [(1000, 4096), (7000, 4096)])
        XCTAssertLessThan(vertex(east, glyph: 0, 0).x, vertex(east, glyph: 0, 5).x)
    }

    func testOffsetAcrossTheLineKeepsTheLinesSideWhenFlipped() throws {
        // Running east, text-offset y 1 (16 px at text-size 16) moves the text down; running
        // west the label is flipped but the offset stays on the right of the line's direction,
        // so the text moves up (as GL JS draws it).
        func middle(_ text: [Float]) -> Float { (vertex(text, glyph: 0, 0).y + vertex(text, glyph: 0, 5).y) / 2 }
        let eastward = [(Int32(1000), Int32(4096)), (7000, 4096)], westward = [(Int32(7000), Int32(4096)), (1000, 4096)]
        let east = try text(#""text-field": "ab", "text-offset": [0, 1]"#, eastward)
        let west = try text(#""text-field": "ab", "text-offset": [0, 1]"#, westward)
        XCTAssertEqual(east.count, 2 * quad)
        XCTAssertEqual(west.count, 2 * quad)
        XCTAssertEqual(middle(east) - middle(try text(#""text-field": "ab""#, eastward)), 16, accuracy: 1e-3)
        XCTAssertEqual(middle(west) - middle(try text(#""text-field": "ab""#, westward)), -16, accuracy: 1e-3)
        // Flipped, it still reads left to right.
        XCTAssertLessThan(vertex(west, glyph: 0, 0).x, vertex(west, glyph: 1, 0).x)
    }

    func testViewportGlyphFollowsTheLineWithLevelGlyphs() throws {
        // A diagonal line: the glyphs are spread along it, none turned.
        let diagonal = try text(#""text-field": "abcd", "text-rotation-alignment": "viewport-glyph""#, [(1000, 1000), (7000, 7000)])
        XCTAssertEqual(diagonal.count, 4 * quad)
        for g in 0..<4 {
            XCTAssertEqual(vertex(diagonal, glyph: g, 0).y, vertex(diagonal, glyph: g, 1).y, accuracy: 1e-3, "glyph \(g) is level")
        }
        let first = vertex(diagonal, glyph: 0, 0), last = vertex(diagonal, glyph: 3, 0)
        XCTAssertGreaterThan(last.x - first.x, 10)
        XCTAssertEqual(last.y - first.y, last.x - first.x, accuracy: 1e-3, "down the line, not across the screen")
    }

    func testOffsetPathCrossesInsideABend() {
        // East 100, then south 100; the path 10 to the right of the line (inside the bend)
        // turns at (90, 10), so 60 from the anchor at (50, 0) lands at (90, 30).
        let walk = LineWalk(line: [(0, 0), (100, 0), (100, 100)], anchor: (50, 0), segment: 0)
        let inside = walk.glyph(60, lineOffset: (0, 10), flip: false)
        XCTAssertEqual(inside?.x ?? .nan, 90, accuracy: 1e-9)
        XCTAssertEqual(inside?.y ?? .nan, 30, accuracy: 1e-9)
        XCTAssertEqual(inside?.angle ?? .nan, .pi / 2, accuracy: 1e-9)
        // Outside the bend (-10) the path turns at (110, -10): 70 lands at (110, 0).
        let outside = walk.glyph(70, lineOffset: (0, -10), flip: false)
        XCTAssertEqual(outside?.x ?? .nan, 110, accuracy: 1e-9)
        XCTAssertEqual(outside?.y ?? .nan, 0, accuracy: 1e-9)
        // Backward from the anchor: along the moved first segment.
        let back = walk.glyph(-30, lineOffset: (0, 10), flip: false)
        XCTAssertEqual(back?.x ?? .nan, 20, accuracy: 1e-9)
        XCTAssertEqual(back?.y ?? .nan, 10, accuracy: 1e-9)
        // Backward round the bend: from (90, 50) up to (90, 10), then west along y 10.
        let up = LineWalk(line: [(0, 0), (100, 0), (100, 100)], anchor: (100, 50), segment: 1).glyph(-60, lineOffset: (0, 10), flip: false)
        XCTAssertEqual(up?.x ?? .nan, 70, accuracy: 1e-9)
        XCTAssertEqual(up?.y ?? .nan, 10, accuracy: 1e-9)
        XCTAssertEqual(sin(up?.angle ?? .nan), 0, accuracy: 1e-9)
        XCTAssertEqual(cos(up?.angle ?? .nan), 1, accuracy: 1e-9, "turned east, with the line")
        // The label's own offset along the line moves every glyph forward.
        XCTAssertEqual(walk.glyph(10, lineOffset: (20, 0), flip: false)?.x ?? .nan, 80, accuracy: 1e-9)
        // Flipped, glyphs run backward but the offset along keeps the line's direction.
        XCTAssertEqual(walk.glyph(10, lineOffset: (20, 0), flip: true)?.x ?? .nan, 60, accuracy: 1e-9)
        XCTAssertNil(walk.glyph(500, lineOffset: (0, 10), flip: false), "past the end")
    }
}

/// line-center: a middle outside the tile is the neighbour tile's label.
final class SymbolLineCenterTests: XCTestCase {
    private func instances(_ points: [(Int32, Int32)]) throws -> Int {
        let json = #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},"#
            + #" "layers": [{"id": "l", "type": "symbol", "source": "s", "layout": {"symbol-placement": "line-center", "text-field": "ab"}}]}"#
        let l = try XCTUnwrap(try Style(bytes: Array(json.utf8)).layers.first)
        let src = VectorLayer(name: "s", extent: 8192, version: 2, features: [
            VectorFeature(id: nil, geometryType: .lineString, properties: [:], geometry: [points.map { TilePoint(x: $0.0, y: $0.1) }])
        ])
        let symbols = SymbolLayout.build(layer: l, from: src, zoom: 0, canonical: TileID(z: 0, x: 0, y: 0)!,
                                         provider: FakeSymbolProvider(), pixelRatio: 1)
        return symbols?.count ?? 0
    }

    func testAMiddleOutsideTheTileIsLeftToTheNeighbour() throws {
        XCTAssertEqual(try instances([(1000, 4096), (7000, 4096)]), 1)
        // The line runs into the tile from the buffer on the left; its middle lies outside.
        XCTAssertEqual(try instances([(-7000, 4096), (3000, 4096)]), 0)
    }
}

/// How far along the map's line a label standing on a pitched view reaches.
final class SymbolLineReachTests: XCTestCase {
    func testScreenDistancesAreMeasuredOnTheTileLine() {
        // The screen shows the first segment at 1/4 of its tile length and the second, receding
        // farther, at 1/8: 30 px forward from the anchor (the first segment's 10 px left, then
        // 20 of the second's 40) is 10·4 + 20·8 = 200 tile units.
        let tile = [Vec2(0, 0), Vec2(80, 0), Vec2(400, 0)]
        let screen: [(x: Double, y: Double)] = [(0, 0), (20, 0), (60, 0)]
        let walk = LineWalk(line: screen, anchor: (10, 0), segment: 0)
        XCTAssertEqual(walk.tileDistance(at: 30, on: tile, from: Vec2(40, 0)) ?? .nan, 200, accuracy: 1e-9)
        XCTAssertEqual(walk.tileDistance(at: -5, on: tile, from: Vec2(40, 0)) ?? .nan, 20, accuracy: 1e-9)
        XCTAssertNil(walk.tileDistance(at: 100, on: tile, from: Vec2(40, 0)), "past the end")
    }
}

/// A line label near the camera of a pitched view, on a line that runs on behind the camera.
final class SymbolLineBehindCameraTests: XCTestCase {
    func testLabelsNearTheCameraFollowALineRunningBehindIt() throws {
        let json = #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},"#
            + #" "layers": [{"id": "l", "type": "symbol", "source": "s", "layout": {"symbol-placement": "line","#
            + #" "text-field": "abcd", "text-pitch-alignment": "viewport", "symbol-spacing": 100}}]}"#
        let l = try XCTUnwrap(try Style(bytes: Array(json.utf8)).layers.first)
        let p = FakeSymbolProvider()
        // North to south through the middle of tile 10/512/512, drawn at zoom 12 (2048 px): its
        // south end lies 1024 px south of the view's center, behind the camera at pitch 60.
        let src = VectorLayer(name: "s", extent: 8192, version: 2, features: [
            VectorFeature(id: nil, geometryType: .lineString, properties: [:],
                          geometry: [[TilePoint(x: 4096, y: 1), TilePoint(x: 4096, y: 8191)]])
        ])
        let id = TileID(z: 10, x: 512, y: 512)!
        let symbols = try XCTUnwrap(SymbolLayout.build(layer: l, from: src, zoom: 12, canonical: id, provider: p, pixelRatio: 1))
        let covered = CoveredTile(id: id, wrap: 0, overscaledZoom: 12)
        let center = (lon: 512.5 / 1024 * 360 - 180, lat: atan(sinh(Double.pi * (1 - 2 * 512.5 / 1024))) * 180 / .pi)
        let t = Transform(width: 512, height: 512, center: center, zoom: 12, bearing: 0, pitch: 60)
        let text = SymbolPlacement.place([SymbolLayerInput(layer: l, tiles: [(covered, symbols)])], transform: t, provider: p)[0].text
        let f = SymbolDrawData.floatsPerVertex
        let ys = stride(from: 1, to: text.count, by: f).map { text[$0] }
        XCTAssertFalse(ys.isEmpty, "labels are drawn")
        XCTAssertTrue(ys.contains { $0 > 400 }, "down to the bottom of the view, near the camera")
    }
}
