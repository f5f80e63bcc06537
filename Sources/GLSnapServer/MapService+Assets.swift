import Foundation
import GLSnapData
import GLSnapStyle

/// The endpoints that hand out files the styles use, under ids and names only: sprite sheets,
/// glyph ranges, MBTiles TileJSON and tiles (tileserver-gl's `/styles/{id}/sprite`, `/fonts`, `/data`).
extension MapService {
    /// Largest sprite or glyph file served (a sprite sheet is at most a few MiB; 64 MiB bounds memory).
    static let maxAssetBytes = 64 << 20

    func sprite(_ s: ServedStyle, highDensity: Bool, json: Bool) throws -> HTTPResponse {
        guard let base = s.spriteBase else { throw ServerError.notFound("style '\(s.id)' has no sprite sheet served here") }
        let file = base + (highDensity ? "@2x" : "") + (json ? ".json" : ".png")
        let bytes = try readAsset(file, what: "sprite \(highDensity ? "@2x " : "")\(json ? "index" : "image") of style '\(s.id)'")
        return HTTPResponse(status: 200, headers: [("Content-Type", json ? "application/json" : "image/png"),
                                                   ("Cache-Control", config.cacheControl)], body: bytes)
    }

    /// As tileserver-gl: every font of the stack must be served (400 naming the first that is not);
    /// the glyphs of each font that has the range are combined, the first font's glyph winning.
    func glyphs(stack: [String], range: String) throws -> HTTPResponse {
        if let unknown = stack.first(where: { !catalog.hasFont($0) }) {
            throw ServerError.badRequest("font '\(unknown.prefix(128))' is not served (see /fonts.json)")
        }
        var files: [[UInt8]] = []
        for font in stack {
            guard let file = catalog.glyphFile(stack: [font], range: range) else { continue }
            files.append(try readAsset(file, what: "glyphs \(range) of '\(font)'"))
        }
        guard !files.isEmpty else { throw ServerError.notFound("no font of '\(stack.joined(separator: ","))' has glyphs \(range)") }
        let bytes: [UInt8]
        if files.count == 1 { bytes = files[0] } else {
            do { bytes = try GlyphStacks.combine(files, name: stack.joined(separator: ","), range: range) } catch {
                throw ServerError.renderFailed("glyphs \(range) of '\(stack.joined(separator: ","))': \(error)")
            }
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/x-protobuf"), ("Cache-Control", config.cacheControl)],
                            body: bytes)
    }

    func dataTileJSON(_ id: String, base: String) throws -> HTTPResponse {
        let data = try JSONSerialization.data(withJSONObject: try dataTileJSONObject(id, base: base), options: [.sortedKeys, .withoutEscapingSlashes])
        return .json(String(decoding: data, as: UTF8.self), extra: [("Cache-Control", config.cacheControl)])
    }

    func dataTileJSONObject(_ id: String, base: String) throws -> [String: Any] {
        let src = try dataSource(id)
        let ext = src.format
        var o = src.tileJSONFields
        o["tilejson"] = "2.2.0"
        o["id"] = id
        o["name"] = o["name"] ?? id
        o["format"] = ext
        if let e = config.dataEncodings[id] { o["encoding"] = e }
        o["tiles"] = tileBases(base).map { "\($0)/data/\(id)/{z}/{x}/{y}.\(ext)" }
        // An empty list would make MapLibre GL JS refuse every `source-layer`: left out, as unknown.
        if (o["vector_layers"] as? [Any])?.isEmpty ?? false { o["vector_layers"] = nil }
        return o
    }

    /// The tile as stored (gzip-compressed vector tiles keep `Content-Encoding: gzip`); 204 when
    /// the file has no such tile, as tileserver-gl answers. A read error is a 500, logged.
    func dataTile(_ id: String, tile: TileID, ext: String) throws -> HTTPResponse {
        let src = try dataSource(id)
        let expected = src.format
        if ext == "geojson" && expected == "pbf" { return try geoJSONTile(id, src, tile) }
        guard ext == expected else { throw ServerError.notFound("data '\(id)' has .\(expected) tiles, not .\(ext.prefix(16))") }
        let stored: [UInt8]?
        do { stored = try src.tileData(tile) } catch {
            throw ServerError.renderFailed("data '\(id)' tile \(tile): \(error)")
        }
        guard let bytes = stored, !bytes.isEmpty else { return HTTPResponse(status: 204, headers: [("Cache-Control", config.cacheControl)]) }
        var headers: [(String, String)] = [("Cache-Control", config.cacheControl)]
        if expected == "pbf" {
            headers.append(("Content-Type", "application/x-protobuf"))
            if bytes.count >= 2, bytes[0] == 0x1F, bytes[1] == 0x8B { headers.append(("Content-Encoding", "gzip")) }
        } else {
            headers.append(("Content-Type", expected == "jpg" ? "image/jpeg" : "image/\(expected)"))
        }
        return HTTPResponse(status: 200, headers: headers, body: bytes)
    }

