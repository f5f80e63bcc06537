import Foundation
import GLSnapCommandLine
import XCTest

/// The reader both `glsnap` and `glsnap-conformance` use: the same words for the same mistakes.
final class CommandLineArgumentsTests: XCTestCase {
    private func error(_ args: [String], valued: Set<String> = ["--zoom", "--suite", "-o"], flags: Set<String> = ["--strict"],
                       positionals: Bool = true) -> String? {
        do {
            _ = try CommandLineArguments(args, valued: valued, flags: flags, positionals: positionals)
            return nil
        } catch let e as UsageError {
            return e.description
        } catch {
            return "not a UsageError: \(error)"
        }
    }

    func testMistakesAreNamed() {
        XCTAssertEqual(error(["--zoom"]), "--zoom needs a value")
        XCTAssertEqual(error(["--bogus"]), "unknown option --bogus")
        XCTAssertEqual(error(["--bogus=3"]), "unknown option --bogus")
        XCTAssertEqual(error(["-x"]), "unknown option -x")
        XCTAssertEqual(error(["--strict=yes"]), "--strict takes no value")
        XCTAssertEqual(error(["x.json"], positionals: false), "unexpected argument 'x.json'")
        XCTAssertNil(error(["x.json"]))
    }

    func testValuesFlagsAndPositionals() throws {
        let a = try CommandLineArguments(["render", "--zoom", "3", "--center", "-87.65,41.87", "--zoom=4", "-o", "-", "--strict", "-12"],
                                         valued: ["--zoom", "--center", "-o"], flags: ["--strict"])
        XCTAssertEqual(a.positionals, ["render", "-12"])
        XCTAssertEqual(a.value("--zoom"), "4")
        XCTAssertEqual(a.options["--zoom"], "4")
        XCTAssertEqual(a.all("--zoom"), ["3", "4"])
        XCTAssertEqual(a.value("-o"), "-")
        XCTAssertEqual(try a.doubles("--center", count: 2), [-87.65, 41.87])
        XCTAssertTrue(a.has("--strict"))
        XCTAssertFalse(a.has("--verbose"))
        XCTAssertNil(a.value("--size"))
    }

    func testBadNumbers() throws {
        let a = try CommandLineArguments(["--zoom", "abc", "--workers", "0", "--ratio", "1e400", "--rate", "2", "--center", "1,x"],
                                         valued: ["--zoom", "--workers", "--ratio", "--rate", "--center"], flags: [])
        func message(_ body: () throws -> Any?) -> String? {
            do { _ = try body(); return nil } catch { return "\(error)" }
        }
        XCTAssertEqual(message { try a.double("--zoom") }, "--zoom expects a number, got 'abc'")
        XCTAssertEqual(message { try a.double("--ratio") }, "--ratio expects a number, got '1e400'")
        XCTAssertEqual(message { try a.int("--zoom", in: 0...22) }, "--zoom expects a whole number, got 'abc'")
        XCTAssertEqual(message { try a.int("--workers", in: 1...64) }, "--workers must be a whole number within 1...64, got 0")
        XCTAssertEqual(message { try a.double("--rate", in: 0...1) }, "--rate must be within 0...1, got 2")
        XCTAssertEqual(message { try a.doubles("--center", count: 2) }, "--center expects 2 comma-separated numbers, got '1,x'")
        XCTAssertEqual(try a.int("--missing", in: 0...1), nil)
    }

    func testRequiredAndDirectory() throws {
        let dir = FileManager.default.temporaryDirectory.path
        let a = try CommandLineArguments(["--suite", dir, "--report", "/nonexistent/x"], valued: ["--suite", "--report", "--root"], flags: [])
        XCTAssertEqual(try a.directory("--suite"), (dir as NSString).standardizingPath)
        XCTAssertThrowsError(try a.directory("--report")) { XCTAssertEqual("\($0)", "--report /nonexistent/x: no such directory") }
        XCTAssertThrowsError(try a.required("--root")) { XCTAssertEqual("\($0)", "--root is required") }
    }
}
