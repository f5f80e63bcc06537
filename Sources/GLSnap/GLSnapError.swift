/// Errors of the snapshot API. Each prints a sentence naming what was wrong.
public enum GLSnapError: Error, CustomStringConvertible {
    /// The options are not usable (size, ratio, camera values).
    case invalidOptions(String)
    /// The style could not be read or is invalid; `source` names the file or "inline JSON".
    case style(source: String, message: String)
    /// A source of the style could not be set up.
    case source(name: String, message: String)
    /// Drawing failed (GL context, shaders, a broken tile).
    case render(String)
    /// The snapshot passed its time limit (`Limits.snapshotTimeLimit` or the call's) and stopped.
    case timedOut(seconds: Double)

    public var description: String {
        switch self {
        case .invalidOptions(let m): return "invalid snapshot options: \(m)"
        case let .style(source, m): return "style \(source): \(m)"
        case let .source(name, m): return "source \"\(name)\": \(m)"
        case .render(let m): return "render failed: \(m)"
        case .timedOut(let s): return "snapshot stopped: it took longer than its time limit of \(s) s"
        }
    }
}
