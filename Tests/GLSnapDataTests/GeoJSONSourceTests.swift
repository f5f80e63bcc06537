import Foundation
import XCTest
import GLSnapStyle
@testable import GLSnapData

final class GeoJSONSourceTests: XCTestCase {
    func source(_ text: String, _ options: GeoJSONOptions = GeoJSONOptions()) throws -> GeoJSONSource {
        try GeoJSONSource(data: try JSON.parse(text), options: options)
    }

    func tile(_ s: GeoJSONSource, _ z: Int, _ x: Int, _ y: Int) throws -> [VectorFeature] {
        guard let id = TileID(z: z, x: x, y: y) else { XCTFail("bad id"); return [] }
        guard let t = try s.vectorTile(id) else { return [] }
        XCTAssertEqual(t.layers.count, 1)
        XCTAssertEqual(t.layers["_geojson"]?.extent, 8192)
        return t.layers["_geojson"]?.features ?? []
    }

    /// Mercator tile coordinate of a latitude, computed here independently of the source.
    func tileY(lat: Double, z: Int, y: Int) -> Int32 {
        let rad = lat * .pi / 180
        let world = (1 - log(tan(rad) + 1 / cos(rad)) / .pi) / 2
        return Int32((8192 * (world * Double(1 << z) - Double(y)) + 0.5).rounded(.down))
    }

    func signedArea(_ ring: [TilePoint]) -> Int64 {
        var a: Int64 = 0
        var j = ring.count - 1
        for i in ring.indices {
            a += Int64(ring[j].x) * Int64(ring[i].y) - Int64(ring[i].x) * Int64(ring[j].y); j = i
        }
        return a
    }

