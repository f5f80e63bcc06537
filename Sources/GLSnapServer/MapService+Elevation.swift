import Foundation
import GLSnap
import GLSnapData
import GLSnapImage

extension MapService {
    /// tileserver-gl's elevation API of a raster-dem data entry (one with `encoding`): the elevation
    /// of one pixel, as `{"long", "lat", "elevation", "z", "x", "y", "pixelX", "pixelY"}`. Whole `x`
    /// and `y` name a tile (its center, whose latitude is the mean of its edges' as tileserver-gl
    /// takes it; 404 outside the data's zooms or the grid); else they are a point's lon/lat, looked
    /// up at `z` clamped to the data's zooms. 204: the file has no tile (or pixel) there.
    func elevation(_ id: String, z: Int, x: Double, y: Double) throws -> HTTPResponse {
        let dem = try elevationData(id)
        let lon: Double, lat: Double
        if x == x.rounded(), y == y.rounded() {
            let n = Double(1 << z)
            guard z >= dem.minZoom, z <= dem.maxZoom, x >= 0, y >= 0, x < n, y < n else {
                throw ServerError.notFound("elevation tile \(z)/\(Int(x))/\(Int(y)) is out of bounds: data '\(id)' has zooms \(dem.minZoom)-\(dem.maxZoom), x and y 0-\(1 << z - 1) at zoom \(z)")
            }
            lon = (x + 0.5) / n * 360 - 180
            lat = (Mercator.unproject(x: 0, y: y / n).lat + Mercator.unproject(x: 0, y: (y + 1) / n).lat) / 2
        } else {
            lon = x; lat = y
        }
        var tiles: [TileID: RGBAImage?] = [:]
        let zoom = min(max(z, dem.minZoom), dem.maxZoom)
        guard let found = try dem.lookUp(lon: lon, lat: lat, zoom: zoom, tiles: &tiles, tileSize: config.dataTileSizes[id]) else {
            return HTTPResponse(status: 204, headers: [("Cache-Control", config.cacheControl)])
        }
        let o: [String: Any] = ["long": lon, "lat": lat, "elevation": found.meters, "z": zoom, "x": found.tileX, "y": found.tileY,
                                "pixelX": found.pixelX, "pixelY": found.pixelY]
        let data = try JSONSerialization.data(withJSONObject: o, options: [.sortedKeys])
        return .json(String(decoding: data, as: UTF8.self), extra: [("Cache-Control", config.cacheControl)])
    }

