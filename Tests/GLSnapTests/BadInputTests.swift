import XCTest
import GLSnap
import GLSnapImage

/// Bad input gives an error that names what was wrong, and the snapshotter keeps working after it.
final class BadInputTests: XCTestCase {
    private func message(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "(no error)"
        } catch {
            return "\(error)"
        }
    }

    func testStyleThatIsNotJSON() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 64, height: 64)))
        let m = message { try s.setStyle(json: "{\"version\": 8, \"layers\": [") }
        XCTAssertTrue(m.contains("inline JSON") && m.contains("line 1"), m)
    }

    func testMissingStyleFile() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 64, height: 64)))
        let m = message { try s.setStyle(path: "/nonexistent/style.json") }
        XCTAssertTrue(m.contains("/nonexistent/style.json") && m.contains("no such file"), m)
    }

    func testUnknownLayerType() throws {
        let style = #"{"version": 8, "sources": {}, "layers": [{"id": "x", "type": "sparkles"}]}"#
        // Refused with styleErrors .fail (glsnap render --strict), naming the path ...
        var options = MapSnapshotOptions(size: Size(width: 64, height: 64))
        options.styleErrors = .fail
        let strict = Snapshotter(options: options)
        let m = message { try strict.setStyle(json: style) }
        XCTAssertTrue(m.contains("layers[0].type"), m)
        // ... by default the layer is skipped, as MapLibre skips it, with a warning at that path.
        let lenient = Snapshotter(options: MapSnapshotOptions(size: Size(width: 64, height: 64)))
        try lenient.setStyle(json: style)
        XCTAssertTrue(lenient.styleWarnings.contains { $0.contains("layers[0].type") }, "\(lenient.styleWarnings)")
    }

    func testSizesOutOfRange() throws {
        for size in [Size(width: 0, height: 10), Size(width: 100_000, height: 100_000), Size(width: -5, height: 10)] {
            let s = Snapshotter(options: MapSnapshotOptions(size: size))
            try s.setStyle(path: TestPaths.example)
            let m = message { _ = try s.snapshot() }
            XCTAssertTrue(m.contains("invalid snapshot options"), m)
        }
    }

    func testCorruptAndTruncatedTiles() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A valid tile truncated, and bytes that are no tile at all.
        let good = try Data(contentsOf: try TestPaths.requireShared("mvt-fixtures/fixtures/017/tile.mvt"))
        try good.prefix(good.count / 2).write(to: dir.appendingPathComponent("0-0-0.mvt"))
        let style = #"""
        {"version": 8, "sources": {"t": {"type": "vector", "tiles": ["{z}-{x}-{y}.mvt"], "maxzoom": 0}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                    {"id": "l", "type": "line", "source": "t", "source-layer": "hello"}]}
        """#
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 64, height: 64)))
        try s.setStyle(json: style, baseURL: dir.path + "/")
        s.setCamera(CameraOptions(center: Coordinate(latitude: 0, longitude: 0), zoom: 0))
        let m = message { _ = try s.snapshot() }
        XCTAssertTrue(m.contains("source \"t\"") && m.contains("tile 0/0/0"), m)
        // Under the skip policy the map draws without the tile and says why.
        let lenient = Snapshotter(options: MapSnapshotOptions(size: Size(width: 64, height: 64), sourceErrors: .skip))
        try lenient.setStyle(json: style, baseURL: dir.path + "/")
        lenient.setCamera(CameraOptions(center: Coordinate(latitude: 0, longitude: 0), zoom: 0))
        let snap = try lenient.snapshot()
        XCTAssertEqual(snap.warnings.count, 1)
        XCTAssertTrue(snap.warnings.first?.contains("tile 0/0/0") == true, "\(snap.warnings)")
        XCTAssertEqual(Array(snap.image.pixels[0..<4]), [255, 255, 255, 255])
        // The same snapshotter renders once the style no longer needs the broken tile.
        try s.setStyle(json: #"{"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background"}]}"#)
        XCTAssertNoThrow(try s.snapshot())
    }

    func testMissingMBTilesNamesTheFile() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 64, height: 64)))
        let m = message {
            try s.setStyle(json: #"{"version": 8, "sources": {"m": {"type": "vector", "url": "mbtiles://missing.mbtiles"}}, "layers": [{"id": "f", "type": "fill", "source": "m", "source-layer": "x"}]}"#,
                           baseURL: "/tmp/")
        }
        XCTAssertTrue(m.contains("missing.mbtiles"), m)
    }

    /// A style of one raster (or raster-dem) source whose only tile, 0/0/0, is `bytes`, over a white background.
    private func rasterStyle(_ dir: URL, type: String, bytes: [UInt8]) throws -> String {
        try Data(bytes).write(to: dir.appendingPathComponent("0-0-0.png"))
        let layer = type == "raster" ? "raster" : "hillshade"
        return """
        {"version": 8, "sources": {"r": {"type": "\(type)", "tiles": ["{z}-{x}-{y}.png"], "maxzoom": 0, "tileSize": 256}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                    {"id": "l", "type": "\(layer)", "source": "r"}]}
        """
    }

    /// Renders `style` under both policies: the error under `.fail`, the warnings and the top-left pixel under `.skip`.
    private func renderBoth(_ style: String, _ dir: URL) throws -> (error: String, warnings: [String], pixel: [UInt8]) {
        let camera = CameraOptions(center: Coordinate(latitude: 0, longitude: 0), zoom: 0)
        let strict = Snapshotter(options: MapSnapshotOptions(size: Size(width: 64, height: 64)))
        try strict.setStyle(json: style, baseURL: dir.path + "/")
        let error = message { _ = try strict.snapshot(camera: camera) }
        let lenient = Snapshotter(options: MapSnapshotOptions(size: Size(width: 64, height: 64), sourceErrors: .skip))
        try lenient.setStyle(json: style, baseURL: dir.path + "/")
        let snap = try lenient.snapshot(camera: camera)
        return (error, snap.warnings, Array(snap.image.pixels[0..<4]))
    }

    func testRasterTileThatIsNotAnImage() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let style = try rasterStyle(dir, type: "raster", bytes: Array("<html>503 Service Unavailable</html>".utf8))
        let (error, warnings, pixel) = try renderBoth(style, dir)
        XCTAssertTrue(error.hasPrefix("source \"r\": tile 0/0/0 (\(dir.path)/0-0-0.png): "), error)
        XCTAssertTrue(error.lowercased().contains("png") || error.lowercased().contains("image"), error)
        XCTAssertEqual(warnings, [error], "drawn around, with the same sentence as a warning")
        XCTAssertEqual(pixel, [255, 255, 255, 255])
    }

    func testDEMTileOfTheWrongSize() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = try PNGEncoder().encode(RGBAImage(width: 4, height: 2, pixels: [UInt8](repeating: 200, count: 32)))
        let style = try rasterStyle(dir, type: "raster-dem", bytes: png)
        let (error, warnings, pixel) = try renderBoth(style, dir)
        XCTAssertEqual(error, "source \"r\": tile 0/0/0 (\(dir.path)/0-0-0.png): a raster-dem tile must be square (and at least 2 pixels), this one is 4x2")
        XCTAssertEqual(warnings, [error])
        XCTAssertEqual(pixel, [255, 255, 255, 255])
    }
}
