import Foundation
import XCTest
import GLSnapStyle
@testable import GLSnapData

/// `cluster` on a GeoJSON source: points within the radius merge into clusters with
/// `cluster`, `cluster_id`, `point_count` and `point_count_abbreviated`; the source `filter`.
final class GeoJSONClusterTests: XCTestCase {
    /// Three points within a few degrees of (0, 0), one at (90, 0), a line (left out when clustering).
    private let data = #"""
    {"type": "FeatureCollection", "features": [
      {"type": "Feature", "id": 1, "properties": {"kind": "a"}, "geometry": {"type": "Point", "coordinates": [0, 0]}},
      {"type": "Feature", "id": 2, "properties": {"kind": "a"}, "geometry": {"type": "Point", "coordinates": [2, 0]}},
      {"type": "Feature", "id": 3, "properties": {"kind": "b"}, "geometry": {"type": "Point", "coordinates": [0, 2]}},
      {"type": "Feature", "id": 4, "properties": {"kind": "a"}, "geometry": {"type": "Point", "coordinates": [90, 0]}},
      {"type": "Feature", "id": 5, "properties": {}, "geometry": {"type": "LineString", "coordinates": [[0, 0], [10, 10]]}}]}
    """#

    private func features(_ options: GeoJSONOptions, z: Int, x: Int, y: Int) throws -> [VectorFeature] {
        let source = try GeoJSONSource(data: try JSON.parse(data), options: options)
        guard let id = TileID(z: z, x: x, y: y) else { XCTFail("bad tile id"); return [] }
        return try source.vectorTile(id)?.layers[GeoJSONSource.layerName]?.features ?? []
    }

    func testNearbyPointsClusterAtLowZoom() throws {
        var options = GeoJSONOptions()
        options.cluster = GeoJSONClusterOptions(radius: 50)
        // At zoom 0 the world is 512 px: 2 degrees is under 3 px, 90 degrees 128 px.
        let z0 = try features(options, z: 0, x: 0, y: 0)
        XCTAssertEqual(z0.count, 2, "one cluster and the far point; the line is left out")
        let cluster = try XCTUnwrap(z0.first { $0.properties["cluster"] == .bool(true) })
        XCTAssertEqual(cluster.properties["point_count"], .number(3))
        XCTAssertEqual(cluster.properties["point_count_abbreviated"], .number(3))
        XCTAssertEqual(cluster.id, cluster.properties["cluster_id"])
        // The weighted center: (2/3°, 2/3°) from the tile center at (4096, 4096).
        let p = cluster.geometry[0][0]
        XCTAssertEqual(Double(p.x), 4096 + 8192 * (2.0 / 3) / 360, accuracy: 1)
        XCTAssertLessThan(p.y, 4096)
        let lone = try XCTUnwrap(z0.first { $0.id == .number(4) })
        XCTAssertEqual(lone.properties, ["kind": .string("a")])
        XCTAssertEqual(lone.geometry, [[TilePoint(x: 6144, y: 4096)]])

        // Past clusterMaxZoom (here 3) every point stands alone.
        options.cluster?.maxZoom = 3
        let z4 = try features(options, z: 4, x: 8, y: 7) + features(options, z: 4, x: 8, y: 8)
        XCTAssertEqual(Set(z4.compactMap(\.id)), [.number(1), .number(2), .number(3)])
        XCTAssertTrue(z4.allSatisfy { $0.properties["cluster"] == nil })
    }

    func testMinPointsAndRadius() throws {
        var options = GeoJSONOptions()
        options.cluster = GeoJSONClusterOptions(radius: 50, minPoints: 4)
        XCTAssertEqual(try features(options, z: 0, x: 0, y: 0).count, 4, "three neighbors are fewer than minPoints")
        options.cluster = GeoJSONClusterOptions(radius: 1)
        XCTAssertEqual(try features(options, z: 0, x: 0, y: 0).count, 4, "1 px holds no two points at zoom 0")
    }

    func testSourceFilterKeepsMatchingFeatures() throws {
        var options = GeoJSONOptions()
        options.filter = Filter.parse(.array([.string("=="), .array([.string("get"), .string("kind")]), .string("a")]))
        XCTAssertNotNil(options.filter)
        options.cluster = GeoJSONClusterOptions(radius: 50)
        let z0 = try features(options, z: 0, x: 0, y: 0)
        let cluster = try XCTUnwrap(z0.first { $0.properties["cluster"] == .bool(true) })
        XCTAssertEqual(cluster.properties["point_count"], .number(2), "feature 3 (kind b) is filtered out")
    }

    /// `clusterProperties`: each cluster folds its points' mapped values; an operator name means
    /// `[op, ["accumulated"], ["get", name]]`, and `accumulated` takes any type (`any` folds booleans).
    func testClusterPropertiesFoldPointValues() throws {
        let json = try JSON.parse(#"""
        {"ids": ["+", ["get", "id_plus"]],
         "count_a": ["+", ["case", ["==", ["get", "kind"], "a"], 1, 0]],
         "most": ["max", ["*", 10, ["to-number", ["has", "kind"]]]],
         "has_b": ["any", ["==", ["get", "kind"], "b"]],
         "kinds": [["concat", ["accumulated"], ",", ["get", "kinds"]], ["get", "kind"]],
         "bad": ["+", ["get"]]}
        """#)
        let properties = try XCTUnwrap(GeoJSONClusterProperties(json))
        XCTAssertEqual(properties.rules.map(\.name), ["count_a", "has_b", "ids", "kinds", "most"], "the entry that does not compile is left out")
        var options = GeoJSONOptions()
        options.cluster = GeoJSONClusterOptions(radius: 50, properties: properties)
        let z0 = try features(options, z: 0, x: 0, y: 0)
        let cluster = try XCTUnwrap(z0.first { $0.properties["cluster"] == .bool(true) })
        XCTAssertEqual(cluster.properties["has_b"], .bool(true))
        XCTAssertEqual(cluster.properties["most"], .number(10))
        XCTAssertEqual(cluster.properties["count_a"], .number(2))
        XCTAssertEqual(cluster.properties["ids"], .null, "adding nulls fails, and a failed fold is null")
        let kinds = try XCTUnwrap(cluster.properties["kinds"]?.stringValue)
        XCTAssertEqual(kinds.split(separator: ",").sorted(), ["a", "a", "b"])
        XCTAssertEqual(cluster.properties["point_count"], .number(3), "the cluster's own properties stay")
        let lone = try XCTUnwrap(z0.first { $0.id == .number(4) })
        XCTAssertEqual(lone.properties, ["kind": .string("a")], "a lone point keeps its own properties only")
    }

    func testAbbreviatedCounts() {
        XCTAssertEqual(GeoJSONClusterIndex.abbreviated(999), .number(999))
        XCTAssertEqual(GeoJSONClusterIndex.abbreviated(1000), .string("1k"))
        XCTAssertEqual(GeoJSONClusterIndex.abbreviated(1234), .string("1.2k"))
        XCTAssertEqual(GeoJSONClusterIndex.abbreviated(15_400), .string("15k"))
    }
}
