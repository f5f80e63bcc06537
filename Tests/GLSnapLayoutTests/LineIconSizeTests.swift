import XCTest
import GLSnapData
import GLSnapStyle
@testable import GLSnapLayout

/// How big a map-pitched icon is drawn under pitch: point icons are sized by GL JS's
/// perspective ratio in the map plane, icons laid along lines keep their icon-size there.
final class LineIconSizeTests: XCTestCase {
    private func params(_ t: Transform) throws -> LayerParams {
        let json = #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},"#
            + #" "layers": [{"id": "l", "type": "symbol", "source": "s", "layout": {"icon-image": "i", "icon-size": 2,"#
            + #" "icon-pitch-alignment": "map", "icon-rotation-alignment": "map", "symbol-placement": "line"}}]}"#
        let layer = try XCTUnwrap(try Style(bytes: Array(json.utf8)).layers.first?.symbol)
        return LayerParams(layer, transform: t)
    }

    func testAlongLineIconKeepsItsSizeInTheMapPlaneUnderPitch() throws {
        let t = Transform(width: 256, height: 512, center: (0, 0), zoom: 14, pitch: 60)
        let pr = try params(t)
        let id = try XCTUnwrap(TileID(z: 14, x: 8192, y: 8192))
        let projector = TileProjector(transform: t, tile: CoveredTile(id: id, wrap: 0, overscaledZoom: 14), symbols: SymbolTile())
        // Near the bottom of the view: nearer the camera than the center is.
        var inst = SymbolInstance(feature: 0, anchor: Vec2(0, 3000), line: 0, segment: 0, glyphs: 0..<0, text: 0,
                                  textBox: .zero, icon: nil, sortKey: 0, textLayoutSize: 16, iconLayoutSize: 2)
        let a = try XCTUnwrap(projector.project(inst.anchor))
        XCTAssertLessThan(a.w, t.cameraToCenterDistance * 0.95, "the anchor is near")
        let ctx = EvaluationContext(zoom: 14)
        let line = SymbolView((a.x, a.y, a.w), inst, ctx, pr, projector: projector, transform: t)
        XCTAssertEqual(line.iconSize, 2, accuracy: 1e-12, "laid along its line: icon-size in the map plane")
        inst.line = -1
        let point = SymbolView((a.x, a.y, a.w), inst, ctx, pr, projector: projector, transform: t)
        XCTAssertEqual(point.iconSize, 2 * (0.5 + 0.5 * a.w / t.cameraToCenterDistance), accuracy: 1e-9,
                       "a point icon keeps the perspective ratio")
    }
}
