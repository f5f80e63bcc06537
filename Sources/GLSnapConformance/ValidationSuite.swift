import Foundation
import GLSnapStyle

/// Runs every `<suiteDir>/*.input.json` style-validation case: validates the input with
/// `validateStyle` and compares the problems with `*.output.json` as multisets of (JSON path,
/// line). Message wording is not compared. Prints one line per failing case with what was missing
/// and what was extra, then `N passed, M failed`; returns 0 when all pass.
package func runValidationSuite(suiteDir: String, reportPath: String?) -> Int32 {
    let root = URL(fileURLWithPath: suiteDir)
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: root.path) else {
        print("cannot read validation suite at \(suiteDir)")
        return 1
    }
    let cases = names.filter { $0.hasSuffix(".input.json") }.sorted().map { String($0.dropLast(".input.json".count)) }
    return runTextCases(cases, reportPath: reportPath) { name in
        let bytes = try Data(contentsOf: root.appendingPathComponent(name + ".input.json"))
        let expected = try JSON.parse(Array(try Data(contentsOf: root.appendingPathComponent(name + ".output.json"))))
        return checkValidationCase(got: validateStyle(Array(bytes)), expected: expected.arrayValue ?? [])
    }
}

/// nil when both sides hold the same (path, line) pairs, as many times each.
package func checkValidationCase(got: [StyleProblem], expected: [JSON]) -> String? {
    func key(_ path: String, _ line: Int?) -> String { "\(path)@\(line.map(String.init) ?? "-")" }
    var want: [String: Int] = [:], have: [String: Int] = [:]
    for e in expected {
        let (path, _) = splitValidationMessage(e["message"]?.stringValue ?? "")
        want[key(path, e["line"]?.numberValue.map { Int($0) }), default: 0] += 1
    }
    for p in got { have[key(p.path, p.line), default: 0] += 1 }
    if want == have { return nil }
    var missing: [String] = [], extra: [String] = []
    for (k, n) in want where (have[k] ?? 0) < n { missing.append(k) }
    for (k, n) in have where (want[k] ?? 0) < n {
        extra.append(k + " (" + (got.first { key($0.path, $0.line) == k }?.message ?? "") + ")")
    }
    return "missing \(missing.sorted()) extra \(extra.sorted())"
}

/// `layers[0].paint.fill-color: color expected` → (`layers[0].paint.fill-color`, `color expected`);
/// a message without a path prefix gives an empty path.
package func splitValidationMessage(_ m: String) -> (String, String) {
    guard let r = m.range(of: ": ") else { return ("", m) }
    let prefix = m[..<r.lowerBound]
    if prefix.contains(" ") || prefix.contains("\"") { return ("", m) }
    return (String(prefix), String(m[r.upperBound...]))
}
