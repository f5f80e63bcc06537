import Foundation
import GLSnap

/// The example map shipped in the repository (examples/chicago): OpenStreetMap-derived vector tiles
/// and a style for them, so `glsnap render` works offline on a fresh machine.
enum BundledExample {
    static let center = Coordinate(latitude: 41.8781, longitude: -87.6298)
    static let zoom = 13.5

    /// Looks next to the executable's package (a build in .build/…), then $GLSNAP_EXAMPLES, then
    /// the current directory.
    static func stylePath() throws -> String {
        var candidates: [String] = []
        if let env = ProcessInfo.processInfo.environment["GLSNAP_EXAMPLES"] { candidates.append(env) }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(dir.appendingPathComponent("examples").path)
            dir.deleteLastPathComponent()
        }
        candidates.append(FileManager.default.currentDirectoryPath + "/examples")
        for c in candidates {
            let p = c + "/chicago/style.json"
            if FileManager.default.fileExists(atPath: p) { return p }
        }
        throw CLIError("the bundled example (examples/chicago/style.json) was not found; pass --style or set GLSNAP_EXAMPLES")
    }
}
