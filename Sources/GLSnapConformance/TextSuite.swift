import Foundation

/// Runs cases that are judged by text (expression and validation suites): `check` returns nil
/// when a case passes, else what differed (a thrown error counts as unreadable input). Prints a
/// line per failing case, then `N passed, M failed`; writes PASS/FAIL lines to `reportPath`;
/// returns 0 when every case passed.
package func runTextCases(_ names: [String], reportPath: String?, check: (String) throws -> String?) -> Int32 {
    var passed = 0, failed = 0
    var report: [String] = []
    for name in names {
        let problem: String?
        do {
            problem = try check(name)
        } catch {
            problem = "unreadable: \(error)"
        }
        if let problem {
            failed += 1
            print("FAIL \(name): \(problem)")
            report.append("FAIL \(name): \(problem)")
        } else {
            passed += 1
            report.append("PASS \(name)")
        }
    }
    print("\(passed) passed, \(failed) failed")
    if let reportPath {
        try? (report.joined(separator: "\n") + "\n").write(toFile: reportPath, atomically: true, encoding: .utf8)
    }
    return failed == 0 ? 0 : 1
}
