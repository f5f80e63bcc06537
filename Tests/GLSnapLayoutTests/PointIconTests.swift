import XCTest
import GLSnapData
import GLSnapStyle
@testable import GLSnapLayout

/// Icons of point labels in a vertical layout, and line icons laid flat on a pitched map.
final class PointIconTests: XCTestCase {
    private func layer(_ layout: String) throws -> StyleLayer {
        let json = #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},"#
            + #" "layers": [{"id": "l", "type": "symbol", "source": "s", "layout": \#(layout)}]}"#
        return try XCTUnwrap(try Style(bytes: Array(json.utf8)).layers.first)
    }

    private let tile0 = TileID(z: 0, x: 0, y: 0)!

    /// text-writing-mode vertical with icon-text-fit: a second icon is fitted to the vertical
    /// layout, tall where the horizontal one is wide (text-writing-mode/point_label/*-icon-text-fit).
    func testVerticalLabelGetsATallFittedIcon() throws {
        let l = try layer(#"{"text-field": "{name}", "icon-image": "i", "icon-text-fit": "both", "icon-text-fit-padding": [2, 2, 2, 2],"#
                          + #" "text-writing-mode": ["vertical"]}"#)
        let src = VectorLayer(name: "s", extent: 8192, version: 2, features: [
            VectorFeature(id: nil, geometryType: .point, properties: ["name": .string("\u{30DE}\u{30C3}\u{30D7}\u{30DC}")],
                          geometry: [[TilePoint(x: 4096, y: 4096)]])
        ])
        let symbols = try XCTUnwrap(SymbolLayout.build(layer: l, from: src, zoom: 0, canonical: tile0, provider: FakeSymbolProvider(),
                                                       pixelRatio: 1))
        let inst = try XCTUnwrap(symbols.instances.first)
        let horizontal = try XCTUnwrap(inst.icon).box, vertical = try XCTUnwrap(inst.verticalIcon).box
        XCTAssertGreaterThan(horizontal.width, horizontal.height)
        XCTAssertGreaterThan(vertical.height, vertical.width)
        // Four upright glyphs of one em at 16 px: 64 px of text, 4 px of padding.
        XCTAssertEqual(vertical.height, 4 * 16 + 4, accuracy: 1e-9)
        // The vertical layout draws with it, its pieces turned the same way.
        let turned = inst.turnedVertical
        XCTAssertEqual(turned.icon?.box, vertical)
        let piece = try XCTUnwrap(turned.icon?.parts.first).corners(size: 1)
        // Its top edge (tl to tr) now runs down the screen: the drawn piece is tall.
        XCTAssertEqual(piece.0.x, piece.1.x, accuracy: 1e-9)
        XCTAssertGreaterThan(abs(piece.1.y - piece.0.y), abs(piece.2.x - piece.0.x) + 20, "the drawn piece is tall")
    }

    /// One-way arrows (icons along a line, pitch alignment map by default) lie in the map plane on
    /// a pitched view: an arrow far up the screen is drawn smaller than one near the bottom
    /// (icon-offset/pitched-offset), not larger.
    func testLineIconsOnAPitchedMapShrinkWithDistance() throws {
        let l = try layer(#"{"icon-image": "i", "symbol-placement": "line", "symbol-spacing": 100, "icon-allow-overlap": true,"#
                          + #" "icon-size": 2}"#)
        // A north-south line through the middle of the tile.
        let src = VectorLayer(name: "s", extent: 8192, version: 2, features: [
            VectorFeature(id: nil, geometryType: .lineString, properties: [:],
                          geometry: [[TilePoint(x: 4096, y: 100), TilePoint(x: 4096, y: 8100)]])
        ])
        let p = FakeSymbolProvider()
        let symbols = try XCTUnwrap(SymbolLayout.build(layer: l, from: src, zoom: 0, canonical: tile0, provider: p, pixelRatio: 1))
        let covered = CoveredTile(id: tile0, wrap: 0, overscaledZoom: 0)
        let t = Transform(width: 512, height: 512, center: (0, 0), zoom: 1, pitch: 60)
        let icons = SymbolPlacement.place([SymbolLayerInput(layer: l, tiles: [(covered, symbols)])], transform: t, provider: p)[0].icons
        let quad = 6 * SymbolDrawData.floatsPerVertex
        XCTAssertGreaterThanOrEqual(icons.count, 2 * quad)
        // Each icon's screen extent and its y (vertices: x, y first).
        var extents: [(y: Float, size: Float)] = []
        for q in stride(from: 0, to: icons.count, by: quad) {
            let xs = (0..<6).map { icons[q + $0 * SymbolDrawData.floatsPerVertex] }
            let ys = (0..<6).map { icons[q + $0 * SymbolDrawData.floatsPerVertex + 1] }
            extents.append(((ys.min()! + ys.max()!) / 2, max(xs.max()! - xs.min()!, ys.max()! - ys.min()!)))
        }
        extents.sort { $0.y < $1.y }
        let far = try XCTUnwrap(extents.first), near = try XCTUnwrap(extents.last)
        XCTAssertLessThan(far.y + 50, near.y)
        XCTAssertLessThan(far.size, near.size * 0.9, "farther icons are smaller: \(extents)")
    }
}
