import XCTest
import GLSnapStyle
@testable import GLSnapData

final class TileURLSourceTests: XCTestCase {
    private func id(_ z: Int, _ x: Int, _ y: Int) throws -> TileID { try XCTUnwrap(TileID(z: z, x: x, y: y)) }

    /// A resolver for the render suite: local://X resolves to ../shared/integration/X.
    private func integrationResolver() throws -> ResourceResolver {
        let root = try sharedDirectory("integration").path
        return ResourceResolver(baseURL: nil) { url in
            url.hasPrefix("local://") ? root + "/" + url.dropFirst("local://".count) : nil
        }
    }

    private func style(_ path: String) throws -> JSON {
        try JSON.parse(try readBytes(try sharedDirectory(path)))
    }

    func testTemplateExpansion() throws {
        let t = try id(3, 3, 5)
        XCTAssertEqual(TileURLSource.expand("a/{z}/{x}/{y}.pbf", t, scheme: .xyz), "a/3/3/5.pbf")
        XCTAssertEqual(TileURLSource.expand("a/{z}/{x}/{y}.pbf", t, scheme: .tms), "a/3/3/2.pbf")
        // Bing's documented example: tile (3, 5) at level 3 has quadkey 213.
        XCTAssertEqual(TileURLSource.expand("q/{quadkey}{ratio}.png", t, scheme: .xyz), "q/213.png")
        XCTAssertEqual(TileURLSource.expand("q/{quadkey}{ratio}.png", t, scheme: .xyz, ratio: "@2x"), "q/213@2x.png")
        XCTAssertEqual(TileURLSource.expand("{prefix}/{z}", try id(5, 27, 10), scheme: .xyz), "ba/5")
        let source = TileURLSource(name: "s", templates: ["a/{x}", "b/{x}"], info: SourceInfo(type: .vector),
                                   resolver: ResourceResolver())
        XCTAssertEqual(source.url(for: try id(1, 0, 0)), "a/0")
        XCTAssertEqual(source.url(for: try id(1, 1, 0)), "b/1")
    }

    func testTMSSourceFromTheRenderSuite() throws {
        _ = try sharedDirectory("integration") // skips here without ../shared, not inside an assertion
        let definition = try XCTUnwrap(try style("integration/render/tests/tms/tms/style.json")["sources"]?["mapbox"])
        let source = try XCTUnwrap(try SourceFactory.make(name: "mapbox", definition: definition,
                                                          resolver: try integrationResolver()) as? TileURLSource)
        XCTAssertEqual(source.info.scheme, .tms)
        XCTAssertEqual(source.info.maxzoom, 14)
        XCTAssertEqual(source.info.tileSize, 512)
        XCTAssertEqual(source.url(for: try id(2, 1, 1)), "local://tiles/2-1-2.tms.mvt")
        let tile = try XCTUnwrap(try source.vectorTile(id(2, 1, 1)))
        XCTAssertFalse(tile.layers.isEmpty)
        XCTAssertNil(try source.rasterTile(id(2, 1, 1)))
    }

    func testTileJSONMergeAndBounds() throws {
        _ = try sharedDirectory("integration") // skips here without ../shared, not inside an assertion
        let definition = try XCTUnwrap(
            try style("integration/render/tests/tilejson-bounds/overwrite-bounds/style.json")["sources"]?["maplibre"])
        let source = try XCTUnwrap(try SourceFactory.make(name: "maplibre", definition: definition,
                                                          resolver: try integrationResolver()) as? TileURLSource)
        XCTAssertEqual(source.templates, ["local://tiles/{z}-{x}-{y}.mvt"], "tiles come from the TileJSON")
        XCTAssertEqual(source.info.bounds, [13.4043671, 52.4959407, 13.425247606101294, 52.5033795378269],
                       "the style's bounds win")
        XCTAssertEqual(source.info.maxzoom, 14)
        XCTAssertNotNil(try source.vectorTile(id(14, 8802, 5374)))
        // 14-8803-5374.mvt exists on disk but lies east of the bounds.
        XCTAssertNil(try source.vectorTile(id(14, 8803, 5374)))
        XCTAssertNil(try source.vectorTile(id(15, 17604, 10748)), "above maxzoom")
    }

