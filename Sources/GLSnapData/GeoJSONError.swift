/// Why GeoJSON data was refused. `path` is a JSON path into the document
/// (`features[3].geometry.coordinates[0]`), so the message says exactly what to fix.
public enum GeoJSONError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The value at `path` is not what GeoJSON (RFC 7946) puts there.
    case invalid(path: String, expected: String)
    /// The document holds more than `limit` positions (see `GeoJSONOptions.maxPositions`).
    case tooManyPositions(limit: Int)

    public var description: String {
        switch self {
        case let .invalid(path, expected):
            return "invalid GeoJSON at \(path.isEmpty ? "the top level" : path): expected \(expected)"
        case let .tooManyPositions(limit):
            return "GeoJSON holds more than \(limit) positions; split the data or raise GeoJSONOptions.maxPositions"
        }
    }
}
