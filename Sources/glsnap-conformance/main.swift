import Foundation
import GLSnapConformance
import GLSnapGL

// glsnap-conformance: runs the conformance suites and judges glsnap against their references.
// Exit codes: 0 every case passed, 1 a case failed (or the suite could not be read), 2 usage error.

enum ConformanceCommand {
    static let usage = """
usage: glsnap-conformance <command> [options]

commands:
  render  --suite DIR [--filter GLOB[,GLOB…]] [--report FILE.json] [--backend osmesa|egl]
          [--output DIR] [--verbose]
      Runs DIR/render/tests/<category>/<case>/style.json against expected*.png (pixelmatch
      threshold 0.13, anti-aliased pixels not counted, pass at mismatch <= metadata.test.allowed).
      A glob without '/' selects categories (line-*), one with '/' cases (line-cap/*); a
      leading '!' excludes: --filter 'fill-*,!fill-pattern'.
  maps    --suite DIR --root SHARED [--without-symbols] [--filter GLOB] [--report FILE.json]
          [--backend osmesa|egl] [--output DIR]
      Runs DIR/<case>/case.json (style path relative to SHARED) against expected.png, or
      expected-nosymbols.png with the style's symbol layers dropped (pixelmatch threshold 0.1,
      anti-aliased pixels counted, pass at mismatch <= 0.005).
  query   --suite DIR [--filter GLOB[,GLOB…]] [--report FILE.json] [--backend osmesa|egl]
          [--output DIR] [--verbose]
      Runs DIR/query/tests/<category>/<case>/style.json: draws it (operations as render does),
      queries metadata.test.queryGeometry with queryOptions and compares the features with
      expected.json as MapLibre's query harness does (order kept, numbers within 1e-10).
  expression --suite DIR [--report FILE.json]
      Expression cases (DIR/<case>/test.json).
  validation --suite DIR [--report FILE.json]
      Style-validation cases.

render, query and maps take --min-pass-rate R (0...1): exit 0 when at least that share of the cases
that ran passed, instead of only when all did.
Failing cases leave actual.png and diff.png under --output (default .build/conformance).
The last line printed is "N passed, M failed" (", K skipped" when any were skipped).
"""

    /// Parses the backend option.
    static func parseBackend(_ args: ConformanceArguments) throws -> Backend {
        guard let name = args.value("--backend") else { return .osmesa }
        guard let backend = Backend(rawValue: name) else {
            throw ConformanceUsageError("--backend must be osmesa or egl, got '\(name)'")
        }
        return backend
    }

    /// `--min-pass-rate R` (0...1): exit 0 when at least that share of the cases run passed.
    static func minPassRate(_ args: ConformanceArguments) throws -> Double? {
        try args.double("--min-pass-rate", in: 0...1)
    }

    /// Prints the summary (and skip reasons), writes the report, and gives the exit code.
    static func finish(_ report: SuiteReport, reportPath: String?, start: Date, minPassRate: Double? = nil) -> Int32 {
        let seconds = Date().timeIntervalSince(start)
        var code: Int32 = report.count(.failed) > 0 ? 1 : 0
        if let minPassRate {
            // A floor instead of all-or-nothing: the run passes when enough of the cases that ran did.
            let ran = report.count(.passed) + report.count(.failed)
            let rate = ran == 0 ? 0 : Double(report.count(.passed)) / Double(ran)
            print(String(format: "pass rate %.1f%% (floor %.1f%%)", rate * 100, minPassRate * 100))
            code = rate >= minPassRate ? 0 : 1
        }
        if let reportPath {
            do {
                try report.write(to: reportPath, totalSeconds: seconds)
            } catch {
                FileHandle.standardError.write(Data("error: \(error)\n".utf8))
                code = 1
            }
        }
        for (reason, count) in report.skipReasons { print("skipped \(count): \(reason)") }
        FileHandle.standardError.write(Data(String(format: "%d cases in %.1f s\n", report.results.count, seconds).utf8))
        print(report.summaryLine)
        return code
    }

    static func run(_ argv: [String]) -> Int32 {
        guard let command = argv.first else {
            FileHandle.standardError.write(Data((usage + "\n").utf8))
            return 2
        }
        if command == "--help" || command == "-h" || command == "help" {
            print(usage)
            return 0
        }
        let rest = argv.dropFirst()
        if rest.contains("--help") || rest.contains("-h") {
            print(usage)
            return 0
        }
        let start = Date()
        do {
            switch command {
            case "render":
                let args = try ConformanceArguments(rest, valued: ["--suite", "--filter", "--report", "--backend", "--output", "--min-pass-rate"],
                                                    flags: ["--verbose"], positionals: false)
                let suite = RenderSuite(suiteDir: try args.directory("--suite"), filter: CaseFilter(args.all("--filter")),
                                        backend: try parseBackend(args),
                                        outputDir: args.value("--output") ?? ".build/conformance", verbose: args.has("--verbose"))
                return finish(try suite.run(), reportPath: args.value("--report"), start: start, minPassRate: try minPassRate(args))
            case "query":
                let args = try ConformanceArguments(rest, valued: ["--suite", "--filter", "--report", "--backend", "--output", "--min-pass-rate"],
                                                    flags: ["--verbose"], positionals: false)
                let suite = QuerySuite(suiteDir: try args.directory("--suite"), filter: CaseFilter(args.all("--filter")),
                                       backend: try parseBackend(args),
                                       outputDir: args.value("--output") ?? ".build/conformance", verbose: args.has("--verbose"))
                return finish(try suite.run(), reportPath: args.value("--report"), start: start, minPassRate: try minPassRate(args))
            case "maps":
                let args = try ConformanceArguments(rest, valued: ["--suite", "--root", "--filter", "--report", "--backend", "--output", "--min-pass-rate"],
                                                    flags: ["--without-symbols"], positionals: false)
                let suite = MapsSuite(suiteDir: try args.directory("--suite"), root: try args.directory("--root"),
                                      withoutSymbols: args.has("--without-symbols"), filter: CaseFilter(args.all("--filter")),
                                      backend: try parseBackend(args), outputDir: args.value("--output") ?? ".build/conformance")
                return finish(try suite.run(), reportPath: args.value("--report"), start: start, minPassRate: try minPassRate(args))
            case "expression", "validation":
                let args = try ConformanceArguments(rest, valued: ["--suite", "--report"], flags: [], positionals: false)
                let dir = try args.directory("--suite")
                return command == "expression"
                    ? runExpressionSuite(suiteDir: dir, reportPath: args.value("--report"))
                    : runValidationSuite(suiteDir: dir, reportPath: args.value("--report"))
            default:
                throw ConformanceUsageError("unknown command '\(command)'")
            }
        } catch let e as ConformanceUsageError {
            FileHandle.standardError.write(Data("error: \(e)\n\n\(usage)\n".utf8))
            return 2
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            return 1
        }
    }

}

exit(ConformanceCommand.run(Array(CommandLine.arguments.dropFirst())))
