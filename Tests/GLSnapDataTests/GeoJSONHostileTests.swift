import Foundation
import XCTest
import GLSnapStyle
@testable import GLSnapData

/// GeoJSON built to make indexing quadratic or explosive ends quickly within bounded memory.
final class GeoJSONHostileTests: XCTestCase {
    /// A line that zigzags between latitudes -30 and 30 with a little jitter: every point is
    /// significant, and its farthest point is always next to an end of each range.
    static func zigzag(points n: Int) -> JSON {
        var rng = SystemRandomNumberGenerator()
        let coords: [JSON] = (0..<n).map { k in
            .array([.number(-170 + 340 * Double(k) / Double(n)), .number((k % 2 == 0 ? -30 : 30) + Double.random(in: 0..<1, using: &rng))])
        }
        return .object(["type": .string("LineString"), "coordinates": .array(coords)])
    }

    private func points(_ tile: VectorTile?) -> Int {
        tile?.layers[GeoJSONSource.layerName]?.features.reduce(0) { $0 + $1.geometry.reduce(0) { $0 + $1.count } } ?? 0
    }

    /// The zigzag's coordinates as `GeoJSONProjection` lays them out: x, y (world units), rank.
    static func zigzagCoords(points n: Int) -> [Double] {
        var rng = SystemRandomNumberGenerator()
        var coords: [Double] = []
        coords.reserveCapacity(3 * n)
        for k in 0..<n {
            coords += [Double(k) / Double(n), (k % 2 == 0 ? 0.4 : 0.6) + Double.random(in: 0..<0.003, using: &rng), 0]
        }
        return coords
    }

    /// Douglas–Peucker on a million-point zigzag took 49 s (each split scans its range and the
    /// splits are unbalanced); bounded, the ranking ends in seconds and still simplifies most
    /// of it away (at zoom 0 the corners are closer than the tolerance across: a band).
    func testZigzagRanksQuickly() throws {
        let n = 1_000_000
        var coords = GeoJSONHostileTests.zigzagCoords(points: n)
        let tolerance = 0.375 / 512
        let start = Date()
        GeoJSONSimplify.rank(&coords, first: 0, last: coords.count - 3, sqTolerance: tolerance * tolerance)
        let elapsed = Date().timeIntervalSince(start)
        print("zigzag of \(n) points ranked in \(elapsed) s")
        // Debug build: 49 s unbounded, about 9 s bounded (a tenth of that in release).
        XCTAssertLessThan(elapsed, 40, "unbounded took 49 s in a debug build")
        let kept = stride(from: 2, to: coords.count, by: 3).filter { coords[$0] > tolerance * tolerance }.count
        print("kept \(kept) of \(n) points")
        XCTAssertLessThan(kept, n / 5)
        XCTAssertGreaterThan(kept, 1000)
    }

    /// Through the source: 300,000 zigzag points index quickly; the zoom-0 tile keeps them where
    /// their corners are far apart (a coarse zigzag), every one at maxzoom.
    func testZigzagLineIndexes() throws {
        let n = 300_000
        var options = GeoJSONOptions()
        options.indexMaxZoom = 0
        let source = try GeoJSONSource(data: GeoJSONHostileTests.zigzag(points: n), options: options)
        XCTAssertGreaterThan(points(try source.vectorTile(TileID(z: 0, x: 0, y: 0)!)), 0)
    }

    /// A straight line with points on it still simplifies to its ends, however many they are.
    func testCollinearPointsStillSimplify() throws {
        let coords: [JSON] = (0...200_000).map { .array([.number(-100 + Double($0) / 1000), .number(0)]) }
        let source = try GeoJSONSource(data: .object(["type": .string("LineString"), "coordinates": .array(coords)]))
        XCTAssertLessThanOrEqual(points(try source.vectorTile(TileID(z: 0, x: 0, y: 0)!)), 4)
    }

    /// The zigzag crosses every row of tiles, so cutting it at load to zoom 5 copied it dozens of
    /// times (8.7 GB for 3 million points); within `maxIndexedPoints` the cut stops early and
    /// deeper tiles are cut on request, the same as before.
    func testLoadTimeCutStaysWithinItsPointBudget() throws {
        let data = GeoJSONHostileTests.zigzag(points: 20_000)
        // Tiles of more than 1000 points are cut further at load (down to zoom 5).
        var small = GeoJSONOptions(indexMaxPoints: 1000)
        small.maxIndexedPoints = 50_000
        var deep = GeoJSONOptions(indexMaxPoints: 1000)
        deep.maxIndexedPoints = .max
        let bounded = try GeoJSONSource(data: data, options: small)
        let unbounded = try GeoJSONSource(data: data, options: deep)
        print("zigzag of 20,000 points: \(unbounded.indexedPoints) points cut at load unbounded, \(bounded.indexedPoints) within the budget")
        XCTAssertGreaterThan(unbounded.indexedPoints, 10 * 20_000)
        // The budget is checked before each tile is cut, so it is passed by the few tiles made last.
        XCTAssertLessThan(bounded.indexedPoints, 50_000 + 4 * 20_000)
        for id in [TileID(z: 0, x: 0, y: 0)!, TileID(z: 3, x: 2, y: 3)!, TileID(z: 5, x: 16, y: 15)!, TileID(z: 7, x: 70, y: 60)!] {
            XCTAssertEqual(points(try bounded.vectorTile(id)), points(try unbounded.vectorTile(id)), "\(id)")
        }
        XCTAssertGreaterThan(points(try bounded.vectorTile(TileID(z: 5, x: 16, y: 15)!)), 0)
    }
}