    /// tileserver-gl's batch `POST /data/{id}/elevation`: `{"points": [{"lon", "lat", "z"}, ...]}`
    /// answers the elevations in order (null where there is no data); each tile is read once.
    /// 400 for a body that is not that (naming the point), or more than `ServerConfig.maxElevationPoints` points.
    func elevationBatch(_ id: String, body: RequestBodyContent) throws -> HTTPResponse {
        let dem = try elevationData(id)
        let bytes: [UInt8]
        switch body {
        case .tooLarge: throw ServerError.payloadTooLarge("the request body is larger than \(config.maxRequestBody) bytes (maxRequestBody)")
        case .bytes(let b): bytes = b
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              let points = object["points"] as? [Any], !points.isEmpty else {
            throw ServerError.badRequest("Missing or empty points array: the body must be {\"points\": [{\"lon\": ..., \"lat\": ..., \"z\": ...}, ...]}")
        }
        guard points.count <= config.maxElevationPoints else {
            throw ServerError.badRequest("more than \(config.maxElevationPoints) elevation points (\(points.count))")
        }
        var parsed: [(lon: Double, lat: Double, z: Double)] = []
        for (i, p) in points.enumerated() {
            guard let point = p as? [String: Any] else { throw ServerError.badRequest("Invalid point at index \(i): point must be an object") }
            func number(_ key: String) throws -> Double {
                guard let n = point[key] as? NSNumber, String(cString: n.objCType) != "c", n.doubleValue.isFinite else {
                    throw ServerError.badRequest("Invalid point at index \(i): \(key) must be a finite number")
                }
                return n.doubleValue
            }
            parsed.append((try number("lon"), try number("lat"), try number("z")))
        }
        var tiles: [TileID: RGBAImage?] = [:]
        var results: [Any] = []
        for p in parsed {
            // As tileserver-gl: the zoom clamped to the data's (a fractional zoom is floored).
            let zoom = min(max(Int(min(max(p.z, -1), 64).rounded(.down)), dem.minZoom), dem.maxZoom)
            let found = try dem.lookUp(lon: p.lon, lat: p.lat, zoom: zoom, tiles: &tiles, tileSize: config.dataTileSizes[id])
            results.append(found.map { $0.meters as Any } ?? NSNull())
        }
        let data = try JSONSerialization.data(withJSONObject: results)
        return .json(String(decoding: data, as: UTF8.self))
    }

    /// The raster-dem entry `id`: 404 when unknown, 400 without a usable encoding or format.
    private func elevationData(_ id: String) throws -> DEMData {
        guard let src = catalog.source(id) else { throw ServerError.notFound("no data '\(id)'") }
        guard let name = config.dataEncodings[id] else {
            throw ServerError.badRequest("data '\(id)' has no \"encoding\" in the configuration: the elevation API serves raster-dem data (\"encoding\": \"mapbox\" or \"terrarium\")")
        }
        guard let encoding = DEMEncoding(rawValue: name) else {
            throw ServerError.badRequest("data '\(id)' has \"encoding\": \"\(name.prefix(32))\": it must be mapbox or terrarium")
        }
        guard src.format == "png" || src.format == "webp" else {
            throw ServerError.badRequest("data '\(id)' has .\(src.format) tiles: the elevation API reads png or webp")
        }
        let fields = src.tileJSONFields
        return DEMData(id: id, file: src, encoding: encoding, minZoom: fields["minzoom"] as? Int ?? 0, maxZoom: fields["maxzoom"] as? Int ?? 22)
    }
}

/// A raster-dem data entry, for the elevation API.
struct DEMData {
    var id: String
    var file: DataFile
    var encoding: DEMEncoding
    var minZoom: Int, maxZoom: Int

    /// The pixel under (lon, lat) at `zoom` (0-22) and its elevation; nil where the file has no tile
    /// or pixel. `tiles` keeps the tiles decoded so far (nil: none stored). `tileSize`: the pixel
    /// grid (the entry's `tileSize`), else the tile's width.
    func lookUp(lon: Double, lat: Double, zoom: Int, tiles: inout [TileID: RGBAImage?], tileSize: Int?)
        throws -> (tileX: Int, tileY: Int, pixelX: Int, pixelY: Int, meters: Double)? {
        // As tileserver-gl: the sine is clamped to ±0.9999 (about ±89.19°), a third of a tile past the world's edge.
        let world = (x: Mercator.x(lon: lon), y: Mercator.y(sine: min(max(sin(lat * .pi / 180), -0.9999), 0.9999)))
        let scale = Double(1 << zoom)
        let worldX = world.x * scale, worldY = world.y * scale
        guard worldX.magnitude < 1e9 else { return nil }
        let tileX = Int(floor(worldX)), tileY = Int(floor(worldY))
        guard let tile = TileID(z: zoom, x: tileX, y: tileY) else { return nil }
        let image: RGBAImage
        if let kept = tiles[tile] {
            guard let kept else { return nil }
            image = kept
        } else {
            let stored: [UInt8]?
            do { stored = try file.tileData(tile) } catch {
                throw ServerError.renderFailed("data '\(id)' tile \(tile): \(error)")
            }
            guard let bytes = stored, !bytes.isEmpty else { tiles[tile] = .some(nil); return nil }
            do { image = try ImageDecoder().decode(bytes) } catch {
                throw ServerError.renderFailed("data '\(id)' tile \(tile) is not a readable image: \(error)")
            }
            tiles[tile] = image
        }
        let size = tileSize ?? image.width
        let pixelX = Int(floor(worldX * Double(size))) - tileX * size
        let pixelY = Int(floor(worldY * Double(size))) - tileY * size
        guard pixelX >= 0, pixelY >= 0, pixelX < min(size, image.width), pixelY < min(size, image.height) else { return nil }
        let i = (pixelY * image.width + pixelX) * 4
        return (tileX, tileY, pixelX, pixelY, encoding.elevation(red: image.pixels[i], green: image.pixels[i + 1], blue: image.pixels[i + 2]))
    }
}
