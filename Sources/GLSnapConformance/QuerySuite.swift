import Foundation
import GLSnap
import GLSnapGL
import GLSnapStyle

/// The GL query-test suite (`<suite>/query/tests/<category>/<case>/style.json` beside
/// `expected.json`), judged like MapLibre's query harness: the case's operations are carried
/// out as the render runner does, `metadata.test.queryGeometry` (a point `[x, y]` or a box
/// `[[x1, y1], [x2, y2]]`) is queried with `queryOptions`, each feature is written as GeoJSON
/// without its `layer` (unless `metadata.skipLayerDelete`), and the list must deep-equal
/// `expected.json`: same order, same keys, numbers within 1e-10.
package struct QuerySuite {
    /// MapLibre's json-diff tolerance for numbers.
    package static let tolerance = 1e-10

    package var suiteDir: String
    package var filter: CaseFilter
    package var backend: Backend
    /// Where failing cases' `actual.json` go: `<outputDir>/query/<category>/<case>/`.
    package var outputDir: String
    package var verbose: Bool

    package init(suiteDir: String, filter: CaseFilter, backend: Backend, outputDir: String, verbose: Bool) {
        self.suiteDir = suiteDir; self.filter = filter; self.backend = backend
        self.outputDir = outputDir; self.verbose = verbose
    }

    package func run() throws -> SuiteReport {
        var report = SuiteReport(suite: "query")
        let all = try RenderSuite.cases(in: suiteDir, kind: "query", filter: filter)
        var index = 0
        while index < all.count {
            let category = all[index].category
            var passed = 0, total = 0
            while index < all.count, all[index].category == category {
                let c = all[index]
                let result = runCase(id: "\(c.category)/\(c.name)", folder: c.folder)
                if result.status == .passed { passed += 1 }
                if result.status != .skipped { total += 1 }
                if verbose, result.status != .passed { print("  \(result.id): \(result.status.rawValue) \(result.reason ?? "")") }
                report.add(result)
                index += 1
            }
            print("\(category): \(passed)/\(total) passed")
            fflush(stdout)
        }
        return report
    }

    /// One case; never throws: every problem becomes the case's reason.
    package func runCase(id: String, folder: String) -> CaseResult {
        let start = Date()
        var result = CaseResult(id: id, status: .failed, difference: nil, allowed: 0, reason: nil, seconds: 0)
        let outFolder = outputDir + "/query/" + id
        try? FileManager.default.removeItem(atPath: outFolder)
        do {
            guard FileManager.default.fileExists(atPath: folder + "/expected.json") else {
                result.status = .skipped
                result.reason = "no expected.json"
                return result
            }
            let expected = try JSON.parse(SuiteFiles.readText(folder + "/expected.json"))
            let text = try SuiteFiles.readText(folder + "/style.json")
            let style = try JSON.parse(text)
            var spec = RenderCaseSpec(style: style)
            // The image is not compared, so debug drawing does not matter; querySourceFeatures
            // between steps changes nothing and is run after them.
            let sourceQueries = spec.operations.filter { if case .unsupported("querySourceFeatures") = $0 { return true }; return false }.count
            spec.operations.removeAll { if case .unsupported("querySourceFeatures") = $0 { return true }; return false }
            spec.unsupported.removeAll { ["debug", "collisionDebug", "showOverdrawInspector", "operations not supported: querySourceFeatures"].contains($0) }
            guard spec.unsupported.isEmpty else { throw ConformanceIOError(message: spec.unsupported.joined(separator: "; ")) }
            let (snapshotter, refused) = try RenderSuite.prepare(styleText: text, spec: spec, suiteDir: suiteDir, backend: backend)
            defer { snapshotter.close() }
            let snapshot = try snapshotter.snapshot()
            result.warnings = refused + snapshot.warnings
            let test = style["metadata"]?["test"] ?? .null
            if sourceQueries > 0, let source = sourceQueryOperand(test) { _ = try snapshot.querySourceFeatures(source: source) }
            let features = try query(snapshot, test: test)
            let keepLayer = style["metadata"]?["skipLayerDelete"]?.boolValue == true
            let actual = JSON.array(features.map { f in
                guard !keepLayer, case .object(var o) = f.geoJSON else { return f.geoJSON }
                o["layer"] = nil
                return .object(o)
            })
            if QuerySuite.deepEqual(actual, expected) {
                result.status = .passed
            } else {
                result.reason = QuerySuite.difference(actual: actual, expected: expected)
                try? SuiteFiles.writeBytes(Array(actual.text.utf8), to: outFolder + "/actual.json")
            }
        } catch {
            result.status = .failed
            result.reason = "\(error)"
        }
        result.seconds = Date().timeIntervalSince(start)
        return result
    }

    /// The source named by the case's `querySourceFeatures` operation.
    private func sourceQueryOperand(_ test: JSON) -> String? {
        for op in test["operations"]?.arrayValue ?? [] {
            if let step = op.arrayValue, step.first?.stringValue == "querySourceFeatures" { return step.dropFirst().first?.stringValue }
        }
        return nil
    }

    /// The case's query: none (no queryGeometry: an empty answer, as the harness gives), a point or a box.
    private func query(_ snapshot: Snapshot, test: JSON) throws -> [QueriedFeature] {
        let raw = test["queryOptions"] ?? .null
        let options = QueryOptions(layers: raw["layers"]?.arrayValue?.compactMap(\.stringValue), filter: raw["filter"])
        guard let geometry = test["queryGeometry"]?.arrayValue else { return [] }
        if geometry.count == 2, let x = geometry[0].finiteNumber, let y = geometry[1].finiteNumber {
            return try snapshot.queryRenderedFeatures(at: Point(x: x, y: y), options: options)
        }
        let corners = geometry.compactMap { p -> Point? in
            guard let a = p.arrayValue, a.count == 2, let x = a[0].finiteNumber, let y = a[1].finiteNumber else { return nil }
            return Point(x: x, y: y)
        }
        guard corners.count == 2 else { throw ConformanceIOError(message: "metadata.test.queryGeometry is neither [x, y] nor [[x1, y1], [x2, y2]]") }
        return try snapshot.queryRenderedFeatures(in: (corners[0], corners[1]), options: options)
    }

    /// MapLibre's json-diff deepEqual: same types, numbers within `tolerance`, arrays in order,
    /// objects with the same keys.
    package static func deepEqual(_ a: JSON, _ b: JSON) -> Bool {
        switch (a, b) {
        case let (.number(x), .number(y)): return abs(x - y) < tolerance
        case let (.array(x), .array(y)): return x.count == y.count && zip(x, y).allSatisfy { deepEqual($0, $1) }
        case let (.object(x), .object(y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { deepEqual(value, $0) } ?? false }
        default: return a == b
        }
    }

    /// A short account of the first difference, for the report.
    package static func difference(actual: JSON, expected: JSON) -> String {
        let a = actual.arrayValue ?? [], e = expected.arrayValue ?? []
        if a.count != e.count { return "\(a.count) features, expected \(e.count)" + firstMismatch(a, e) }
        return "features differ" + firstMismatch(a, e)
    }

    private static func firstMismatch(_ a: [JSON], _ e: [JSON]) -> String {
        for (i, (x, y)) in zip(a, e).enumerated() where !deepEqual(x, y) {
            for key in Set((x.objectValue ?? [:]).keys).union((y.objectValue ?? [:]).keys).sorted() where !(x[key].flatMap { xv in y[key].map { deepEqual(xv, $0) } } ?? false) {
                return "; feature \(i): \(key) differs"
            }
            return "; feature \(i) differs"
        }
        return ""
    }
}
