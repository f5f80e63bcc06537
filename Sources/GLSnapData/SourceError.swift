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
        }
    }
}
