import GLSnapStyle

/// The warnings of a style loaded leniently (`MapSnapshotOptions.styleErrors` `.skip`): one line
/// per value left out, worded as `glsnap validate` prints it (`FILE:LINE: PATH: MESSAGE`).
enum StyleWarnings {
    /// The validator's problems where it reports the values `dropped` names (its wording, with the
    /// line of the value), and the loader's own sentence where the validator has none.
    /// The validator runs only here, when something was left out, so valid styles pay nothing.
    static func sentences(_ dropped: [StyleProblem], bytes: [UInt8], origin: String) -> [String] {
        let validated = validateStyle(bytes)
        var used = Set<Int>()
        var out: [String] = []
        for problem in dropped {
            let matches = validated.indices.filter { !used.contains($0) && related(validated[$0].path, problem.path) }
            if matches.isEmpty {
                out.append(sentence(problem, origin: origin))
            }
            for i in matches {
                used.insert(i)
                out.append(sentence(validated[i], origin: origin))
            }
        }
        return out
    }

    /// Whether two paths name the same value or one lies inside the other, the shorter being a
    /// value of its own (`layers[2].paint.fill-color`, `layers[2].filter`, `version`), not a
    /// whole layer or the root, whose other problems are not the one left out.
    static func related(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        let (short, long) = a.count < b.count ? (a, b) : (b, a)
        guard long.hasPrefix(short + ".") || long.hasPrefix(short + "[") else { return false }
        return !short.isEmpty && !isWholeLayer(short)
    }

    private static func isWholeLayer(_ path: String) -> Bool {
        path.hasPrefix("layers[") && path.hasSuffix("]") && !path.dropFirst("layers[".count).contains("[")
    }

    static func sentence(_ problem: StyleProblem, origin: String) -> String {
        "\(origin):\(problem.line.map(String.init) ?? "-"): \(problem)"
    }
}
