import Foundation
import GLSnapStyle
import XCTest

/// `glsnap query`: render's camera options, a point or a box, GeoJSON on stdout.
final class QueryCommandTests: XCTestCase {
    func testBoxPrintsTheFlagsAsAFeatureCollection() throws {
        let glsnap = try TestPaths.executable("glsnap")
        let style = try TestPaths.requireShared().appendingPathComponent("fixtures/styles/seed-flags.json").path
        let camera = ["--style", style, "--center", "24.6881,60.185755", "--zoom", "16", "--size", "400x300"]
        let r = try runProcess(glsnap, ["query"] + camera + ["--box", "0,0,400,300", "--layers", "points"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let json = try JSON.parse(r.stdout)
        XCTAssertEqual(json["type"], .string("FeatureCollection"))
        let ids = (json["features"]?.arrayValue ?? []).compactMap { $0["properties"]?["id"]?.stringValue }
        XCTAssertEqual(Set(ids), ["flag-red", "flag-yellow", "flag-purple"])
        XCTAssertEqual(json["features"]?.arrayValue?.first?["layer"], .string("points"))
        let filtered = try runProcess(glsnap, ["query"] + camera + ["--box", "0,0,400,300", "--filter", #"["==", "flagColor", "red"]"#])
        XCTAssertEqual(filtered.status, 0, filtered.stderr)
        XCTAssertEqual(try JSON.parse(filtered.stdout)["features"]?.arrayValue?.count, 1)
        let empty = try runProcess(glsnap, ["query"] + camera + ["--point", "2,2"])
        XCTAssertEqual(try JSON.parse(empty.stdout)["features"], .array([]))
    }

    func testUsageErrors() throws {
        let glsnap = try TestPaths.executable("glsnap")
        let style = try TestPaths.requireShared().appendingPathComponent("fixtures/styles/seed-flags.json").path
        for (args, message) in [(["--style", style], "give one of --point X,Y or --box"),
                                (["--style", style, "--point", "1,2", "--box", "0,0,1,1"], "give one of"),
                                (["--style", style, "--point", "1"], "--point expects 2 comma-separated numbers"),
                                (["--style", style, "--point", "1,1", "--filter", "[oops"], "--filter is not JSON"),
                                (["--style", style, "--point", "1,1", "--layers", "nope"], "the layer 'nope' does not exist")] {
            let r = try runProcess(glsnap, ["query"] + args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(message), "\(args): \(r.stderr)")
        }
        let help = try runProcess(glsnap, ["query", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("usage: glsnap query"))
    }
}
