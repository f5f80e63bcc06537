import XCTest
import GLSnapData
@testable import GLSnapLayout

final class LargeInputTests: XCTestCase {
    /// A 20,000-vertex wobbly ring with 50 holes keeps its exact area once triangulated (rounding
    /// makes some vertices collinear, which earcut drops): the z-order path and bridges at scale.
    func testBigPolygonWithManyHoles() {
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
        let start = Date()
        let t = earcut(c, holeIndices: holes)
        let elapsed = Date().timeIntervalSince(start)
        func shoelace(_ s: Int, _ e: Int) -> Double {
            var a = 0.0
            var j = e - 1
            for i in s..<e { a += c[2 * j] * c[2 * i + 1] - c[2 * i] * c[2 * j + 1]; j = i }
            return abs(a) / 2
        }
        let expected = shoelace(0, n) - holes.map { shoelace($0, $0 + 4) }.reduce(0, +)
        var area = 0.0
        for k in stride(from: 0, to: t.count, by: 3) {
            let i = Int(t[k]), j = Int(t[k + 1]), l = Int(t[k + 2])
            area += abs((c[2 * j] - c[2 * i]) * (c[2 * l + 1] - c[2 * i + 1]) - (c[2 * l] - c[2 * i]) * (c[2 * j + 1] - c[2 * i + 1])) / 2
        }
        XCTAssertEqual(area, expected, accuracy: 1e-6 * expected)
        print("earcut \(c.count / 2) vertices: \(elapsed) s")
    }

    func testLongLineThroughput() {
        var pts: [TilePoint] = []
        for k in 0..<100_000 { pts.append(TilePoint(x: Int32(k % 8000), y: Int32((k * 7919) % 8000))) }
        var b = LineBucket()
        let start = Date()
        b.addLine(pts, join: .round, cap: .round)
        print("line 100k points: \(Date().timeIntervalSince(start)) s, \(b.vertexCount) vertices")
        XCTAssertEqual(b.indices.count % 3, 0)
        XCTAssertTrue(b.indices.allSatisfy { Int($0) < b.vertexCount })
    }
}
