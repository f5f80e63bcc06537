import XCTest
import GLSnap
import GLSnapImage

/// 3D terrain: the map draped on a raster-dem surface, the camera raised to it.
final class TerrainRenderTests: XCTestCase {
    private var references: String { TestPaths.root.appendingPathComponent("Tests/GLSnapTests/References").path }

    /// The references' hill (12 km high in the middle of DEM tile 6/32/31) under a grid of lines.
    private func hillStyle(terrain: String) -> String {
        var lines: [String] = []
        for i in 0...20 {
            let v = 1.8 + Double(i) * 0.1
            lines.append("[[\(v), 1.8], [\(v), 3.8]]")
            lines.append("[[1.8, \(v)], [3.8, \(v)]]")
        }
        return """
        {"version": 8, "center": [2.8125, 2.81137], "zoom": 7.5, "pitch": 60, "bearing": 30,
         "sources": {"dem": {"type": "raster-dem", "tiles": ["tiles/mapbox/{z}-{x}-{y}.png"], "tileSize": 256,
                             "minzoom": 6, "maxzoom": 6, "encoding": "mapbox"},
                     "grid": {"type": "geojson", "data": {"type": "MultiLineString", "coordinates": [\(lines.joined(separator: ","))]}}},
         \(terrain)
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "grid", "type": "line", "source": "grid", "paint": {"line-color": "#203080", "line-width": 2}}]}
        """
    }

    private func snapshot(_ style: String, size: Int = 128) throws -> Snapshot {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: Double(size), height: Double(size))))
        try s.setStyle(json: style, baseURL: references)
        return try s.snapshot()
    }

    func testTerrainRaisesTheDrapedMap() throws {
        let flat = try snapshot(hillStyle(terrain: ""))
        let raised = try snapshot(hillStyle(terrain: #""terrain": {"source": "dem", "exaggeration": 1.5},"#))
        XCTAssertFalse(raised.warnings.contains { $0.contains("terrain") }, "\(raised.warnings)")
        let changed = pixelmatch(flat.image, raised.image, threshold: 0.1, includeAA: true)
        XCTAssertGreaterThan(Double(changed) / Double(128 * 128), 0.05, "the hill moves the picture")
        // Every pixel is drawn: the terrain covers the view below the horizon, the sky above is clear.
        let bottom = raised.image.pixels[(127 * 128 + 64) * 4 + 3]
        XCTAssertEqual(bottom, 255)
        // Exaggeration 0 is the flat ground seen from the same camera: only the draped lines'
        // resampling differs (over terrain every surface tile takes its own zoom, as in GL JS, so
        // the far lines are drawn into coarser textures than the flat map's tiles).
        let zero = try snapshot(hillStyle(terrain: #""terrain": {"source": "dem", "exaggeration": 0},"#))
        let resampled = pixelmatch(flat.image, zero.image, threshold: 0.1, includeAA: true)
        XCTAssertLessThan(resampled * 2, changed, "flat \(resampled) raised \(changed)")
    }

    /// A terrain view of the suites' fixtures at 2048² in 512-px pieces equals it drawn whole.
    func testTerrainViewInPieces() throws {
        let suite = try TestPaths.requireShared("integration-gljs")
        let style = """
        {"version": 8, "center": [11.52517, 47.34487], "zoom": 11, "pitch": 50, "bearing": 20,
         "sources": {"terrain": {"type": "raster-dem", "tiles": ["tiles/terrain-shading/{z}-{x}-{y}.terrain.png"],
                                 "maxzoom": 12, "tileSize": 256},
                     "osm": {"type": "raster", "tiles": ["tiles/number/{z}.png"], "maxzoom": 17, "tileSize": 256}},
         "terrain": {"source": "terrain", "exaggeration": 2},
         "layers": [{"id": "background", "type": "background", "paint": {"background-color": "white"}},
                    {"id": "raster", "type": "raster", "source": "osm"}]}
        """
        func render(pieceSize: Int) throws -> RGBAImage {
            var limits = Limits()
            limits.pieceSize = pieceSize
            let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 2048, height: 2048), limits: limits))
            try s.setStyle(json: style, baseURL: suite.path)
            return try s.snapshot().image
        }
        let whole = try render(pieceSize: 4096)
        let pieces = try render(pieceSize: 512)
        XCTAssertEqual(whole.width, pieces.width)
        let mismatch = pixelmatch(whole, pieces, threshold: 0.1, includeAA: true)
        XCTAssertLessThan(Double(mismatch) / Double(whole.width * whole.height), 0.0005, "mismatched pixels: \(mismatch)")
    }
}
