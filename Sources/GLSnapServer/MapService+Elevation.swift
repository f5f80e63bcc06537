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
        let minZoom = fields["minzoom"] as? Int ?? 0, maxZoom = fields["maxzoom"] as? Int ?? 22
        let lon: Double, lat: Double
        if x == x.rounded(), y == y.rounded() {
            let n = Double(1 << z)
            guard z >= minZoom, z <= maxZoom, x >= 0, y >= 0, x < n, y < n else {
                throw ServerError.notFound("elevation tile \(z)/\(Int(x))/\(Int(y)) is out of bounds: data '\(id)' has zooms \(minZoom)-\(maxZoom), x and y 0-\(1 << z - 1) at zoom \(z)")
            }
            lon = (x + 0.5) / n * 360 - 180
            lat = (Mercator.unproject(x: 0, y: y / n).lat + Mercator.unproject(x: 0, y: (y + 1) / n).lat) / 2
        } else {
            lon = x; lat = y
        }
        let zoom = min(max(z, minZoom), maxZoom)
        // As tileserver-gl: the sine is clamped to ±0.9999 (about ±89.19°), a third of a tile past the world's edge.
        let s = min(max(sin(lat * .pi / 180), -0.9999), 0.9999)
        let scale = Double(1 << zoom)
        let worldX = (0.5 + lon / 360) * scale, worldY = (0.5 - Foundation.log((1 + s) / (1 - s)) / (4 * .pi)) * scale
        let tileX = Int(floor(worldX)), tileY = Int(floor(worldY))
        let noData = HTTPResponse(status: 204, headers: [("Cache-Control", config.cacheControl)])
        guard let tile = TileID(z: zoom, x: tileX, y: tileY) else { return noData }
        let stored: [UInt8]?
        do { stored = try src.tileData(tile) } catch {
            throw ServerError.renderFailed("data '\(id)' tile \(tile): \(error)")
        }
        guard let bytes = stored, !bytes.isEmpty else { return noData }
        let image: RGBAImage
        do { image = try ImageDecoder().decode(bytes) } catch {
            throw ServerError.renderFailed("data '\(id)' tile \(tile) is not a readable image: \(error)")
        }
        let size = config.dataTileSizes[id] ?? image.width
        let pixelX = Int(floor(worldX * Double(size))) - tileX * size
        let pixelY = Int(floor(worldY * Double(size))) - tileY * size
        guard pixelX >= 0, pixelY >= 0, pixelX < min(size, image.width), pixelY < min(size, image.height) else { return noData }
        let i = (pixelY * image.width + pixelX) * 4
        let meters = encoding.elevation(red: image.pixels[i], green: image.pixels[i + 1], blue: image.pixels[i + 2])
        let o: [String: Any] = ["long": lon, "lat": lat, "elevation": meters, "z": zoom, "x": tileX, "y": tileY,
                                "pixelX": pixelX, "pixelY": pixelY]
        let data = try JSONSerialization.data(withJSONObject: o, options: [.sortedKeys])
        return .json(String(decoding: data, as: UTF8.self), extra: [("Cache-Control", config.cacheControl)])
    }
}
