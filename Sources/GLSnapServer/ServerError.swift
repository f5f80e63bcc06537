import GLSnap
import GLSnapStyle

/// Errors of the HTTP service. Request errors carry the HTTP status they answer with; each prints a
/// sentence a user (or a client developer) can act on.
public enum ServerError: Error, CustomStringConvertible, Equatable {
    /// The request is malformed or asks for something out of range (400).
    case badRequest(String)
    /// A style edit of the request is refused (400); the answer lists `problems` with their JSON paths.
    case badStyle(String, problems: [StyleProblem])
    /// Nothing is served at this path, or the style id is unknown (404).
    case notFound(String)
    /// The method is not GET or HEAD (405).
    case methodNotAllowed(String)
    /// A request body (POST) is larger than `ServerConfig.maxRequestBody` (413).
    case payloadTooLarge(String)
    /// The render queue is full (503, with Retry-After).
    case overloaded
    /// The request waited or rendered past the time limit (504).
    case timedOut(seconds: Double)
    /// Rendering failed (500).
    case renderFailed(String)
    /// The configuration file or a style could not be read; `file` names it.
    case config(file: String, message: String)
    /// The listening socket or the HTTP daemon could not be set up; `call` names the failing call.
    case listen(call: String, message: String)

    /// The HTTP status a request error answers with (500 for setup errors, which never reach a client).
    public var status: Int {
        switch self {
        case .badRequest, .badStyle: return 400
        case .notFound: return 404
        case .methodNotAllowed: return 405
        case .payloadTooLarge: return 413
        case .overloaded: return 503
        case .timedOut: return 504
        case .renderFailed, .config, .listen: return 500
        }
    }

    public var description: String {
        switch self {
        case .badRequest(let m), .badStyle(let m, _), .notFound(let m), .methodNotAllowed(let m), .payloadTooLarge(let m): return m
        case .overloaded: return "the render queue is full: retry shortly"
        case .timedOut(let s): return "the request took longer than the time limit of \(formatSeconds(s)) s"
        case .renderFailed(let m): return "render failed: \(m)"
        case let .config(file, m): return "\(file): \(m)"
        case let .listen(call, m): return "\(call) failed: \(m)"
        }
    }
}

extension ServerError {
    /// What a library error answers: the status from its case (a bad option 400, a time limit
    /// passed 504 after `requestTimeout`, anything else 500), never from its text.
    init(_ error: GLSnapError, requestTimeout: Double) {
        switch error {
        case .invalidOptions, .limit: self = .badRequest(error.description)
        case .timedOut: self = .timedOut(seconds: requestTimeout)
        case .style, .source, .gl, .render: self = .renderFailed(error.description)
        }
    }
}

func formatSeconds(_ s: Double) -> String {
    s == s.rounded() && abs(s) < 1e9 ? String(Int(s)) : String(s)
}
