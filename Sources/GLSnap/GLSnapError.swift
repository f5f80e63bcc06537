import GLSnapData
import GLSnapGL
import GLSnapStyle

/// Errors of the snapshot API. Each prints a sentence naming what was wrong (`description`, what
/// the CLI prints and the C ABI and Python hand out as the message); the cases carry what the
/// sentence is made of, so callers can act on it: the style's problems with their JSON paths,
/// the source and tile of a broken tile with the error underneath, the GL failure.
public enum GLSnapError: Error, CustomStringConvertible {
    /// The options are not usable (size, ratio, camera values).
    case invalidOptions(String)
    /// The options ask for more than one of `Limits` allows: `name` the limit (`maxImageSide`),
    /// `value` what was asked, `max` the limit's value; `message` names the option. Options like
    /// the others (printed the same way), to be raised in `Limits` rather than corrected.
    case limit(name: String, value: Double, max: Double, message: String)
    /// The style could not be read or is invalid; `source` names the file or "inline JSON".
    /// `problems` says what is wrong: for a style that cannot be read (no such file, not JSON,
    /// too large) one problem with an empty path; for an invalid one each problem with its JSON
    /// path (`layers[2].paint.fill-color`) and line.
    case style(source: String, problems: [StyleProblem])
    /// A source of the style could not be set up (`tile` nil) or a tile of it could not be read or
    /// decoded (`tile`, and `location` the file or URL it came from when the source has one).
    /// `underlying` is the error met (a `SourceError`, `TileDecodeError`, `GeoJSONError`, ...).
    case source(name: String, tile: TileID?, location: String?, underlying: any Error)
    /// The GL context, a shader or a GL call failed.
    case gl(GLError)
    /// Drawing failed otherwise (the snapshotter closed, a render thread that cannot start).
    case render(String)
    /// The snapshot passed its time limit (`Limits.snapshotTimeLimit` or the call's) and stopped.
    case timedOut(seconds: Double)

    /// A style that cannot be read, for `message`'s reason (its path empty).
    static func style(source: String, message: String) -> GLSnapError {
        .style(source: source, problems: [StyleProblem(path: "", message: message)])
    }

    /// A source that cannot be set up, for `message`'s reason.
    static func source(name: String, message: String) -> GLSnapError {
        .source(name: name, tile: nil, location: nil, underlying: SourceError.invalidDefinition(source: name, reason: message))
    }

    /// `error`, met while loading a style from `source`, with its problems kept.
    static func style(source: String, error: Error) -> GLSnapError {
        switch error {
        case let e as GLSnapError: return e
        case StyleError.invalid(let problems): return .style(source: source, problems: problems)
        case StyleError.syntax(_, let line, _): return .style(source: source, problems: [StyleProblem(path: "", message: "\(error)", line: line)])
        default: return .style(source: source, message: "\(error)")
        }
    }

    /// `error`, met while drawing on a worker: a GL failure keeps its `GLError`.
    static func rendering(_ error: Error) -> GLSnapError {
        switch error {
        case let e as GLSnapError: return e
        case let e as GLError: return .gl(e)
        default: return .render("\(error)")
        }
    }

    /// The style's problems with their paths (`.style`); empty for the other cases.
    public var problems: [StyleProblem] {
        if case .style(_, let problems) = self { return problems }
        return []
    }

    /// The one-line message, as the CLI prints it.
    public var description: String {
        switch self {
        case .invalidOptions(let m), .limit(_, _, _, let m): return "invalid snapshot options: \(m)"
        case let .style(source, problems):
            if problems.count == 1, problems[0].path.isEmpty { return "style \(source): \(problems[0].message)" }
            return "style \(source): \(StyleError.invalid(problems))"
        case let .source(name, tile, location, underlying):
            return "source \"\(name)\": " + GLSnapError.sourceReason(name: name, tile: tile, location: location, underlying: underlying)
        case .gl(let e): return "render failed: \(e)"
        case .render(let m): return "render failed: \(m)"
        case .timedOut(let s): return "snapshot stopped: it took longer than its time limit of \(s) s"
        }
    }

    /// `tile Z/X/Y (FILE OR URL): WHY`, or `WHY` for the source as a whole; a source's own
    /// definition error is not prefixed with its name again.
    private static func sourceReason(name: String, tile: TileID?, location: String?, underlying: any Error) -> String {
        let why: String
        if case let .invalidDefinition(source, reason)? = underlying as? SourceError, source == name { why = reason } else { why = "\(underlying)" }
        guard let tile else { return why }
        return "tile \(tile)" + (location.map { " (\($0))" } ?? "") + ": \(why)"
    }
}
