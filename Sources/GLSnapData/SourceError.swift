/// Why a source or resource could not be opened or read. Tile bytes that fail to decode are
/// `TileDecodeError`s, wrapped in `badTile` with the source and tile they came from.
public enum SourceError: Error, Equatable, Sendable, CustomStringConvertible {
    case fileNotFound(path: String, url: String)
    case unreadable(path: String, reason: String)
    case tooLarge(url: String, size: Int, limit: Int)
    case unsupportedURL(url: String, reason: String)
    case sqlite(path: String, call: String, code: Int32, message: String)
    case invalidMBTiles(path: String, reason: String)
    case invalidDefinition(source: String, reason: String)
    case invalidTileJSON(url: String, reason: String)
    case badTile(source: String, tile: String, error: TileDecodeError)
    /// The server answered with an HTTP status that is neither success nor "not found".
    case httpStatus(url: String, status: Int)
    /// The transfer failed (connection refused, DNS, TLS, reset …); `reason` is libcurl's message.
    case httpFailed(url: String, reason: String)
    /// No complete answer within the configured time.
    case httpTimeout(url: String, seconds: Double)
    /// The body (announced or received) is larger than the limit; the download was stopped.
    case responseTooLarge(url: String, limit: Int)
    case invalidPMTiles(path: String, reason: String)

    public var description: String {
        switch self {
        case let .fileNotFound(path, url):
            return url == path ? "file not found: \(path)" : "file not found: \(path) (resolved from '\(url)')"
        case let .unreadable(path, reason):
            return "cannot read \(path): \(reason)"
        case let .tooLarge(url, size, limit):
            return "'\(url)' is \(size) bytes, more than the limit of \(limit) bytes"
        case let .unsupportedURL(url, reason):
            return "cannot load '\(url)': \(reason)"
        case let .sqlite(path, call, code, message):
            return "MBTiles file \(path): \(call) failed with SQLite code \(code) (\(message))"
        case let .invalidMBTiles(path, reason):
            return "MBTiles file \(path): \(reason)"
        case let .invalidDefinition(source, reason):
            return "source '\(source)': \(reason)"
        case let .invalidTileJSON(url, reason):
            return "TileJSON '\(url)': \(reason)"
        case let .badTile(source, tile, error):
            return "tile \(tile) of source '\(source)': \(error)"
        case let .httpStatus(url, status):
            return "HTTP \(status) from \(url)"
        case let .httpFailed(url, reason):
            return "cannot fetch \(url): \(reason)"
        case let .httpTimeout(url, seconds):
            return "fetching \(url) timed out after \(seconds) s (raise HTTPOptions.totalTimeout if the server is slow)"
        case let .responseTooLarge(url, limit):
            return "the response from \(url) is larger than the limit of \(limit) bytes; the download was stopped"
        case let .invalidPMTiles(path, reason):
            return "PMTiles file \(path): \(reason)"
        }
    }
}
