import Foundation
import GLSnapStyle

/// A response the service produces; the HTTP layer sends it as it is.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status; self.headers = headers; self.body = body
    }

    static func json(_ text: String, status: Int = 200, extra: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")] + extra, body: Array(text.utf8))
    }

    static func text(_ text: String, status: Int = 200, type: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", type)], body: Array(text.utf8))
    }

    /// `{"error": "..."}` with the error's status (503 adds Retry-After), and for a refused style
    /// edit `"problems": [{"path": "layers.x.paint.fill-color", "message": "..."}, ...]`. A 500's
    /// details (which can name files of this machine) go to the log only; the client is told to look there.
    static func error(_ e: ServerError) -> HTTPResponse {
        var extra: [(String, String)] = [("Cache-Control", "no-store")]
        if e.status == 503 { extra.append(("Retry-After", "1")) }
        let message = e.status == 500 ? "internal error: the server's log has the details" : e.description
        var body = "{\"error\": \(JSON.quote(message))"
        if case .badStyle(_, let problems) = e {
            let listed = problems.map { "{\"path\": \(JSON.quote($0.path)), \"message\": \(JSON.quote($0.message))}" }
            body += ", \"problems\": [\(listed.joined(separator: ", "))]"
        }
        return json(body + "}", status: e.status, extra: extra)
    }
}

/// Text safe inside HTML.
func htmlEscape(_ s: String) -> String {
    var out = ""
    for c in s {
        switch c {
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "&": out += "&amp;"
        case "\"": out += "&quot;"
        case "'": out += "&#39;"
        default: out.append(c)
        }
    }
    return out
}