    func testMissingTileFileIsEmptyNotError() throws {
        _ = try sharedDirectory("integration") // skips here without ../shared, not inside an assertion
        let definition = try XCTUnwrap(
            try style("integration/render/tests/sparse-tileset/overdraw/style.json")["sources"]?["maplibre"])
        let source = try XCTUnwrap(try SourceFactory.make(name: "maplibre", definition: definition,
                                                          resolver: try integrationResolver()))
        XCTAssertNil(try source.vectorTile(id(3, 2, 2)))
    }

    func testMBTilesURLRelativeToTheStyleFile() throws {
        let stylePath = try sharedDirectory("fixtures/styles/basic-v9-chicago.json").path
        let definition = try XCTUnwrap(try style("fixtures/styles/basic-v9-chicago.json")["sources"]?["mapbox"])
        let resolver = ResourceResolver(baseURL: "file://" + stylePath)
        let source = try XCTUnwrap(try SourceFactory.make(name: "mapbox", definition: definition, resolver: resolver)
                                   as? MBTilesSource)
        XCTAssertEqual(source.info.minzoom, 13)
        XCTAssertEqual(source.info.maxzoom, 13)
        XCTAssertEqual(source.layersOf(try id(13, 2100, 3045)).contains("road"), true)
        // The style's own keys win over the file's metadata.
        var overridden = try XCTUnwrap(definition.objectValue)
        overridden["maxzoom"] = .number(14)
        let wider = try XCTUnwrap(try SourceFactory.make(name: "mapbox", definition: .object(overridden),
                                                         resolver: resolver))
        XCTAssertEqual(wider.info.maxzoom, 14)
        XCTAssertEqual(wider.info.minzoom, 13)
    }

    func testFactoryDefaultsAndErrors() throws {
        let resolver = ResourceResolver(baseURL: "/tmp/")
        let plain = try XCTUnwrap(try SourceFactory.make(
            name: "r", definition: try JSON.parse("{\"type\": \"raster\", \"tiles\": [\"t/{z}/{x}/{y}.png\"]}"),
            resolver: resolver))
        XCTAssertEqual(plain.info.type, .raster)
        XCTAssertEqual(plain.info.tileSize, 512)
        XCTAssertEqual(plain.info.minzoom, 0)
        XCTAssertEqual(plain.info.maxzoom, 22)
        XCTAssertEqual(plain.info.scheme, .xyz)
        XCTAssertNil(try SourceFactory.make(name: "g", definition: try JSON.parse("{\"type\": \"geojson\", \"data\": {}}"),
                                            resolver: resolver))
        func message(_ text: String) -> String {
            do { _ = try SourceFactory.make(name: "s", definition: try JSON.parse(text), resolver: resolver); return "" } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(message("{\"type\": \"vectr\"}"), "source 's': unknown type 'vectr'")
        XCTAssertEqual(message("{\"type\": \"vector\"}"), "source 's': it has neither 'tiles' nor 'url'")
        XCTAssertEqual(message("{\"type\": \"vector\", \"tiles\": [\"a\"], \"minzoom\": 5, \"maxzoom\": 2}"),
                       "source 's': minzoom 5 is above maxzoom 2")
        XCTAssertEqual(message("{\"type\": \"vector\", \"tiles\": [\"a\"], \"scheme\": \"wms\"}"),
                       "source 's': 'scheme' must be \"xyz\" or \"tms\"")
        XCTAssertEqual(message("{\"type\": \"vector\", \"url\": \"missing/tiles.json\"}"),
                       "file not found: /tmp/missing/tiles.json (resolved from 'missing/tiles.json')")
        XCTAssertEqual(message("{\"type\": \"vector\", \"url\": \"mbtiles://../nowhere/x.mbtiles\"}"),
                       "file not found: /nowhere/x.mbtiles")
    }
}

private extension TileSource {
    func layersOf(_ id: TileID) -> Set<String> { Set(((try? vectorTile(id)) ?? nil)?.layers.keys ?? [:].keys) }
}
