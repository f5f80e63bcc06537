import Foundation
import XCTest
import GLSnapTestSupport
import GLSnapStyle
@testable import GLSnapData

final class GeoJSONStressTests: XCTestCase {
    struct LCG {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
    }

    func randomCollection(count: Int, seed: UInt64) -> JSON {
        var rng = LCG(state: seed)
        func pos(_ lon: Double, _ lat: Double, _ r: Double) -> JSON {
            .array([.number(lon + (rng.next() - 0.5) * r), .number(max(-89, min(89, lat + (rng.next() - 0.5) * r)))])
        }
        var features: [JSON] = []
        for i in 0..<count {
            let lon = rng.next() * 400 - 200, lat = rng.next() * 170 - 85, r = pow(10, rng.next() * 4 - 3)
            let n = 2 + Int(rng.next() * 30)
            let geometry: JSON
            switch i % 4 {
            case 0: geometry = .object(["type": .string("Point"), "coordinates": pos(lon, lat, r)])
            case 1: geometry = .object(["type": .string("LineString"), "coordinates": .array((0..<n).map { _ in pos(lon, lat, r) })])
            case 2:
                var ring = (0..<max(3, n)).map { _ in pos(lon, lat, r) }
                ring.append(ring[0])
                geometry = .object(["type": .string("Polygon"), "coordinates": .array([.array(ring)])])
            default: geometry = .object(["type": .string("MultiPoint"), "coordinates": .array((0..<n).map { _ in pos(lon, lat, r) })])
            }
            features.append(.object(["type": .string("Feature"), "id": .number(Double(i)),
                                     "properties": .object(["i": .number(Double(i))]), "geometry": geometry]))
        }
        return .object(["type": .string("FeatureCollection"), "features": .array(features)])
    }

    func testRandomCollectionTilesAtEveryZoomWithinBuffer() throws {
        let source = try GeoJSONSource(data: randomCollection(count: 2000, seed: 42), options: GeoJSONOptions(maxzoom: 10))
        var rng = LCG(state: 7)
        var tilesWithData = 0, features = 0
        for z in 0...10 {
            let n = 1 << z
            var ids: [TileID] = []
            if z <= 3 {
                for x in 0..<n { for y in 0..<n { ids.append(TileID(z: z, x: x, y: y)!) } }
            } else {
                for _ in 0..<60 { ids.append(TileID(z: z, x: Int(rng.next() * Double(n)), y: Int(rng.next() * Double(n)))!) }
            }
            for id in ids {
                guard let tile = try source.vectorTile(id) else { continue }
                tilesWithData += 1
                let layer = try XCTUnwrap(tile.layers["_geojson"])
                for f in layer.features {
                    features += 1
                    XCTAssertEqual(f.properties["i"], f.id)
                    for part in f.geometry {
                        for p in part {
                            // Everything lies inside the tile plus its 2048-unit buffer.
                            XCTAssert((-2048...10240).contains(p.x) && (-2048...10240).contains(p.y), "\(id): \(p)")
                        }
                    }
                    if f.geometryType == .polygon, let outer = f.geometry.first {
                        var area: Int64 = 0
                        var j = outer.count - 1
                        for i in outer.indices {
                            area += Int64(outer[j].x) * Int64(outer[i].y) - Int64(outer[i].x) * Int64(outer[j].y); j = i
                        }
                        XCTAssertGreaterThanOrEqual(area, 0, "\(id): first ring must be an outer ring")
                    }
                }
            }
        }
        XCTAssertGreaterThan(tilesWithData, 100)
        XCTAssertGreaterThan(features, 2000)
        XCTAssertNil(try source.vectorTile(TileID(z: 11, x: 0, y: 0)!))
    }

    func testConcurrentRequestsGiveTheSameTiles() throws {
        let data = randomCollection(count: 300, seed: 9)
        let serial = try GeoJSONSource(data: data, options: GeoJSONOptions(maxzoom: 12))
        let shared = try GeoJSONSource(data: data, options: GeoJSONOptions(maxzoom: 12))
        let ids = (0..<64).map { i in TileID(z: 8 + i % 5, x: (i * 37) % (1 << (8 + i % 5)), y: (i * 101) % (1 << (8 + i % 5)))! }
        let expected = try ids.map { try serial.vectorTile($0)?.layers["_geojson"]?.features.map(\.geometry) }
        let results = UnsafeMutableBufferPointer<[[[TilePoint]]]??>.allocate(capacity: ids.count)
        results.initialize(repeating: nil)
        defer { results.deallocate() }
        DispatchQueue.concurrentPerform(iterations: ids.count) { i in
            results[i] = .some((try? shared.vectorTile(ids[i]))?.layers["_geojson"]?.features.map(\.geometry))
        }
        for i in ids.indices { XCTAssertEqual(results[i] ?? nil, expected[i], "\(ids[i])") }
    }

    /// The render suite's GeoJSON files (local://data/*.geojson) all load; the invalid and
    /// malformed ones are refused with a path.
    func testRenderSuiteDataFiles() throws {
        let root = try SharedFolder.require("integration/data")
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path)
        var loaded = 0
        for name in names.sorted() where name.hasSuffix(".geojson") {
            let bytes = [UInt8](try Data(contentsOf: root.appendingPathComponent(name)))
            switch name {
            case "invalid.geojson":
                XCTAssertThrowsError(try GeoJSONSource(bytes: bytes)) {
                    XCTAssertEqual($0 as? GeoJSONError, .invalid(path: "", expected: "an object (FeatureCollection, Feature or geometry)"))
                }
            case "malformed.geojson":
                XCTAssertThrowsError(try GeoJSONSource(bytes: bytes)) {
                    XCTAssertEqual($0 as? GeoJSONError, .invalid(path: "type", expected: "a GeoJSON geometry type, not \"Model\""))
                }
            default:
                let source = try GeoJSONSource(bytes: bytes)
                // The tile at z14 holding the first position must have features (small lines
                // vanish at z0 below the simplification tolerance, as in geojson-vt).
                let first = try XCTUnwrap(firstPosition(try GeoJSONParser.parse(try JSON.parse(bytes))), name)
                let n = Double(1 << 14), rad = first.lat * .pi / 180
                let x = Int((first.lon / 360 + 0.5) * n)
                let y = Int((1 - log(tan(rad) + 1 / cos(rad)) / .pi) / 2 * n)
                XCTAssertNotNil(try source.vectorTile(try XCTUnwrap(TileID(z: 14, x: x, y: y))), name)
                loaded += 1
            }
        }
        XCTAssertEqual(loaded, 6)
    }

    func firstPosition(_ features: [GeoJSONFeature]) -> GeoJSONPosition? {
        func first(_ g: GeoJSONGeometry) -> GeoJSONPosition? {
            switch g {
            case .point(let p): return p
            case .multiPoint(let ps), .lineString(let ps): return ps.first
            case .multiLineString(let ls), .polygon(let ls): return ls.first?.first
            case .multiPolygon(let ps): return ps.first?.first?.first
            case .geometryCollection(let gs): return gs.lazy.compactMap(first).first
            }
        }
        return features.lazy.compactMap { first($0.geometry) }.first
    }
}
