import GLSnapStyle

/// The warnings of a style loaded leniently (`MapSnapshotOptions.styleErrors` `.skip`): one line
/// per value left out, worded as `glsnap validate` prints it (`FILE:LINE: PATH: MESSAGE`).
enum StyleWarnings {
    /// `Style.explain`'s problems for what was `dropped`, with the lines of `bytes`.
    static func sentences(_ dropped: [StyleProblem], bytes: [UInt8], origin: String) -> [String] {
        guard let (json, lines) = try? JSON.parseWithLines(bytes) else { return dropped.map { sentence($0, origin: origin) } }
        return Style.explain(dropped, json: json, lines: lines).map { sentence($0, origin: origin) }
    }

    static func sentence(_ problem: StyleProblem, origin: String) -> String {
        "\(origin):\(problem.line.map(String.init) ?? "-"): \(problem)"
    }
}
