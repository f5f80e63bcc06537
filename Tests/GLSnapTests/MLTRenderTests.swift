import Foundation
import GLSnap
import GLSnapData
import GLSnapImage
import XCTest

/// MapLibre Tiles made from the Chicago MBTiles by tools/mbtiles-to-mlt.py render the map the
/// Mapbox Vector Tiles do.
final class MLTRenderTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws { dir = try TestPaths.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    private var mbtilesPath: String {
        TestPaths.shared.appendingPathComponent("fixtures/tiles/chicago-z13.mbtiles").path
    }

    /// Converts the Chicago MBTiles; skips when ../shared or python3 is missing.
    private func convert() throws -> String {
        _ = try TestPaths.requireShared()
        guard let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("python3 is not installed")
        }
        let output = dir.appendingPathComponent("chicago-mlt.mbtiles").path
        let script = TestPaths.root.appendingPathComponent("tools/mbtiles-to-mlt.py").path
        let result = try runProcess(python, [script, mbtilesPath, output])
        XCTAssertEqual(result.status, 0, result.stderr)
        return output
    }

    /// Every tile decodes to the same layers, feature counts, ids and properties in both encodings.
    func testEveryTileDecodesToTheSameFeatures() throws {
        let mvt = try MBTilesSource(path: try { _ = try TestPaths.requireShared(); return mbtilesPath }())
        let mlt = try MBTilesSource(path: try convert())
        XCTAssertEqual(mlt.info.vectorEncoding, .mlt, "the MBTiles format row \"mlt\" selects the decoder")
        var tiles = 0, features = 0
        var mvtSeconds = 0.0, mltSeconds = 0.0
        for x in 2090...2110 {
            for y in 3030...3055 {
                let id = TileID(z: 13, x: x, y: y)!
                guard let mvtBytes = try mvt.tileData(id), let mltBytes = try mlt.tileData(id) else { continue }
                var t0 = Date()
                let a = try VectorTile.decode(mvtBytes)
                mvtSeconds += Date().timeIntervalSince(t0)
                t0 = Date()
                let b = try VectorTile.decode(mltBytes, encoding: .mlt)
                mltSeconds += Date().timeIntervalSince(t0)
                tiles += 1
                for (name, layer) in a.layers where !layer.features.isEmpty {
                    guard let other = b.layers[name] else { XCTFail("\(id): layer \(name) is missing"); continue }
                    XCTAssertEqual(other.extent, layer.extent)
                    XCTAssertEqual(other.features.count, layer.features.count, "\(id) \(name)")
                    for (f, g) in zip(layer.features, other.features) {
                        XCTAssertEqual(f.id, g.id)
                        XCTAssertEqual(f.geometryType, g.geometryType)
                        XCTAssertEqual(f.properties.count, g.properties.count, "\(id) \(name)")
                        for (key, value) in f.properties where g.properties[key] != value {
                            // The encoder writes a key of mixed types as a string column.
                            XCTAssertNotNil(g.properties[key]?.stringValue, "\(id) \(name) \(key)")
                        }
                        features += 1
                    }
                }
            }
        }
        XCTAssertEqual(tiles, 30)
        XCTAssertGreaterThan(features, 1000)
        print(String(format: "MLT decode benchmark: %d tiles, %d features: MVT %.1f ms, MLT %.1f ms (debug build)",
                     tiles, features, mvtSeconds * 1000, mltSeconds * 1000))
    }

    func testRendersTheSameImageAsTheMVTTiles() throws {
        let shared = try TestPaths.requireShared()
        let stylesDir = shared.appendingPathComponent("fixtures/styles")
        let styleText = try String(contentsOf: stylesDir.appendingPathComponent("bright-v9-chicago.json"), encoding: .utf8)
        let options = MapSnapshotOptions(size: Size(width: 300, height: 200), pixelRatio: 1)
        let camera = CameraOptions(center: Coordinate(latitude: 41.87, longitude: -87.66), zoom: 13.6, bearing: 20)
        func render(_ source: String) throws -> RGBAImage {
            let s = Snapshotter(options: options)
            let text = styleText.replacingOccurrences(of: "\"url\": \"mbtiles://../tiles/chicago-z13.mbtiles\"", with: source)
            XCTAssertTrue(text.contains(source), "the style's source was replaced")
            try s.setStyle(json: text, baseURL: stylesDir.path + "/")
            return try s.snapshot(camera: camera).image
        }
        let expected = try render("\"url\": \"mbtiles://../tiles/chicago-z13.mbtiles\"")
        let actual = try render("\"url\": \"mbtiles://\(try convert())\", \"encoding\": \"mlt\"")
        XCTAssertEqual(actual.pixels.count, expected.pixels.count)
        var differing = 0
        for i in stride(from: 0, to: min(actual.pixels.count, expected.pixels.count), by: 4)
        where (0..<4).contains(where: { actual.pixels[i + $0] != expected.pixels[i + $0] }) {
            differing += 1
        }
        let fraction = Double(differing) / Double(expected.pixels.count / 4)
        XCTAssertLessThanOrEqual(fraction, 0.0001, "\(differing) pixels differ")
        XCTAssertGreaterThan(Set(expected.pixels).count, 10, "the map is drawn, not blank")
    }
}
