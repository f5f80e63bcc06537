import XCTest
import GLSnapData
@testable import GLSnapLayout

final class EarcutTests: XCTestCase {
    /// |shoelace area| of a flat ring list (outer minus holes).
    private func ringArea(_ c: [Double], _ start: Int, _ end: Int) -> Double {
        var s = 0.0
        var j = end - 1
        for i in start..<end {
            s += c[2 * j] * c[2 * i + 1] - c[2 * i] * c[2 * j + 1]
            j = i
        }
        return abs(s) / 2
    }

    private func polygonArea(_ c: [Double], _ holes: [Int]) -> Double {
        let n = c.count / 2
        let starts = [0] + holes, ends = holes + [n]
        var a = ringArea(c, starts[0], ends[0])
        for k in 1..<starts.count { a -= ringArea(c, starts[k], ends[k]) }
        return a
    }

    private func trianglesArea(_ c: [Double], _ t: [UInt32]) -> Double {
        var a = 0.0
        for k in stride(from: 0, to: t.count, by: 3) {
            let i = Int(t[k]), j = Int(t[k + 1]), l = Int(t[k + 2])
            a += abs((c[2 * j] - c[2 * i]) * (c[2 * l + 1] - c[2 * i + 1]) - (c[2 * l] - c[2 * i]) * (c[2 * j + 1] - c[2 * i + 1])) / 2
        }
        return a
    }

    func testSquare() {
        let c: [Double] = [0, 0, 10, 0, 10, 10, 0, 10]
        let t = earcut(c)
        XCTAssertEqual(t.count, 6)
        XCTAssertEqual(trianglesArea(c, t), 100)
        XCTAssertTrue(t.allSatisfy { $0 < 4 })
    }

    func testSquareWithHole() {
        let c: [Double] = [0, 0, 10, 0, 10, 10, 0, 10, 3, 3, 3, 7, 7, 7, 7, 3]
        let t = earcut(c, holeIndices: [4])
        XCTAssertEqual(t.count, 8 * 3)  // n + 2h - 2 triangles for a simple polygon with holes
        XCTAssertEqual(trianglesArea(c, t), 100 - 16)
    }

    func testDegenerateInputNeverCrashes() {
        let cases: [([Double], [Int])] = [
            ([], []), ([1, 2], []), ([0, 0, 1, 1], []),
            ([0, 0, 5, 5, 10, 10], []),                 // collinear
            ([0, 0, 0, 0, 0, 0, 0, 0], []),             // all equal
            ([0, 0, 10, 0, 10, 0, 10, 10, 0, 10, 0, 0], []), // duplicates and closing point
            ([0, 0, 10, 0, 10, 10, 0, 10], [2, 1, 9]),  // nonsense hole indices
            ([0, 0, 10, 10, 10, 0, 0, 10], []),         // bow tie
            ([0, 0, 10, 0, 10, 10, 0, 10, 20, 20, 21, 20, 21, 21], [4]), // hole outside
            ([0, 0, 10, 0, 10, 10, 0, 10, 5, 5], [4]),  // single-point hole
            ([Double.nan, 0, 1, 0, 1, 1], []),
        ]
        for (c, h) in cases {
            let t = earcut(c, holeIndices: h)
            XCTAssertEqual(t.count % 3, 0, "\(c)")
            XCTAssertTrue(t.allSatisfy { Int($0) < c.count / 2 }, "\(c)")
        }
        XCTAssertEqual(earcut([0, 0, 5, 5, 10, 10]), [])
    }

    func testLargeStarUsesZOrderAndKeepsArea() {
        // A 200-point star with a square hole: over 80 vertices turns the z-order hash on.
        var c: [Double] = []
        for k in 0..<200 {
            let a = Double(k) / 200 * 2 * Double.pi
            let r = k % 2 == 0 ? 1000.0 : 700.0
            c.append((r * cos(a)).rounded())
            c.append((r * sin(a)).rounded())
        }
        c += [-100, -100, -100, 100, 100, 100, 100, -100]
        let t = earcut(c, holeIndices: [200])
        XCTAssertEqual(t.count, (204 + 2 - 2) * 3)
        XCTAssertEqual(trianglesArea(c, t), polygonArea(c, [200]), accuracy: 1e-6)
    }

    func testConcaveComb() {
        // A comb: 5 teeth, every ear test must reject the reflex notches.
        var c: [Double] = [0, 0, 100, 0]
        for k in stride(from: 4, through: 0, by: -1) {
            let x = Double(k) * 20
            c += [x + 20, 50, x + 10, 50, x + 10, 10]
            c += [x, 10]
        }
        c.removeLast(2)
        let t = earcut(c)
        XCTAssertEqual(t.count, (c.count / 2 - 2) * 3)
        XCTAssertEqual(trianglesArea(c, t), polygonArea(c, []), accuracy: 1e-9)
    }

    func testClassifyRings() {
        func sq(_ x: Int32, _ y: Int32, _ s: Int32, clockwise: Bool) -> [TilePoint] {
            let r = [TilePoint(x: x, y: y), TilePoint(x: x + s, y: y), TilePoint(x: x + s, y: y + s), TilePoint(x: x, y: y + s)]
            return clockwise ? r : r.reversed()
        }
        let outerA = sq(0, 0, 100, clockwise: true)
        let hole1 = sq(10, 10, 10, clockwise: false), hole2 = sq(40, 40, 30, clockwise: false)
        let degenerate = [TilePoint(x: 0, y: 0), TilePoint(x: 5, y: 5), TilePoint(x: 9, y: 9)]
        let outerB = sq(200, 0, 50, clockwise: true)
        XCTAssertGreaterThan(signedArea(outerA), 0)
        let polys = classifyRings([outerA, hole1, degenerate, hole2, outerB])
        XCTAssertEqual(polys.count, 2)
        XCTAssertEqual(polys[0], [outerA, hole1, hole2])
        XCTAssertEqual(polys[1], [outerB])
        // Limit: outer + the largest hole only.
        XCTAssertEqual(classifyRings([outerA, hole1, hole2], maxRings: 2), [[outerA, hole2]])
        XCTAssertEqual(classifyRings([]), [[]])
    }
}
