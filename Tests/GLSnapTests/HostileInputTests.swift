import XCTest
import GLSnap
import GLSnapImage

/// Inputs built to exhaust memory or time end quickly with an error naming what was too big:
/// tile errors (tessellation budgets, huge raster tiles) are drawn around with a warning under
/// `.skip` and fail the snapshot under `.fail`; style and source limits fail the load.
final class HostileInputTests: XCTestCase {
    private func message(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "(no error)"
        } catch {
            return "\(error)"
        }
    }

    private let camera = CameraOptions(center: Coordinate(latitude: 0, longitude: 0), zoom: 0)

    /// A style of one GeoJSON source (`data` inline) drawn by one layer of `type` over white.
    static func geoJSONStyle(_ data: String, type: String) -> String {
        """
        {"version": 8, "sources": {"g": {"type": "geojson", "data": \(data)}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                    {"id": "hostile", "type": "\(type)", "source": "g"}]}
        """
    }

    static func lineString(points n: Int) -> String {
        let coords = (0..<n).map { k in "[\(-170 + 340 * Double(k) / Double(n)),\(k % 2 == 0 ? -30 : 30)]" }
        return #"{"type": "LineString", "coordinates": ["# + coords.joined(separator: ",") + "]}"
    }

    /// Renders under `.fail` (the error) and `.skip` (the warnings and the top-left pixel).
    private func renderBoth(_ style: String, limits: Limits, baseURL: String? = nil) throws -> (error: String, warnings: [String], pixel: [UInt8]) {
        let strict = Snapshotter(options: MapSnapshotOptions(size: Size(width: 64, height: 64), limits: limits))
        try strict.setStyle(json: style, baseURL: baseURL)
        let error = message { _ = try strict.snapshot(camera: camera) }
        let lenient = Snapshotter(options: MapSnapshotOptions(size: Size(width: 64, height: 64), limits: limits, sourceErrors: .skip))
        try lenient.setStyle(json: style, baseURL: baseURL)
        let snap = try lenient.snapshot(camera: camera)
        return (error, snap.warnings, Array(snap.image.pixels[0..<4]))
    }

    func testStyleWithTooManyLayersIsRefusedAtLoad() throws {
        let layers = (0...Limits.default.maxStyleLayers).map { #"{"id": "b\#($0)", "type": "background"}"# }
        let style = #"{"version": 8, "sources": {}, "layers": ["# + layers.joined(separator: ",") + "]}"
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 64, height: 64)))
        let start = Date()
        XCTAssertEqual(message { try s.setStyle(json: style) },
                       "style inline JSON: it has 10001 layers, over the limit of 10000 (Limits.maxStyleLayers)")
        XCTAssertLessThan(Date().timeIntervalSince(start), 20)
        var limits = Limits()
        limits.maxStyleLayers = 2
        let small = Snapshotter(options: MapSnapshotOptions(size: Size(width: 64, height: 64), limits: limits))
        XCTAssertTrue(message { try small.setStyle(json: DeadlineTests.slowStyle(layers: 2)) }.contains("3 layers, over the limit of 2"))
        XCTAssertNoThrow(try small.setStyle(json: DeadlineTests.slowStyle(layers: 1)))
    }

    /// A tile layer over `Limits.maxTileGeometry` is a tile error naming source, tile and layer.
    func testTileLayerOverItsGeometryBudget() throws {
        var limits = Limits()
        limits.maxTileGeometry = 10_000
        let style = HostileInputTests.geoJSONStyle(HostileInputTests.lineString(points: 20_000), type: "line")
        let (error, warnings, pixel) = try renderBoth(style, limits: limits)
        XCTAssertTrue(error.hasPrefix("source \"g\": tile 0/0/0: layer \"hostile\": tessellated geometry needs over 10000 vertices and indices "), error)
        XCTAssertTrue(error.hasSuffix("; over the limit Limits.maxTileGeometry"), error)
        XCTAssertEqual(warnings, [error], "drawn around, with the same sentence as a warning")
        XCTAssertEqual(pixel, [255, 255, 255, 255])
        // Within the default budget the same line is drawn.
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 64, height: 64)))
        try s.setStyle(json: style)
        XCTAssertEqual(try s.snapshot(camera: camera).warnings, [])
    }

    /// The frame's tile layers together over `Limits.maxSnapshotGeometry`: the tile layer that
    /// passes it is the tile error.
    func testSnapshotOverItsGeometryBudget() throws {
        var limits = Limits()
        limits.maxSnapshotGeometry = 150_000
        let data = HostileInputTests.lineString(points: 4_000)
        let style = """
        {"version": 8, "sources": {"g": {"type": "geojson", "data": \(data)}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                    {"id": "a", "type": "line", "source": "g"}, {"id": "b", "type": "line", "source": "g"},
                    {"id": "c", "type": "line", "source": "g"}]}
        """
        let (error, warnings, _) = try renderBoth(style, limits: limits)
        XCTAssertTrue(error.hasPrefix("source \"g\": tile 0/0/0: layer \"b\": the snapshot's tessellated geometry needs over 150000 vertices and indices"), error)
        XCTAssertTrue(error.hasSuffix("over the limit Limits.maxSnapshotGeometry"), error)
        XCTAssertEqual(warnings.count, 2, "b and c are drawn around: \(warnings)")
    }

    /// 20,000 vertices crossing everywhere: earcut's splitting ran for about a minute.
    func testSelfIntersectingPolygonEndsQuickly() throws {
        var rng = SystemRandomNumberGenerator()
        var ring = (0..<20_000).map { _ in "[\(Double.random(in: -60...60, using: &rng)),\(Double.random(in: -60...60, using: &rng))]" }
        ring.append(ring[0])
        var limits = Limits()
        limits.triangulationStepsPerVertex = 1000
        let style = HostileInputTests.geoJSONStyle(#"{"type": "Polygon", "coordinates": [["# + ring.joined(separator: ",") + "]]}", type: "fill")
        let start = Date()
        let (error, warnings, _) = try renderBoth(style, limits: limits)
        let elapsed = Date().timeIntervalSince(start)
        print("self-intersecting polygon, both policies: \(elapsed) s")
        XCTAssertTrue(error.hasPrefix("source \"g\": tile 0/0/0: layer \"hostile\": a polygon of "), error)
        XCTAssertTrue(error.contains("could not be triangulated within") && error.contains("Limits.triangulationStepsPerVertex"), error)
        XCTAssertEqual(warnings, [error])
        XCTAssertLessThan(elapsed, 40)
    }

    /// A raster tile over `Limits.maxRasterTilePixels` is refused from its header and drawn around.
    func testHugeRasterTileIsRefused() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let side = 2049
        let png = try PNGEncoder().encode(RGBAImage(width: side, height: side, pixels: [UInt8](repeating: 128, count: side * side * 4)))
        try Data(png).write(to: dir.appendingPathComponent("0-0-0.png"))
        let style = """
        {"version": 8, "sources": {"r": {"type": "raster", "tiles": ["{z}-{x}-{y}.png"], "maxzoom": 0, "tileSize": 256}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                    {"id": "l", "type": "raster", "source": "r"}]}
        """
        let (error, warnings, pixel) = try renderBoth(style, limits: Limits(), baseURL: dir.path + "/")
        XCTAssertEqual(error, "source \"r\": tile 0/0/0 (\(dir.path)/0-0-0.png): the image is 2049x2049 pixels, over the limit of "
                       + "4194304 pixels a raster tile (Limits.maxRasterTilePixels)")
        XCTAssertEqual(warnings, [error])
        XCTAssertEqual(pixel, [255, 255, 255, 255])
    }

    /// More GeoJSON positions than `Limits.maxGeoJSONPositions`: the source is refused, named.
    func testGeoJSONOverItsPositionLimit() throws {
        var limits = Limits()
        limits.maxGeoJSONPositions = 1000
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 64, height: 64), limits: limits))
        let m = message { try s.setStyle(json: HostileInputTests.geoJSONStyle(HostileInputTests.lineString(points: 1001), type: "line")) }
        XCTAssertTrue(m.hasPrefix("source \"g\": GeoJSON holds more than 1000 positions"), m)
        XCTAssertNoThrow(try s.setStyle(json: HostileInputTests.geoJSONStyle(HostileInputTests.lineString(points: 1000), type: "line")))
    }
}