    /// tileserver-gl's `.geojson` of a vector tile: one FeatureCollection of every layer's features
    /// in longitude/latitude, each with its layer's name as property `layer`; 204 when there is no tile.
    func geoJSONTile(_ id: String, _ src: DataFile, _ tile: TileID) throws -> HTTPResponse {
        let decoded: VectorTile?
        do { decoded = try src.source.vectorTile(tile) } catch {
            throw ServerError.renderFailed("data '\(id)' tile \(tile): \(error)")
        }
        guard let vt = decoded else { return HTTPResponse(status: 204, headers: [("Cache-Control", config.cacheControl)]) }
        var features: [[String: Any]] = []
        for name in vt.layers.keys.sorted() {
            let layer = vt.layers[name]!
            for f in layer.features {
                guard let geometry = GeoJSONTile.geometry(f, extent: layer.extent, tile: tile) else { continue }
                var properties = f.properties.mapValues(\.foundationValue)
                properties["layer"] = name
                var feature: [String: Any] = ["type": "Feature", "geometry": geometry, "properties": properties]
                if let fid = f.id { feature["id"] = fid.foundationValue }
                features.append(feature)
            }
        }
        let data = try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": features] as [String: Any],
                                              options: [.withoutEscapingSlashes])
        guard data.count <= MapService.maxAssetBytes else {
            throw ServerError.renderFailed("data '\(id)' tile \(tile) as GeoJSON is larger than \(MapService.maxAssetBytes >> 20) MiB")
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", config.cacheControl)], body: [UInt8](data))
    }

    /// tileserver-gl's `/files/`: a regular file under `paths.files` (names checked by the router,
    /// links not followed out of the folder), its type from its extension.
    func staticFile(_ segments: [String]) throws -> HTTPResponse {
        let folder = config.paths.files
        guard !folder.isEmpty else { throw ServerError.notFound("no files folder is configured (options.paths.files)") }
        let file = (folder as NSString).appendingPathComponent(segments.joined(separator: "/"))
        let real = (file as NSString).resolvingSymlinksInPath, realFolder = (folder as NSString).resolvingSymlinksInPath
        var isDir: ObjCBool = false
        guard real.hasPrefix(realFolder + "/"), FileManager.default.fileExists(atPath: real, isDirectory: &isDir), !isDir.boolValue else {
            throw ServerError.notFound("no file '\(segments.joined(separator: "/").prefix(200))' in the files folder")
        }
        let types = ["json": "application/json", "geojson": "application/geo+json", "png": "image/png", "jpg": "image/jpeg",
                     "jpeg": "image/jpeg", "webp": "image/webp", "pbf": "application/x-protobuf", "html": "text/html; charset=utf-8",
                     "css": "text/css", "js": "application/javascript", "txt": "text/plain; charset=utf-8", "svg": "image/svg+xml"]
        let ext = (real as NSString).pathExtension.lowercased()
        let bytes = try readAsset(real, what: "file '\(segments.joined(separator: "/").prefix(200))'")
        return HTTPResponse(status: 200, headers: [("Content-Type", types[ext] ?? "application/octet-stream"),
                                                   ("Cache-Control", config.cacheControl)], body: bytes)
    }

    func viewerAsset(folder: String, js: Bool) throws -> HTTPResponse {
        let file = (folder as NSString).appendingPathComponent(js ? "maplibre-gl.js" : "maplibre-gl.css")
        let bytes = try readAsset(file, what: "MapLibre GL JS's \(js ? "script" : "style sheet") (--maplibre)")
        return HTTPResponse(status: 200, headers: [("Content-Type", js ? "application/javascript" : "text/css"),
                                                   ("Cache-Control", config.cacheControl)], body: bytes)
    }

    private func dataSource(_ id: String) throws -> DataFile {
        guard let src = catalog.source(id) else { throw ServerError.notFound("no data '\(id)'") }
        return src
    }

    private func readAsset(_ file: String, what: String) throws -> [UInt8] {
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? nil
        guard let size else { throw ServerError.notFound("\(what) is not there") }
        guard size <= MapService.maxAssetBytes else {
            throw ServerError.renderFailed("\(what) is larger than \(MapService.maxAssetBytes >> 20) MiB")
        }
        guard let data = FileManager.default.contents(atPath: file) else { throw ServerError.notFound("\(what) cannot be read") }
        return [UInt8](data)
    }
}
