import XCTest
@testable import GLSnapStyle

/// Seeded fuzzing of the expression compiler and evaluator: random expressions built from every
/// operator the spec names, and mutations of the conformance suite's expressions. Each must either
/// compile or be refused with errors; compiled ones are evaluated on a few features. A crash or a
/// hang fails the test run.
final class ExpressionFuzzTests: XCTestCase {
    /// SplitMix64: a small deterministic generator so failures reproduce.
    struct Rng {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E3779B97F4A7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
            z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
    }

    static let names = SpecTables.expressionNames + ["semiliteral", "linear", "exponential", "cubic-bezier", "bogus"]
    static let strings = ["", "a", "class", "name", "zoom", "$type", "Point", "red", "#0f0", "rgba(1,2,3,0.5)", "{name}", "motorway"]

    func scalar(_ r: inout Rng) -> JSON {
        switch r.below(6) {
        case 0: return .null
        case 1: return .bool(r.below(2) == 0)
        case 2: return .number([0, 1, -1, 0.5, 2, 1e300, -1e300, 3, 255, 1e9][r.below(10)])
        case 3: return .object(["a": .number(1), "params": .object(["c": .string("red")]), "case-sensitive": .bool(true)])
        default: return .string(Self.strings[r.below(Self.strings.count)])
        }
    }

    func randomExpression(_ r: inout Rng, depth: Int) -> JSON {
        if depth <= 0 || r.below(4) == 0 { return scalar(&r) }
        var a: [JSON] = [.string(Self.names[r.below(Self.names.count)])]
        for _ in 0..<r.below(6) { a.append(randomExpression(&r, depth: depth - 1)) }
        if r.below(5) == 0 { a.append(.array(a.dropFirst().map { $0 })) }
        return .array(a)
    }

    func mutate(_ j: JSON, _ r: inout Rng, depth: Int = 0) -> JSON {
        guard case .array(var a) = j, !a.isEmpty, depth < 12 else { return r.below(3) == 0 ? scalar(&r) : j }
        let i = r.below(a.count)
        switch r.below(6) {
        case 0: a.remove(at: i)
        case 1: a[i] = scalar(&r)
        case 2: a.append(a[i])
        case 3: a.swapAt(i, r.below(a.count))
        case 4: a[i] = randomExpression(&r, depth: 2)
        default: a[i] = mutate(a[i], &r, depth: depth + 1)
        }
        return .array(a)
    }

    static let specs: [JSON?] = [
        nil,
        .object(["type": .string("number"), "property-type": .string("data-driven"),
                 "expression": .object(["interpolated": .bool(true), "parameters": .array([.string("zoom"), .string("feature")])])]),
        .object(["type": .string("color"), "property-type": .string("data-constant"),
                 "expression": .object(["interpolated": .bool(true), "parameters": .array([.string("zoom")])])]),
        .object(["type": .string("formatted"), "property-type": .string("data-driven"), "tokens": .bool(true),
                 "expression": .object(["interpolated": .bool(false), "parameters": .array([.string("zoom"), .string("feature")])])]),
    ]

    func check(_ expression: JSON, _ r: inout Rng, compiled: inout Int, refused: inout Int) {
        let (e, errors) = StyleExpression.compile(expression, propertySpec: Self.specs[r.below(Self.specs.count)])
        guard let e else {
            XCTAssertFalse(errors.isEmpty, "refused without an error: \(expression)")
            refused += 1
            return
        }
        compiled += 1
        let features: [TestFeature] = [
            TestFeature(),
            TestFeature(geometryType: .lineString, featureID: .number(3), properties: ["class": .string("motorway"), "name": .string("A"), "a": .number(2)]),
            TestFeature(geometryType: .polygon, featureID: .string("x"), properties: ["class": .number(1), "name": .null, "a": .array([.number(1)])]),
        ]
        for (i, f) in features.enumerated() {
            var ctx = EvaluationContext(zoom: Double(i) * 7.5, feature: f)
            ctx.heatmapDensity = 0.5
            _ = try? e.evaluate(ctx)
        }
    }

    func testRandomExpressionsCompileOrAreRefused() {
        var r = Rng(state: 0x5EED)
        var compiled = 0, refused = 0
        for _ in 0..<6000 { check(randomExpression(&r, depth: 4), &r, compiled: &compiled, refused: &refused) }
        XCTAssertEqual(compiled + refused, 6000)
        XCTAssertGreaterThan(compiled, 100)
        XCTAssertGreaterThan(refused, 100)
    }

    func testMutatedSuiteExpressionsCompileOrAreRefused() throws {
        guard let shared = sharedDir() else { throw XCTSkip("../shared not present") }
        let root = shared.appendingPathComponent("style-spec/expression")
        var seeds: [JSON] = []
        let walker = FileManager.default.enumerator(atPath: root.path)
        while let rel = walker?.nextObject() as? String {
            guard rel.hasSuffix("test.json"), let d = FileManager.default.contents(atPath: root.appendingPathComponent(rel).path),
                  let t = try? JSON.parse(Array(d)), let e = t["expression"] else { continue }
            seeds.append(e)
        }
        XCTAssertGreaterThan(seeds.count, 400)
        var r = Rng(state: 42)
        var compiled = 0, refused = 0
        for i in 0..<5000 {
            var e = seeds[(i * 7919) % seeds.count]
            for _ in 0...r.below(3) { e = mutate(e, &r) }
            check(e, &r, compiled: &compiled, refused: &refused)
        }
        XCTAssertEqual(compiled + refused, 5000)
        XCTAssertGreaterThan(compiled, 300)
    }
}
