import Foundation
import GLSnapFuzz
import XCTest

/// Replays the inputs kept under Tests/Fuzz/<target>/ (crashes tools/fuzz.sh found, and small
/// hand-made seeds) through the same entry points libFuzzer calls. Each must return: a crash
/// here is the bug coming back.
final class FuzzRegressionTests: XCTestCase {
    static let inputs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    /// The kept files of `target`, in a stable order.
    static func kept(_ target: FuzzTarget) -> [URL] {
        let dir = inputs.appendingPathComponent(target.rawValue)
        guard let walk = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        return walk.compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true && $0.lastPathComponent != "README.md" }
            .sorted { $0.path < $1.path }
    }

    func testEveryKeptInputReturns() throws {
        var replayed = 0
        for target in FuzzTarget.allCases {
            for file in Self.kept(target) {
                target.run([UInt8](try Data(contentsOf: file)))
                replayed += 1
            }
        }
        XCTAssertGreaterThan(replayed, 0, "no kept inputs under \(Self.inputs.path)")
    }

    func testEveryTargetTakesEmptyAndTruncatedInput() {
        for target in FuzzTarget.allCases {
            target.run([])
            target.run([0])
            target.run(Array("{\"a\":[1,".utf8))
        }
    }
}
