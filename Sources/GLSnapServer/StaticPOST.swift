import Foundation

/// A request's body as the HTTP layer collected it.
public enum RequestBodyContent: Sendable, Equatable {
    case bytes([UInt8])
    /// Longer than `ServerConfig.maxRequestBody`: dropped as it arrived.
    case tooLarge
}

/// tileserver-gl's POST static maps: a JSON object whose overlay options are added after the
/// query's, as if they were more query arguments (an array gives the key several times). Mapbox's
/// style edits (`addlayer`, `setfilter`, `geojson`) may be JSON values there.
enum StaticPOST {
    /// The keys a body may set; others are ignored, as tileserver-gl does.
    static let allowed: Set<String> = ["path", "marker", "latlng", "padding", "maxzoom", "fill", "stroke", "width",
                                       "linecap", "linejoin", "border", "borderwidth",
                                       "addlayer", "before_layer", "setfilter", "layer_id", "geojson", "attribution", "logo"]
    /// Keys whose value is JSON (Mapbox's style edits): a body may give them as JSON values.
    /// `addlayer` and `geojson` may be arrays of several (`setfilter`'s value is itself an array).
    static let jsonValued: Set<String> = ["addlayer", "setfilter", "geojson"]

    /// The query followed by the body's arguments. 413 past `limit`; 400 for a body that is not a
    /// JSON object, names `__proto__` or `constructor`, or nests objects in a value.
    static func merge(query: [(key: String, value: String)], body: RequestBodyContent, limit: Int) throws -> [(key: String, value: String)] {
        let bytes: [UInt8]
        switch body {
        case .tooLarge: throw ServerError.payloadTooLarge("the request body is larger than \(limit) bytes (maxRequestBody)")
        case .bytes(let b): bytes = b
        }
        guard !bytes.isEmpty else { return query }
        guard bytes.count <= limit else { throw ServerError.payloadTooLarge("the request body is larger than \(limit) bytes (maxRequestBody)") }
        let parsed: Any
        do { parsed = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) } catch {
            throw ServerError.badRequest("Invalid JSON or forbidden key detected: the body is not valid JSON")
        }
        guard let object = parsed as? [String: Any] else { throw ServerError.badRequest("Invalid data: the body must be a JSON object") }
        if let bad = object.keys.first(where: { $0 == "__proto__" || $0 == "constructor" }) {
            throw ServerError.badRequest("Invalid JSON or forbidden key detected: '\(bad)'")
        }
        var out = query
        for key in object.keys.sorted() where allowed.contains(key) {
            let value = object[key]!
            var items = value as? [Any] ?? [value]
            if key == "setfilter" || (jsonValued.contains(key) && !(value is [Any])) { items = [value] }
            for item in items {
                guard let text = jsonValued.contains(key) && !(item is String) ? jsonText(item) : primitive(item) else {
                    throw ServerError.badRequest("Invalid value type for key \"\(key)\": nested objects are not allowed.")
                }
                guard out.count < 256 else { throw ServerError.badRequest("more than 256 query and body arguments") }
                out.append((key, text))
            }
        }
        return out
    }

    /// A JSON value as text (an object or array of a style edit).
    private static func jsonText(_ v: Any) -> String? {
        guard JSONSerialization.isValidJSONObject([v]),
              let data = try? JSONSerialization.data(withJSONObject: v, options: [.fragmentsAllowed]) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// A string, number, boolean or null as a query argument would carry it.
    private static func primitive(_ v: Any) -> String? {
        switch v {
        case let s as String: return s
        case is NSNull: return ""
        case let n as NSNumber:
            if String(cString: n.objCType) == "c" { return n.boolValue ? "true" : "false" }
            return n.stringValue
        default: return nil
        }
    }
}
