import GLSnapStyle

/// A longitude/latitude pair in degrees.
struct GeoJSONPosition: Equatable, Sendable {
    var lon: Double
    var lat: Double
}

/// A GeoJSON geometry in longitude/latitude, as parsed.
indirect enum GeoJSONGeometry: Equatable, Sendable {
    case point(GeoJSONPosition)
    case multiPoint([GeoJSONPosition])
    case lineString([GeoJSONPosition])
    case multiLineString([[GeoJSONPosition]])
    case polygon([[GeoJSONPosition]])
    case multiPolygon([[[GeoJSONPosition]]])
    case geometryCollection([GeoJSONGeometry])
}

/// One GeoJSON feature (a bare geometry parses as a feature without id or properties).
/// Features whose geometry is `null` are valid GeoJSON and are dropped at parse time.
struct GeoJSONFeature: Equatable, Sendable {
    var id: JSON?
    var properties: [String: JSON]
    var geometry: GeoJSONGeometry
}

/// Reads GeoJSON (RFC 7946) from the JSON model: FeatureCollection, Feature or a bare geometry.
/// Structure is checked strictly; counts are not (a one-point line or a three-point ring is kept,
/// as MapLibre keeps them: tiling drops what cannot draw).
struct GeoJSONParser {
    /// Stop after this many positions in all (hostile or runaway input).
    var maxPositions: Int
    private var positions = 0

    init(maxPositions: Int) { self.maxPositions = maxPositions }

    static func parse(_ json: JSON, maxPositions: Int = .max) throws -> [GeoJSONFeature] {
        var parser = GeoJSONParser(maxPositions: maxPositions)
        return try parser.document(json)
    }

    mutating func document(_ json: JSON) throws -> [GeoJSONFeature] {
        guard let object = json.objectValue else {
            throw GeoJSONError.invalid(path: "", expected: "an object (FeatureCollection, Feature or geometry)")
        }
        guard let type = object["type"]?.stringValue else {
            throw GeoJSONError.invalid(path: "type", expected: "a string naming the GeoJSON type")
        }
        switch type {
        case "FeatureCollection":
            guard let list = object["features"]?.arrayValue else {
                throw GeoJSONError.invalid(path: "features", expected: "an array of features")
            }
            var out: [GeoJSONFeature] = []
            out.reserveCapacity(list.count)
            for (i, item) in list.enumerated() {
                if let f = try feature(item, path: "features[\(i)]") { out.append(f) }
            }
            return out
        case "Feature":
            return try feature(json, path: "").map { [$0] } ?? []
        default:
            return [GeoJSONFeature(id: nil, properties: [:], geometry: try geometry(json, path: ""))]
        }
    }

    private mutating func feature(_ json: JSON, path: String) throws -> GeoJSONFeature? {
        guard let object = json.objectValue else { throw GeoJSONError.invalid(path: path, expected: "a Feature object") }
        guard object["type"]?.stringValue == "Feature" else {
            throw GeoJSONError.invalid(path: join(path, "type"), expected: "\"Feature\"")
        }
        var id: JSON?
        switch object["id"] {
        case nil, .null?: id = nil
        case let value? where value.numberValue != nil || value.stringValue != nil: id = value
        default: throw GeoJSONError.invalid(path: join(path, "id"), expected: "a number or a string")
        }
        var properties: [String: JSON] = [:]
        switch object["properties"] {
        case nil, .null?: break
        case .object(let o)?: properties = o
        default: throw GeoJSONError.invalid(path: join(path, "properties"), expected: "an object or null")
        }
        let geometryPath = join(path, "geometry")
        switch object["geometry"] {
        case nil: throw GeoJSONError.invalid(path: geometryPath, expected: "a geometry object or null")
        case .null?: return nil
        case let g?: return GeoJSONFeature(id: id, properties: properties, geometry: try geometry(g, path: geometryPath))
        }
    }

    private mutating func geometry(_ json: JSON, path: String) throws -> GeoJSONGeometry {
        guard let object = json.objectValue else { throw GeoJSONError.invalid(path: path, expected: "a geometry object") }
        guard let type = object["type"]?.stringValue else {
            throw GeoJSONError.invalid(path: join(path, "type"), expected: "a geometry type string")
        }
        if type == "GeometryCollection" {
            guard let list = object["geometries"]?.arrayValue else {
                throw GeoJSONError.invalid(path: join(path, "geometries"), expected: "an array of geometries")
            }
            var parts: [GeoJSONGeometry] = []
            for (i, g) in list.enumerated() { parts.append(try geometry(g, path: join(path, "geometries[\(i)]"))) }
            return .geometryCollection(parts)
        }
        guard Self.coordinateTypes.contains(type) else {
            throw GeoJSONError.invalid(path: join(path, "type"), expected: "a GeoJSON geometry type, not \"\(type)\"")
        }
        let cpath = join(path, "coordinates")
        guard let coordinates = object["coordinates"] else {
            throw GeoJSONError.invalid(path: cpath, expected: "coordinates for the \(type)")
        }
        switch type {
        case "Point": return .point(try position(coordinates, path: cpath))
        case "MultiPoint": return .multiPoint(try line(coordinates, path: cpath))
        case "LineString": return .lineString(try line(coordinates, path: cpath))
        case "MultiLineString": return .multiLineString(try lines(coordinates, path: cpath))
        case "Polygon": return .polygon(try lines(coordinates, path: cpath))
        case "MultiPolygon":
            guard let list = coordinates.arrayValue else {
                throw GeoJSONError.invalid(path: cpath, expected: "an array of polygons")
            }
            var polygons: [[[GeoJSONPosition]]] = []
            polygons.reserveCapacity(list.count)
            for (i, p) in list.enumerated() { polygons.append(try lines(p, path: "\(cpath)[\(i)]")) }
            return .multiPolygon(polygons)
        default:
            throw GeoJSONError.invalid(path: join(path, "type"), expected: "a GeoJSON geometry type, not \"\(type)\"")
        }
    }

    private static let coordinateTypes: Set<String> = [
        "Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon",
    ]

    private mutating func lines(_ json: JSON, path: String) throws -> [[GeoJSONPosition]] {
        guard let list = json.arrayValue else { throw GeoJSONError.invalid(path: path, expected: "an array of arrays of positions") }
        var out: [[GeoJSONPosition]] = []
        out.reserveCapacity(list.count)
        for (i, l) in list.enumerated() { out.append(try line(l, path: "\(path)[\(i)]")) }
        return out
    }

    private mutating func line(_ json: JSON, path: String) throws -> [GeoJSONPosition] {
        guard let list = json.arrayValue else { throw GeoJSONError.invalid(path: path, expected: "an array of positions") }
        var out: [GeoJSONPosition] = []
        out.reserveCapacity(list.count)
        for (i, p) in list.enumerated() { out.append(try position(p, path: "\(path)[\(i)]")) }
        return out
    }

    private mutating func position(_ json: JSON, path: String) throws -> GeoJSONPosition {
        guard let list = json.arrayValue, list.count >= 2, let lon = list[0].numberValue, let lat = list[1].numberValue,
              lon.isFinite, lat.isFinite else {
            throw GeoJSONError.invalid(path: path, expected: "a position [longitude, latitude] of finite numbers")
        }
        positions += 1
        if positions > maxPositions { throw GeoJSONError.tooManyPositions(limit: maxPositions) }
        return GeoJSONPosition(lon: lon, lat: lat)
    }

    private func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
}
