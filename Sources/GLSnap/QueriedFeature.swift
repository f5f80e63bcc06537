import GLSnapStyle

/// What to look for in a feature query.
public struct QueryOptions: Sendable {
    /// Only these style layers (nil: every layer). A name the style lacks is an error.
    public var layers: [String]?
    /// A style-spec filter the features must also pass (nil: none), evaluated at the tile's zoom.
    public var filter: JSON?

    /// Options of the given layers (default all) and filter (default none).
    public init(layers: [String]? = nil, filter: JSON? = nil) {
        self.layers = layers; self.filter = filter
    }
}

/// A feature found by a query, as MapLibre's `queryRenderedFeatures` gives it: the tile's
/// feature in longitude/latitude (so, for GeoJSON sources, as the tile cut and simplified it),
/// its properties and id, the style layer that drew it and the feature's state.
public struct QueriedFeature: Sendable, Equatable {
    /// The feature id (or the `promoteId` property); nil when the feature has none.
    public var id: JSON?
    /// A GeoJSON geometry object (`Point`, `MultiPoint`, `LineString`, `MultiLineString`,
    /// `Polygon`, `MultiPolygon`), coordinates as [longitude, latitude].
    public var geometry: JSON
    /// The feature's properties, as the tile has them.
    public var properties: [String: JSON]
    /// The style layer that drew it; nil from `querySourceFeatures`.
    public var layer: String?
    /// The style source the feature came from.
    public var source: String
    /// The source layer of vector sources; nil for GeoJSON.
    public var sourceLayer: String?
    /// The feature's state (`Snapshotter.setFeatureState`) when the snapshot was taken.
    public var state: [String: JSON]

    /// The feature as a GeoJSON `Feature`, with `layer`, `source`, `sourceLayer` and `state`
    /// members beside the standard ones (as MapLibre's `toJSON` writes them).
    public var geoJSON: JSON {
        var o: [String: JSON] = ["type": .string("Feature"), "geometry": geometry, "properties": .object(properties),
                                 "source": .string(source), "state": .object(state)]
        if let id { o["id"] = id }
        if let layer { o["layer"] = .string(layer) }
        if let sourceLayer { o["sourceLayer"] = .string(sourceLayer) }
        return .object(o)
    }

    /// Features as a GeoJSON `FeatureCollection`.
    public static func featureCollection(_ features: [QueriedFeature]) -> JSON {
        .object(["type": .string("FeatureCollection"), "features": .array(features.map(\.geoJSON))])
    }
}

/// A query that cannot be answered: a layer the style lacks, a filter that does not parse, a
/// query geometry that is not finite.
public struct QueryError: Error, CustomStringConvertible, Equatable {
    /// What was wrong, in words.
    public let message: String
    /// The error saying `message`.
    public init(_ message: String) { self.message = message }
    /// "feature query: " and the message.
    public var description: String { "feature query: \(message)" }
}
