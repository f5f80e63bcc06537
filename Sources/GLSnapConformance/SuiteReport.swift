import Foundation
import GLSnapStyle

/// The outcome of one case.
package enum CaseStatus: String {
    case passed, failed, skipped
}

/// One line of the report.
package struct CaseResult {
    package var id: String
    package var status: CaseStatus
    /// The mismatched fraction against the best expected image, when a comparison was made.
    package var difference: Double?
    package var allowed: Double
    /// Why the case failed or was skipped; nil when it passed.
    package var reason: String?
    /// Wall time of the case in seconds.
    package var seconds: Double
    /// Problems the renderer drew around (broken sources or tiles).
    package var warnings: [String] = []
    /// `ImageComparer.digest` of the drawn image, when one was drawn.
    package var digest: String?
}

/// Counts, the summary line and the JSON report of a suite run.
package struct SuiteReport {
    package var suite: String
    package private(set) var results: [CaseResult] = []

    package init(suite: String) { self.suite = suite }

    package mutating func add(_ r: CaseResult) { results.append(r) }

    package func count(_ status: CaseStatus) -> Int { results.reduce(0) { $0 + ($1.status == status ? 1 : 0) } }

    /// `N passed, M failed`, with `, K skipped` when any were skipped.
    package var summaryLine: String {
        let skipped = count(.skipped)
        return "\(count(.passed)) passed, \(count(.failed)) failed" + (skipped > 0 ? ", \(skipped) skipped" : "")
    }

    /// Skip reasons with how many cases gave each, most frequent first.
    package var skipReasons: [(reason: String, count: Int)] {
        var counts: [String: Int] = [:]
        for r in results where r.status == .skipped { counts[r.reason ?? "unknown", default: 0] += 1 }
        return counts.map { ($0.key, $0.value) }.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
    }

    /// The report as JSON: totals and one object per case (id, status, difference, allowed, reason, seconds,
    /// warnings, digest).
    package func json(totalSeconds: Double) -> String {
        let cases: [JSON] = results.map { r in
            .object([
                "id": .string(r.id),
                "status": .string(r.status.rawValue),
                "difference": r.difference.map { .number($0) } ?? .null,
                "allowed": .number(r.allowed),
                "reason": r.reason.map { .string($0) } ?? .null,
                "seconds": .number((r.seconds * 1000).rounded() / 1000),
                "warnings": .array(r.warnings.map { .string($0) }),
                "digest": r.digest.map { .string($0) } ?? .null,
            ])
        }
        let report: JSON = .object([
            "suite": .string(suite),
            "passed": .number(Double(count(.passed))),
            "failed": .number(Double(count(.failed))),
            "skipped": .number(Double(count(.skipped))),
            "seconds": .number((totalSeconds * 1000).rounded() / 1000),
            "cases": .array(cases),
        ])
        return report.text + "\n"
    }

    /// A fraction with six decimals, as the summary lines print it.
    package static func format(_ value: Double) -> String { String(format: "%.6f", value) }

    package func write(to path: String, totalSeconds: Double) throws {
        try SuiteFiles.writeBytes(Array(json(totalSeconds: totalSeconds).utf8), to: path)
    }
}