    func testPointAtOriginLandsAtTileCenterAndCorners() throws {
        let s = try source(#"{"type":"Point","coordinates":[0,0]}"#)
        XCTAssertEqual(s.info.type, .geojson); XCTAssertEqual(s.info.tileSize, 512); XCTAssertEqual(s.info.maxzoom, 18)
        let f = try tile(s, 0, 0, 0)
        XCTAssertEqual(f.count, 1)
        XCTAssertEqual(f.first?.geometryType, .point)
        XCTAssertEqual(f.first?.geometry, [[TilePoint(x: 4096, y: 4096)]])
        // At z1 the point is every tile's shared corner, inside each buffer.
        XCTAssertEqual(try tile(s, 1, 0, 0).first?.geometry, [[TilePoint(x: 8192, y: 8192)]])
        XCTAssertEqual(try tile(s, 1, 1, 1).first?.geometry, [[TilePoint(x: 0, y: 0)]])
        XCTAssertEqual(try tile(s, 1, 1, 0).first?.geometry, [[TilePoint(x: 0, y: 8192)]])
        // At z2 it lies 4096 units outside tile 2/0/0, beyond the 2048-unit buffer.
        XCTAssertTrue(try tile(s, 2, 0, 0).isEmpty)
        XCTAssertNil(try s.vectorTile(TileID(z: 2, x: 0, y: 0)!))
    }

    func testPolygonCoveringTileIsBufferRectangleWoundClockwise() throws {
        let s = try source(#"{"type":"Polygon","coordinates":[[[-170,-80],[170,-80],[170,80],[-170,80],[-170,-80]]]}"#)
        let f = try tile(s, 3, 3, 3)
        XCTAssertEqual(f.count, 1)
        XCTAssertEqual(f.first?.geometryType, .polygon)
        let ring = try XCTUnwrap(f.first?.geometry.first)
        XCTAssertEqual(f.first?.geometry.count, 1)
        XCTAssertEqual(ring.first, ring.last)
        XCTAssertEqual(Set(ring), [TilePoint(x: -2048, y: -2048), TilePoint(x: 10240, y: -2048),
                                   TilePoint(x: 10240, y: 10240), TilePoint(x: -2048, y: 10240)])
        XCTAssertEqual(ring.count, 5)
        XCTAssertEqual(signedArea(ring), 2 * 12288 * 12288)
    }

    func testHoleIsWoundCounterClockwise() throws {
        // Outer ring given clockwise on the map (wrong per RFC 7946), hole given counter-clockwise.
        let s = try source(#"""
            {"type":"Polygon","coordinates":[[[-60,-60],[-60,60],[60,60],[60,-60],[-60,-60]],
                                             [[-10,-10],[10,-10],[10,10],[-10,10],[-10,-10]]]}
            """#)
        let features = try tile(s, 0, 0, 0)
        XCTAssertEqual(features.count, 1, "inside the world: no antimeridian copies")
        let rings = try XCTUnwrap(features.first?.geometry)
        guard rings.count == 2 else { return XCTFail("rings: \(rings)") }
        XCTAssertGreaterThan(signedArea(rings[0]), 0)
        XCTAssertLessThan(signedArea(rings[1]), 0)
    }

    func testLineCrossingTileEdgeIsClippedAtBuffer() throws {
        let s = try source(#"{"type":"LineString","coordinates":[[-90,40],[90,40]]}"#)
        let f = try tile(s, 1, 1, 0)
        let y = tileY(lat: 40, z: 1, y: 0)
        // World x 0.25..0.75; tile 1/1/0 spans 0.5..1, so the west end is cut at the buffer edge.
        XCTAssertEqual(f.first?.geometry, [[TilePoint(x: -2048, y: y), TilePoint(x: 4096, y: y)]])
        XCTAssertEqual(f.first?.geometryType, .lineString)
        // A smaller buffer cuts closer.
        let narrow = try source(#"{"type":"LineString","coordinates":[[-90,40],[90,40]]}"#, GeoJSONOptions(buffer: 16))
        XCTAssertEqual(try tile(narrow, 1, 1, 0).first?.geometry, [[TilePoint(x: -256, y: y), TilePoint(x: 4096, y: y)]])
        let none = try source(#"{"type":"LineString","coordinates":[[-90,40],[90,40]]}"#, GeoJSONOptions(buffer: 0))
        XCTAssertEqual(try tile(none, 1, 1, 0).first?.geometry, [[TilePoint(x: 0, y: y), TilePoint(x: 4096, y: y)]])
    }

    func testLineMetricsRecordWhereEachPieceLiesAlongTheLine() throws {
        var options = GeoJSONOptions()
        options.lineMetrics = true
        let text = #"{"type":"Feature","properties":{"k":1},"geometry":{"type":"LineString","coordinates":[[-90,40],[90,40]]}}"#
        let s = try source(text, options)
        // World x 0.25..0.75. Tile 1/0/0 keeps x up to 0.625 (its buffer), tile 1/1/0 from 0.375.
        func clip(_ f: VectorFeature?) -> [Double] {
            [f?.property("mapbox_clip_start")?.numberValue ?? -1, f?.property("mapbox_clip_end")?.numberValue ?? -1]
        }
        let west = try tile(s, 1, 0, 0), east = try tile(s, 1, 1, 0)
        XCTAssertEqual(west.count, 1)
        XCTAssertEqual(clip(west.first)[0], 0, accuracy: 1e-9)
        XCTAssertEqual(clip(west.first)[1], 0.75, accuracy: 1e-9)
        XCTAssertEqual(clip(east.first)[0], 0.25, accuracy: 1e-9)
        XCTAssertEqual(clip(east.first)[1], 1, accuracy: 1e-9)
        XCTAssertEqual(east.first?.property("k"), .number(1))
        // Without lineMetrics the pieces carry no clip properties.
        XCTAssertNil(try tile(try source(text), 1, 1, 0).first?.property("mapbox_clip_start"))
    }

    func testLineLeavingAndReenteringBecomesTwoLines() throws {
        // Goes east out of tile 2/2/1's buffer and comes back: two pieces.
        let s = try source(#"{"type":"LineString","coordinates":[[10,40],[170,40],[170,30],[10,30]]}"#,
                           GeoJSONOptions(buffer: 0))
        let f = try tile(s, 2, 2, 1)
        XCTAssertEqual(f.first?.geometry.count, 2)
        XCTAssertEqual(f.first?.geometry[0].last?.x, 8192)
        XCTAssertEqual(f.first?.geometry[1].first?.x, 8192)
    }

    func testAntimeridianWrap() throws {
        let s = try source(#"{"type":"MultiPoint","coordinates":[[179,0]]}"#)
        // World x = 0.99722; the copy at -0.00278 falls in the west tiles' buffer.
        XCTAssertEqual(try tile(s, 1, 1, 1).first?.geometry, [[TilePoint(x: 8146, y: 0)]])
        XCTAssertEqual(try tile(s, 1, 0, 1).first?.geometry, [[TilePoint(x: -46, y: 0)]])
        // At z0 the copy is a second feature, just west of the tile.
        XCTAssertEqual(try tile(s, 0, 0, 0).map(\.geometry), [[[TilePoint(x: 8169, y: 4096)]], [[TilePoint(x: -23, y: 4096)]]])
    }

    func testPropertiesIdsAndGeometryCollections() throws {
        let s = try source(#"""
            {"type":"FeatureCollection","features":[
              {"type":"Feature","id":"abc","properties":{"name":"Ring road","lanes":4,"tags":[1,"a"]},
               "geometry":{"type":"Point","coordinates":[1,1]}},
              {"type":"Feature","id":7,"properties":null,
               "geometry":{"type":"GeometryCollection","geometries":[
                 {"type":"Point","coordinates":[2,2]},{"type":"LineString","coordinates":[[0,0],[3,3]]}]}},
              {"type":"Feature","properties":{},"geometry":null}
            ]}
            """#)
        let f = try tile(s, 0, 0, 0)
        XCTAssertEqual(f.count, 3)
        XCTAssertEqual(f[0].id, .string("abc"))
        XCTAssertEqual(f[0].properties, ["name": .string("Ring road"), "lanes": .number(4),
                                         "tags": .array([.number(1), .string("a")])])
        XCTAssertEqual(f[0].property("lanes"), .number(4))
        XCTAssertEqual(f[1].id, .number(7)); XCTAssertEqual(f[2].id, .number(7))
        XCTAssertEqual(f[1].geometryType, .point); XCTAssertEqual(f[2].geometryType, .lineString)
        XCTAssertEqual(f[1].properties, [:])
    }

    func testSimplificationDropsDetailBelowMaxzoomOnly() throws {
        // A 0.002-degree line at latitude 10 with a 0.00001-degree bump: 3.7 units high at z14.
        let text = #"{"type":"LineString","coordinates":[[0,10],[0.001,10.00001],[0.002,10]]}"#
        let s = try source(text, GeoJSONOptions(maxzoom: 14))
        XCTAssertNil(try s.vectorTile(TileID(z: 0, x: 0, y: 0)!), "shorter than the z0 tolerance")
        XCTAssertEqual(try tile(s, 10, 512, 483).first?.geometry.first?.count, 2)
        XCTAssertEqual(try tile(s, 14, 8192, 7734).first?.geometry.first?.count, 3)
        XCTAssertNil(try s.vectorTile(TileID(z: 15, x: 16384, y: 16383)!), "above maxzoom is the caller's to overzoom")
    }

    func testInvalidInputsNameThePath() {
        let cases: [(String, GeoJSONError)] = [
            ("42", .invalid(path: "", expected: "an object (FeatureCollection, Feature or geometry)")),
            (#"{"type":"Model","geometry":[1,2]}"#, .invalid(path: "type", expected: "a GeoJSON geometry type, not \"Model\"")),
            (#"{"type":"FeatureCollection"}"#, .invalid(path: "features", expected: "an array of features")),
            (#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":null},{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[1]]}}]}"#,
             .invalid(path: "features[1].geometry.coordinates[1]", expected: "a position [longitude, latitude] of finite numbers")),
            (#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Polygon","coordinates":[1,2]}}]}"#,
             .invalid(path: "features[0].geometry.coordinates[0]", expected: "an array of positions")),
            (#"{"type":"Feature","properties":3,"geometry":null}"#, .invalid(path: "properties", expected: "an object or null")),
            (#"{"type":"Feature","id":{},"geometry":null}"#, .invalid(path: "id", expected: "a number or a string")),
            (#"{"type":"Feature","properties":{}}"#, .invalid(path: "geometry", expected: "a geometry object or null")),
            (#"{"type":"GeometryCollection","geometries":[{"type":"Point"}]}"#,
             .invalid(path: "geometries[0].coordinates", expected: "coordinates for the Point")),
            (#"{"type":"FeatureCollection","features":[{"type":"Point","coordinates":[0,0]}]}"#,
             .invalid(path: "features[0].type", expected: "\"Feature\"")),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try source(text), text) { XCTAssertEqual($0 as? GeoJSONError, expected, text) }
        }
        XCTAssertThrowsError(try source(#"{"type":"MultiPoint","coordinates":[[0,0],[1,1],[2,2]]}"#,
                                        GeoJSONOptions(maxPositions: 2))) {
            XCTAssertEqual($0 as? GeoJSONError, .tooManyPositions(limit: 2))
        }
        XCTAssertEqual(GeoJSONError.invalid(path: "features[3].geometry.coordinates", expected: "an array of positions").description,
                       "invalid GeoJSON at features[3].geometry.coordinates: expected an array of positions")
    }

    func testNullGeometryOnlyGivesNoTiles() throws {
        let s = try source(#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":null}]}"#)
        XCTAssertNil(try s.vectorTile(TileID(z: 0, x: 0, y: 0)!))
    }
}
