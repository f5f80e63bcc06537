import Foundation
import GLSnapStyle

enum ValidateCommand {
    static let help = """
    usage: glsnap validate STYLE.json

    Checks a style against the style specification (v8) and prints every problem as
    FILE:LINE: PATH: MESSAGE. Exits 0 when the style is valid, 1 when it is not.
    """

    static func run(_ argv: [String]) throws -> Int32 {
        let a = try Arguments(argv, valued: [], flags: ["--help", "-h"])
        if a.flags.contains("--help") || a.flags.contains("-h") {
            print(help)
            return 0
        }
        guard a.positionals.count == 1 else { throw UsageError("validate takes one style file") }
        let path = a.positionals[0]
        guard let data = FileManager.default.contents(atPath: path) else { throw CLIError("\(path): no such file") }
        let problems = validateStyle([UInt8](data))
        if problems.isEmpty {
            print("\(path): valid")
            return 0
        }
        for p in problems { print("\(path):\(p.line.map(String.init) ?? "-"): \(p)") }
        return 1
    }
}
