import GLSnapStyle

/// A point in tile coordinates (0..extent across the tile; may lie outside in the buffer).
public struct TilePoint: Hashable, Sendable {
    public var x: Int32
    public var y: Int32
    public init(x: Int32, y: Int32) { self.x = x; self.y = y }
}

/// One decoded feature. `geometry` holds, by type: points (one point per inner array),
/// line strings (one per inner array), or polygon rings (outer rings clockwise in tile
/// coordinates, holes counter-clockwise, as the vector-tile spec orders them).
public struct VectorFeature: FeatureContext, Sendable {
    public var id: JSON?
    public var geometryType: GeometryType
    public var properties: [String: JSON]
    public var geometry: [[TilePoint]]

    public init(id: JSON?, geometryType: GeometryType, properties: [String: JSON], geometry: [[TilePoint]]) {
        self.id = id; self.geometryType = geometryType; self.properties = properties; self.geometry = geometry
    }

    public var featureID: JSON? { id }
    public func property(_ key: String) -> JSON? { properties[key] }
}

/// A named layer of a tile, with its coordinate extent (4096 in most tiles, 8192 for GeoJSON slices).
public struct VectorLayer: Sendable {
    public var name: String
    public var extent: Int
    public var version: Int
    public var features: [VectorFeature]

    public init(name: String, extent: Int, version: Int, features: [VectorFeature]) {
        self.name = name; self.extent = extent; self.version = version; self.features = features
    }
}

/// A decoded tile: its layers by name.
public struct VectorTile: Sendable {
    public var layers: [String: VectorLayer]
    public init(layers: [String: VectorLayer]) { self.layers = layers }
}
