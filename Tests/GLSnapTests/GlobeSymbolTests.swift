import XCTest
import GLSnap
import GLSnapImage
import GLSnapStyle

/// On the globe, labels face the screen at their projected anchors (GL JS), are hidden behind
/// the horizon, and keep their place in the style's layer order.
final class GlobeSymbolTests: XCTestCase {
    private func style(_ layers: String, points: String) -> String {
        """
        {"version": 8, "projection": {"type": "globe"}, "sky": {"atmosphere-blend": 0},
         "sources": {"p": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\(points)]}},
                     "box": {"type": "geojson", "data": {"type": "Polygon", "coordinates": [[[-30, -20], [30, -20], [30, 20], [-30, 20], [-30, -20]]]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}}, \(layers)]}
        """
    }

    private func point(_ lon: Double, _ lat: Double) -> String {
        "{\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [\(lon), \(lat)]}}"
    }

    private static let label = """
    {"id": "t", "type": "symbol", "source": "p", "layout": {"text-field": "HHHH", "text-size": 20, "text-overlap": "always"},
     "paint": {"text-color": "#000000"}}
    """

    private func render(_ style: String, size: Double = 256, center: Coordinate = Coordinate(latitude: 0, longitude: 0),
                        zoom: Double = 1, pieceSize: Int? = nil) throws -> (image: RGBAImage, snapshot: Snapshot) {
        var limits = Limits()
        if let pieceSize { limits.pieceSize = pieceSize }
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: size, height: size), limits: limits))
        try s.setStyle(json: style)
        let shot = try s.snapshot(camera: CameraOptions(center: center, zoom: zoom))
        return (shot.image, shot)
    }

    /// The box (x0, y0, x1, y1) of dark pixels within `rect`, or nil where there are none.
    private func inkBox(_ image: RGBAImage, _ rect: (Int, Int, Int, Int)) -> (Int, Int, Int, Int)? {
        var box: (Int, Int, Int, Int)?
        for y in max(rect.1, 0)..<min(rect.3, image.height) {
            for x in max(rect.0, 0)..<min(rect.2, image.width) {
                let o = (y * image.width + x) * 4
                guard image.pixels[o + 3] > 200, image.pixels[o] < 100 else { continue }
                box = box.map { (min($0.0, x), min($0.1, y), max($0.2, x), max($0.3, y)) } ?? (x, y, x, y)
            }
        }
        return box
    }

    /// A label near the rim is about as wide as one at the center: it faces the screen (drawn flat on
    /// the sphere it was squeezed to half its width at 60° from the center).
    func testALabelNearTheRimFacesTheScreen() throws {
        let (image, shot) = try render(style(GlobeSymbolTests.label, points: point(0, 0) + ", " + point(60, 0)), size: 384)
        let c = shot.point(for: Coordinate(latitude: 0, longitude: 0)), r = shot.point(for: Coordinate(latitude: 0, longitude: 60))
        XCTAssertFalse(r.x.isNaN)
        let center = try XCTUnwrap(inkBox(image, (Int(c.x) - 40, Int(c.y) - 15, Int(c.x) + 40, Int(c.y) + 15)))
        let rim = try XCTUnwrap(inkBox(image, (Int(r.x) - 40, Int(r.y) - 15, Int(r.x) + 40, Int(r.y) + 15)))
        let centerWidth = center.2 - center.0, rimWidth = rim.2 - rim.0
        XCTAssertGreaterThan(centerWidth, 30)
        // Only the distance shrinks it a little (GL JS's perspective ratio), not the curve.
        XCTAssertGreaterThan(rimWidth, centerWidth * 85 / 100, "rim \(rim), center \(center)")
        XCTAssertLessThanOrEqual(rimWidth, centerWidth)
        // Centered on its projected anchor.
        XCTAssertEqual(Double(rim.0 + rim.2) / 2, r.x, accuracy: 2)
    }

    /// An anchor behind the horizon hides its label, even with text-overlap always and text that
    /// would reach onto the visible side (GL JS's occlusion test); a visible anchor's shows.
    func testALabelBehindTheHorizonIsHidden() throws {
        let hidden = GlobeSymbolTests.label.replacingOccurrences(of: "\"text-size\": 20", with: "\"text-size\": 20, \"text-anchor\": \"right\"")
        let (image, shot) = try render(style(hidden, points: point(78, 0)))
        XCTAssertTrue(shot.point(for: Coordinate(latitude: 0, longitude: 78)).x.isNaN, "the anchor is behind the horizon")
        XCTAssertNil(inkBox(image, (0, 0, 256, 256)))
        let (seen, _) = try render(style(hidden, points: point(60, 0)))
        XCTAssertNotNil(inkBox(seen, (128, 100, 256, 156)))
    }

    /// Layer order is kept: a fill above a label covers it, a fill below it does not.
    func testALabelKeepsItsPlaceInTheLayerOrder() throws {
        let fill = "{\"id\": \"f\", \"type\": \"fill\", \"source\": \"box\", \"paint\": {\"fill-color\": \"#ff0000\"}}"
        let (under, _) = try render(style(GlobeSymbolTests.label + ", " + fill, points: point(0, 0)))
        XCTAssertNil(inkBox(under, (88, 113, 168, 143)), "the fill drawn after the label covers it")
        let o = (128 * 256 + 100) * 4
        XCTAssertEqual(Array(under.pixels[o..<(o + 4)]), [255, 0, 0, 255])
        let (over, _) = try render(style(fill + ", " + GlobeSymbolTests.label, points: point(0, 0)))
        XCTAssertNotNil(inkBox(over, (88, 113, 168, 143)))
    }

    /// A style without symbol layers draws as before (one sampled image); with one, the layers
    /// under and over it still draw (the sphere, then the label, then the atmosphere).
    func testTheAtmosphereIsDrawnOverLabels() throws {
        let glowing = style(GlobeSymbolTests.label, points: point(0, 0)).replacingOccurrences(of: "\"sky\": {\"atmosphere-blend\": 0},", with: "")
        let (image, _) = try render(glowing)
        XCTAssertNotNil(inkBox(image, (88, 113, 168, 143)))
        let radius = 1024 / (2 * Double.pi), focal = 1.5 * 256
        let rim = focal * tan(asin(radius / (focal + radius)))
        let o = (128 * 256 + 128 - Int(rim + 1.5)) * 4
        XCTAssertGreaterThan(image.pixels[o + 3], 10, "the glow past the rim")
    }

    /// A viewport-aligned circle (the default) near the rim stays round, facing the screen; a
    /// map-aligned one lies on the sphere, squeezed across the curve (GL JS draws both so).
    func testViewportCirclesFaceTheScreen() throws {
        func circle(_ alignment: String) -> String {
            "{\"id\": \"c\", \"type\": \"circle\", \"source\": \"p\", \"paint\": {\"circle-radius\": 10, \"circle-color\": \"#000000\", \"circle-pitch-alignment\": \"\(alignment)\"}}"
        }
        let (image, shot) = try render(style(circle("viewport"), points: point(60, 0)), size: 384)
        let r = shot.point(for: Coordinate(latitude: 0, longitude: 60))
        let rect = (Int(r.x) - 20, Int(r.y) - 20, Int(r.x) + 20, Int(r.y) + 20)
        let round = try XCTUnwrap(inkBox(image, rect))
        XCTAssertEqual(Double(round.2 - round.0), Double(round.3 - round.1), accuracy: 1.5, "\(round)")
        XCTAssertEqual(Double(round.0 + round.2) / 2, r.x, accuracy: 1.5)
        let (flat, _) = try render(style(circle("map"), points: point(60, 0)), size: 384)
        let squeezed = try XCTUnwrap(inkBox(flat, rect))
        XCTAssertLessThan(Double(squeezed.2 - squeezed.0), Double(squeezed.3 - squeezed.1) * 0.7, "\(squeezed)")
    }

    /// circle-translate moves a viewport-aligned circle's center on the sphere before it is
    /// projected (GL JS's shader adds it in tile units): 30 px up at the view's center, and
    /// foreshortened with the curve 60° east, where 30 px east move it where the globe shows
    /// the point 30 px east on the map.
    func testCircleTranslateMovesTheCenterOnTheSphere() throws {
        func circle(_ translate: String) -> String {
            "{\"id\": \"c\", \"type\": \"circle\", \"source\": \"p\", \"paint\": {\"circle-radius\": 5, \"circle-color\": \"#000000\", \"circle-translate\": \(translate)}}"
        }
        let (up, shot) = try render(style(circle("[0, -30]"), points: point(0, 0)), size: 384)
        let c = shot.point(for: Coordinate(latitude: 0, longitude: 0))
        XCTAssertNil(inkBox(up, (Int(c.x) - 8, Int(c.y) - 8, Int(c.x) + 8, Int(c.y) + 8)), "nothing left at the anchor")
        let moved = try XCTUnwrap(inkBox(up, (Int(c.x) - 20, Int(c.y) - 50, Int(c.x) + 20, Int(c.y) + 20)))
        XCTAssertEqual(Double(moved.1 + moved.3) / 2, c.y - 30, accuracy: 2, "\(moved)")
        // 30 px east at zoom 1 (a 1024-px world) is 10.55° of longitude: where the globe shows that.
        let (east, _) = try render(style(circle("[30, 0]"), points: point(60, 0)), size: 384)
        let r = shot.point(for: Coordinate(latitude: 0, longitude: 60))
        let target = shot.point(for: Coordinate(latitude: 0, longitude: 60 + 30.0 / 1024 * 360))
        let rim = try XCTUnwrap(inkBox(east, (Int(r.x) - 10, Int(r.y) - 20, Int(r.x) + 40, Int(r.y) + 20)))
        XCTAssertEqual(Double(rim.0 + rim.2) / 2, target.x, accuracy: 1.5, "\(rim), anchor at \(r.x)")
        XCTAssertLessThan(target.x - r.x, 20, "foreshortened by the curve")
    }

    /// A label turned with the map (text-rotation-alignment map, facing the screen) and moved by
    /// text-translate turns to the map's east where it is moved to, as GL JS measures it (at the
    /// translated anchor): 21° of longitude away, that east differs from the anchor's by many degrees.
    func testATranslatedLabelTurnsToTheEastWhereItIsMoved() throws {
        let label = """
        {"id": "t", "type": "symbol", "source": "p", "layout": {"text-field": "HHHHHHHHHH", "text-size": 12, "text-overlap": "always",
         "text-rotation-alignment": "map", "text-pitch-alignment": "viewport"},
         "paint": {"text-color": "#000000", "text-translate": [60, 0]}}
        """
        let (image, shot) = try render(style(label, points: point(20, 50)), size: 512, center: Coordinate(latitude: 45, longitude: 0))
        // 60 px east at zoom 1 (a 1024-px world) is 21.1° of longitude.
        let lon = 20 + 60.0 / 1024 * 360
        func eastAngle(_ lon: Double) -> Double {
            let p = shot.point(for: Coordinate(latitude: 50, longitude: lon - 0.5)), q = shot.point(for: Coordinate(latitude: 50, longitude: lon + 0.5))
            return atan2(q.y - p.y, q.x - p.x) * 180 / .pi
        }
        let c = shot.point(for: Coordinate(latitude: 50, longitude: lon))
        // The ink's principal axis (the baseline of a long row of glyphs).
        var n = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0
        for py in max(Int(c.y) - 60, 0)..<min(Int(c.y) + 60, image.height) {
            for px in max(Int(c.x) - 60, 0)..<min(Int(c.x) + 60, image.width) {
                let o = (py * image.width + px) * 4
                guard image.pixels[o + 3] > 200, image.pixels[o] < 100 else { continue }
                let x = Double(px), y = Double(py)
                n += 1; sx += x; sy += y; sxx += x * x; syy += y * y; sxy += x * y
            }
        }
        XCTAssertGreaterThan(n, 50)
        let vx = sxx / n - (sx / n) * (sx / n), vy = syy / n - (sy / n) * (sy / n), cxy = sxy / n - (sx / n) * (sy / n)
        let ink = 0.5 * atan2(2 * cxy, vx - vy) * 180 / .pi
        XCTAssertGreaterThan(abs(eastAngle(lon) - eastAngle(20)), 8, "the test needs easts apart")
        XCTAssertEqual(ink, eastAngle(lon), accuracy: 1.5, "anchor's east \(eastAngle(20))")
    }

    /// An icon of icon-size 1 on the unpitched globe is sampled nearest, as GL JS samples it
    /// (by the layout size, not the distance that sizes it there): a 1-px checkerboard keeps only
    /// black and white, where linear sampling would blur it to grays.
    func testIconsOnTheUnpitchedGlobeAreSampledNearest() throws {
        let side = 16
        var pixels: [UInt8] = []
        for y in 0..<side { for x in 0..<side { let v: UInt8 = (x + y) % 2 == 0 ? 0 : 255; pixels += [v, v, v, 255] } }
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 256, height: 256)))
        try s.addImage("checks", StyleImage(image: RGBAImage(width: side, height: side, pixels: pixels)))
        let icon = "{\"id\": \"i\", \"type\": \"symbol\", \"source\": \"p\", \"layout\": {\"icon-image\": \"checks\"}}"
        try s.setStyle(json: style(icon, points: point(40, 20)))
        let shot = try s.snapshot(camera: CameraOptions(center: Coordinate(latitude: 0, longitude: 0), zoom: 1))
        let p = shot.point(for: Coordinate(latitude: 20, longitude: 40))
        var grays = 0, inked = 0
        for y in Int(p.y) - 6..<Int(p.y) + 6 {
            for x in Int(p.x) - 6..<Int(p.x) + 6 {
                let v = shot.image.pixels[(y * 256 + x) * 4]
                if v < 128 { inked += 1 }
                if v > 40 && v < 215 { grays += 1 }
            }
        }
        XCTAssertGreaterThan(inked, 40, "the icon is drawn there")
        XCTAssertEqual(grays, 0)
    }

    /// A label laid on the globe (text-pitch-alignment map) is moved by text-translate in the map's
    /// units at the view's zoom, as GL JS moves its anchor in tile units: 40 px east at 60° north
    /// is 14° of longitude, not twice that (the glyphs, not the translation, are stretched there).
    func testTextTranslateOnTheGlobeIsInTheMapsUnits() throws {
        let label = """
        {"id": "t", "type": "symbol", "source": "p", "layout": {"text-field": "HHH", "text-size": 16, "text-overlap": "always",
         "text-anchor": "left", "text-rotation-alignment": "map", "text-pitch-alignment": "map"},
         "paint": {"text-color": "#000000", "text-translate": [40, 0]}}
        """
        let (image, shot) = try render(style(label, points: point(0, 60)), size: 384)
        let target = shot.point(for: Coordinate(latitude: 60, longitude: 40.0 / 1024 * 360))
        let ink = try XCTUnwrap(inkBox(image, (Int(target.x) - 30, Int(target.y) - 20, Int(target.x) + 60, Int(target.y) + 20)))
        // The glyphs start at the moved anchor (less an H's side bearing).
        XCTAssertEqual(Double(ink.0), target.x, accuracy: 3, "\(ink)")
    }

    /// A line label laid on the globe along a meridian keeps its glyphs' width across the line at
    /// every latitude, as GL JS's shader stretches each glyph by the latitude where it lands:
    /// stretched by the anchor's latitude only, the poleward glyphs would be drawn narrower.
    func testLineGlyphsOnTheGlobeStretchWhereTheyLand() throws {
        let style = """
        {"version": 8, "projection": {"type": "globe"}, "sky": {"atmosphere-blend": 0},
         "sources": {"l": {"type": "geojson", "data": {"type": "LineString", "coordinates": [[0, 10], [0, 84]]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "t", "type": "symbol", "source": "l", "layout": {"symbol-placement": "line", "text-field": "HHHHHHHHHHHHHHHH",
                     "text-size": 16, "text-rotation-alignment": "map", "text-pitch-alignment": "map", "text-overlap": "always"},
                     "paint": {"text-color": "#000000"}}]}
        """
        let (image, _) = try render(style, size: 512, center: Coordinate(latitude: 60, longitude: 0))
        let ink = try XCTUnwrap(inkBox(image, (0, 0, 512, 512)))
        func width(near y: Int) -> Int {
            let rows = inkBox(image, (0, y - 4, 512, y + 4))
            return rows.map { $0.2 - $0.0 } ?? 0
        }
        let height = ink.3 - ink.1
        XCTAssertGreaterThan(height, 60, "\(ink)")
        let poleward = width(near: ink.1 + height / 8), equatorward = width(near: ink.3 - height / 8)
        XCTAssertGreaterThan(equatorward, 8)
        XCTAssertEqual(Double(poleward), Double(equatorward), accuracy: Double(equatorward) * 0.15, "poleward \(poleward), equatorward \(equatorward)")
    }

    /// Drawn in pieces, labels and circles land where the one-frame render puts them (placed
    /// once for the whole image, each piece drawing its part).
    func testLabelsAndCirclesInPieces() throws {
        let circle = "{\"id\": \"c\", \"type\": \"circle\", \"source\": \"p\", \"paint\": {\"circle-radius\": 6, \"circle-color\": \"#0000ff\"}}"
        let points = [(0.0, 0.0), (30, 20), (-40, -10), (55, 35), (10, -45)].map { point($0.0, $0.1) }.joined(separator: ", ")
        let s = style(circle + ", " + GlobeSymbolTests.label, points: points)
        let whole = try render(s, size: 512).image
        let pieces = try render(s, size: 512, pieceSize: 128).image
        let mismatch = pixelmatch(whole, pieces, threshold: 0.1, includeAA: true)
        XCTAssertLessThan(Double(mismatch) / Double(whole.width * whole.height), 0.0005, "mismatched pixels: \(mismatch)")
        XCTAssertNotNil(inkBox(pieces, (0, 0, 512, 512)))
    }

    /// Feature queries find a label on the globe where it is drawn, on the screen.
    func testQueriesFindLabelsWhereTheyAreDrawn() throws {
        let (_, shot) = try render(style(GlobeSymbolTests.label, points: point(50, 30)), size: 384)
        let p = shot.point(for: Coordinate(latitude: 30, longitude: 50))
        XCTAssertEqual(try shot.queryRenderedFeatures(at: Point(x: p.x, y: p.y)).map(\.layer), ["t"])
        XCTAssertEqual(try shot.queryRenderedFeatures(at: Point(x: p.x, y: p.y + 40)).map(\.layer), [])
    }
}
