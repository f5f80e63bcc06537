extension Style {
    /// Why loading left values out, in the validator's words: for each problem in `dropped` (what
    /// `init(json:dropping:)` left out, in its order) the validator's problems at that value or
    /// inside it, with their lines where `lines` has them, else the loader's own problem where the
    /// validator reports none there; ordered by line as `validateStyle` orders them. Loading decides what is left out; the validator says why, so a
    /// loaded style and `validateStyle` word a problem alike. The validator runs only here, when
    /// something was left out, so valid styles pay nothing.
    public static func explain(_ dropped: [StyleProblem], json: JSON, lines: JSONLineMap = JSONLineMap()) -> [StyleProblem] {
        guard !dropped.isEmpty else { return [] }
        let validated = validateStyle(json: json, lines: lines)
        var used = Set<Int>()
        var out: [StyleProblem] = []
        for problem in dropped {
            let matches = validated.indices.filter { !used.contains($0) && related(validated[$0].path, problem.path) }
            if matches.isEmpty { out.append(problem) }
            for i in matches {
                used.insert(i)
                out.append(validated[i])
            }
        }
        // As `validateStyle` orders them: by line (problems without one first), else as found.
        return out.enumerated().sorted { a, b in
            let la = a.element.line ?? 0, lb = b.element.line ?? 0
            return la != lb ? la < lb : a.offset < b.offset
        }.map(\.element)
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
}
