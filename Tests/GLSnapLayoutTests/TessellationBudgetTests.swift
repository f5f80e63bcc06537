import XCTest
import GLSnapData
import GLSnapStyle
@testable import GLSnapLayout

/// Hostile geometry ends quickly with an error naming the layer, within the budget's memory.
final class TessellationBudgetTests: XCTestCase {
    private func layer(_ type: String) throws -> StyleLayer {
        let json = #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},"#
            + #" "layers": [{"id": "hostile", "type": "\#(type)", "source": "s"}]}"#
        return try XCTUnwrap(try Style(bytes: Array(json.utf8)).layers.first)
    }

    private func tile(_ type: GeometryType, _ rings: [[TilePoint]]) -> VectorLayer {
        VectorLayer(name: "s", extent: 8192, version: 2,
                    features: [VectorFeature(id: nil, geometryType: type, properties: [:], geometry: rings)])
    }

    /// `n` points spread at random over the tile, in random order: a ring that crosses itself
    /// everywhere (the case earcut splits over and over).
    static func selfIntersectingRing(_ n: Int) -> [TilePoint] {
        var rng = SystemRandomNumberGenerator()
        var ring = (0..<n).map { _ in TilePoint(x: Int32.random(in: 0..<8192, using: &rng), y: Int32.random(in: 0..<8192, using: &rng)) }
        ring.append(ring[0])
        return ring
    }

    private let canonical = TileID(z: 0, x: 0, y: 0)!
    private let defaults = TessellationBudget(maxElements: 4 << 20, triangulationStepsPerVertex: 1000)

    /// 20,000 crossing vertices took minutes in earcut's splitting; bounded, the layer is refused
    /// in well under a second with the polygon named.
    func testSelfIntersectingPolygonIsRefusedQuickly() throws {
        let source = tile(.polygon, [Self.selfIntersectingRing(20_000)])
        for type in ["fill", "fill-extrusion"] {
            let start = Date()
            XCTAssertThrowsError(try BucketBuilder.build(layer: try layer(type), from: source, zoom: 0, canonical: canonical, budget: defaults)) {
                guard case let .polygonTooComplex(layer, vertices, steps)? = $0 as? TessellationError else { return XCTFail("\($0)") }
                XCTAssertEqual(layer, "hostile")
                XCTAssertEqual(steps, vertices * 1000)
                XCTAssertTrue("\($0)".hasPrefix("layer \"hostile\": a polygon of \(vertices) vertices could not be triangulated"), "\($0)")
            }
            let elapsed = Date().timeIntervalSince(start)
            print("\(type): 20k self-intersecting vertices refused in \(elapsed) s")
            XCTAssertLessThan(elapsed, 20, "a hang guard: refused in well under a second when the machine is idle")
        }
    }

    /// Earcut gives up (nil) once out of steps, and is unchanged within them.
    func testEarcutStepBound() {
        let square: [Double] = [0, 0, 10, 0, 10, 10, 0, 10]
        XCTAssertEqual(earcut(square, maxSteps: 100)?.count, 6)
        XCTAssertEqual(earcut(square, maxSteps: 100), earcut(square))
        XCTAssertNil(earcut(square, maxSteps: 1))
        let ring = Self.selfIntersectingRing(2000).flatMap { [Double($0.x), Double($0.y)] }
        XCTAssertNil(earcut(ring, maxSteps: 2000 * 100))
    }

    /// Real polygons stay far under the default steps: the 20,000-vertex ring with 50 holes of
    /// LargeInputTests, and a fine circle, triangulate within 100 steps a vertex.
    func testOrdinaryPolygonsFitTheDefaultSteps() {
        var c: [Double] = []
        let n = 20_000
        for k in 0..<n {
            let a = Double(k) / Double(n) * 2 * Double.pi
            let r = 8000.0 + 300 * sin(a * 37)
            c += [(r * cos(a)).rounded(), (r * sin(a)).rounded()]
        }
        var holes: [Int] = []
        for h in 0..<50 {
            holes.append(c.count / 2)
            let cx = Double(h % 10) * 1000 - 4500, cy = Double(h / 10) * 1000 - 2000
            c += [cx, cy, cx, cy + 300, cx + 300, cy + 300, cx + 300, cy]
        }
        let bounded = earcut(c, holeIndices: holes, maxSteps: c.count / 2 * 100)
        XCTAssertNotNil(bounded)
        XCTAssertEqual(bounded, earcut(c, holeIndices: holes))
    }

    /// A line of a million points would take about ten million vertices and indices: refused
    /// from its point count before it is tessellated.
    func testHugeLineIsRefusedBeforeTessellation() throws {
        let points = (0..<1_000_000).map { TilePoint(x: Int32($0 % 8000), y: Int32(($0 * 7919) % 8000)) }
        let budget = TessellationBudget(maxElements: 1 << 20, triangulationStepsPerVertex: 1000)
        let start = Date()
        XCTAssertThrowsError(try BucketBuilder.build(layer: try layer("line"), from: tile(.lineString, [points]), zoom: 0,
                                                     canonical: canonical, budget: budget)) {
            XCTAssertEqual($0 as? TessellationError, .tooManyElements(layer: "hostile", elements: 2_000_000, limit: 1 << 20))
            XCTAssertEqual("\($0)", "layer \"hostile\": tessellated geometry needs over 1048576 vertices and indices (at least 2000000); over the limit Limits.maxTileGeometry")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 15, "a hang guard, not a timing check")
    }

    /// Features that fit one by one but not together: refused after the one that passes the budget.
    func testBudgetCountsTheWholeLayer() throws {
        let line = (0..<1000).map { TilePoint(x: Int32($0 * 8), y: Int32(($0 % 2) * 100)) }
        let source = VectorLayer(name: "s", extent: 8192, version: 2, features: (0..<20).map { _ in
            VectorFeature(id: nil, geometryType: .lineString, properties: [:], geometry: [line])
        })
        let l = try layer("line")
        let whole = try XCTUnwrap(try BucketBuilder.build(layer: l, from: source, zoom: 0, canonical: canonical, budget: .unlimited))
        XCTAssertNoThrow(try BucketBuilder.build(layer: l, from: source, zoom: 0, canonical: canonical,
                                                 budget: TessellationBudget(maxElements: whole.elementCount, triangulationStepsPerVertex: 1)))
        XCTAssertThrowsError(try BucketBuilder.build(layer: l, from: source, zoom: 0, canonical: canonical,
                                                     budget: TessellationBudget(maxElements: whole.elementCount / 2, triangulationStepsPerVertex: 1000))) {
            guard case .tooManyElements("hostile", _, whole.elementCount / 2)? = $0 as? TessellationError else { return XCTFail("\($0)") }
        }
    }
}
