import XCTest
import GLSnap
import GLSnapImage

/// Circles, heatmaps, extrusions and labels over 3D terrain stand on the ground under them (GL
/// JS's per-vertex `get_elevation`, its placement's per-anchor elevation), not at the height of
/// the view's center: each is drawn where a draped square of the same place is.
final class TerrainRaisedLayerTests: XCTestCase {
    private var references: String { TestPaths.root.appendingPathComponent("Tests/GLSnapTests/References").path }

    /// The references' hill (12 km high in the middle of DEM tile 6/32/31, where the camera looks)
    /// with one layer of `layer` over a white background; the features sit on the hill's flank.
    private func style(_ layer: String, exaggeration: Double = 4) -> String {
        """
        {"version": 8, "glyphs": "\(glyphs)", "center": [2.8125, 2.81137], "zoom": 7.5, "pitch": 50, "bearing": 30,
         "sources": {"dem": {"type": "raster-dem", "tiles": ["tiles/mapbox/{z}-{x}-{y}.png"], "tileSize": 256,
                             "minzoom": 6, "maxzoom": 6, "encoding": "mapbox"},
                     "square": {"type": "geojson", "data": {"type": "Polygon", "coordinates":
                                [[[2.57, 2.52], [2.63, 2.52], [2.63, 2.58], [2.57, 2.58], [2.57, 2.52]]]}},
                     "point": {"type": "geojson", "data": {"type": "Point", "coordinates": [2.6, 2.55]}}},
         "terrain": {"source": "dem", "exaggeration": \(exaggeration)},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}}, \(layer)]}
        """
    }

    private var glyphs: String { TestPaths.root.appendingPathComponent("examples/chicago/glyphs").path + "/{fontstack}/{range}.pbf" }

    private func snapshot(_ style: String) throws -> Snapshot {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 256, height: 256)))
        try s.setStyle(json: style, baseURL: references)
        return try s.snapshot()
    }

    /// The mean position of the reddish pixels (x, y from the top-left), and how many there are.
    private func redCentroid(_ image: RGBAImage) -> (x: Double, y: Double, count: Int) {
        var sx = 0.0, sy = 0.0, n = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let i = (y * image.width + x) * 4
                let r = Int(image.pixels[i]), g = Int(image.pixels[i + 1]), b = Int(image.pixels[i + 2])
                guard r > 100, r > g + 60, r > b + 60 else { continue }
                sx += Double(x); sy += Double(y); n += 1
            }
        }
        return n == 0 ? (.nan, .nan, 0) : (sx / Double(n), sy / Double(n), n)
    }

    private var draped: (x: Double, y: Double, count: Int) {
        get throws {
            try redCentroid(snapshot(style(##"{"id": "sq", "type": "fill", "source": "square", "paint": {"fill-color": "#ff0000"}}"##)).image)
        }
    }

    private func assertNear(_ a: (x: Double, y: Double, count: Int), _ b: (x: Double, y: Double, count: Int),
                            within pixels: Double, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertGreaterThan(a.count, 0, "nothing drawn", file: file, line: line)
        XCTAssertGreaterThan(b.count, 0, "nothing drawn", file: file, line: line)
        let d = ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
        XCTAssertLessThan(d, pixels, "drawn at \(a), the ground there at \(b)", file: file, line: line)
    }

    func testCircleStandsOnTheGroundUnderIt() throws {
        let ground = try draped
        let circle = try redCentroid(snapshot(style(
            ##"{"id": "c", "type": "circle", "source": "point", "paint": {"circle-color": "#ff0000", "circle-radius": 5}}"##)).image)
        assertNear(circle, ground, within: 2)
    }

    func testHeatmapStandsOnTheGroundUnderIt() throws {
        let ground = try draped
        let heat = try redCentroid(snapshot(style(##"""
            {"id": "h", "type": "heatmap", "source": "point", "paint": {"heatmap-radius": 10,
             "heatmap-color": ["interpolate", ["linear"], ["heatmap-density"], 0, "rgba(0,0,0,0)", 0.05, "#ff0000", 1, "#ff0000"]}}
            """##)).image)
        assertNear(heat, ground, within: 3)
    }

    func testLabelStandsOnTheGroundUnderItsAnchor() throws {
        let ground = try draped
        let label = try redCentroid(snapshot(style(##"""
            {"id": "t", "type": "symbol", "source": "point",
             "layout": {"text-field": "I", "text-font": ["Noto Sans Bold"], "text-size": 16}, "paint": {"text-color": "#ff0000"}}
            """##)).image)
        assertNear(label, ground, within: 2)
    }

    func testExtrusionStandsOnTheGroundUnderItsCentroid() throws {
        let ground = try draped
        // One meter high, its roof level at the centroid's height: the uphill half of the square's
        // ground rises over it, so only the downhill half shows (flat, it was under the ground).
        let box = try redCentroid(snapshot(style(
            ##"{"id": "x", "type": "fill-extrusion", "source": "square", "paint": {"fill-extrusion-color": "#ff0000", "fill-extrusion-height": 1}}"##)).image)
        assertNear(box, ground, within: 6)
        XCTAssertGreaterThan(box.count * 4, ground.count, "a fourth of the square at least shows")
    }
}

/// GL JS's `centerClampedToGround: false`: over terrain the center keeps its own height
/// (`centerAltitude`) instead of standing on the ground under it.
final class TerrainUnclampedCenterTests: XCTestCase {
    private var references: String { TestPaths.root.appendingPathComponent("Tests/GLSnapTests/References").path }

    private func image(clamped: Bool, altitude: Double) throws -> RGBAImage {
        let style = """
        {"version": 8, "center": [2.8125, 2.81137], "zoom": 7.5, "pitch": 60, "bearing": 30,
         "sources": {"dem": {"type": "raster-dem", "tiles": ["tiles/mapbox/{z}-{x}-{y}.png"], "tileSize": 256,
                             "minzoom": 6, "maxzoom": 6, "encoding": "mapbox"}},
         "terrain": {"source": "dem", "exaggeration": 1},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "hills", "type": "hillshade", "source": "dem"}]}
        """
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 128, height: 128)))
        try s.setStyle(json: style, baseURL: references)
        s.setCamera(CameraOptions(centerAltitude: altitude, centerClampedToGround: clamped))
        return try s.snapshot().image
    }

    func testUnclampedCenterKeepsItsAltitude() throws {
        // The hill's top under the center is 12 km high: a center at 20 km not clamped is the
        // camera of a clamped one raised 8 km above the ground.
        let unclamped = try image(clamped: false, altitude: 20000)
        let clamped = try image(clamped: true, altitude: 8000)
        let other = try image(clamped: true, altitude: 20000)
        let same = pixelmatch(unclamped, clamped, threshold: 0.1, includeAA: true)
        let moved = pixelmatch(unclamped, other, threshold: 0.1, includeAA: true)
        XCTAssertLessThan(Double(same), Double(128 * 128) * 0.002, "unclamped at 20 km is clamped at 8 km")
        XCTAssertGreaterThan(moved, same * 10 + 100, "and not clamped at 20 km")
    }
}
