import Foundation
import GLSnapData
import GLSnapStyle

extension MapService {
    /// TileJSON 2.2 for a style's raster tiles.
    func tileJSON(_ s: ServedStyle, tileSize: Int, base: String) -> String {
        let plain = plainTileJSON(s, tileSize: tileSize, base: base)
        guard !s.tileJSONOverrides.isEmpty,
              var o = (try? JSONSerialization.jsonObject(with: Data(plain.utf8))) as? [String: Any] else { return plain }
        // The configuration's `tilejson` keys over the generated ones; its `format` names the tiles' extension.
        for (k, v) in s.tileJSONOverrides { o[k] = v }
        if let f = s.tileJSONOverrides["format"] as? String, let tiles = o["tiles"] as? [String] {
            o["tiles"] = tiles.map { $0.hasSuffix(".png") ? String($0.dropLast(3)) + f : $0 }
        }
        guard let data = try? JSONSerialization.data(withJSONObject: o, options: [.sortedKeys, .withoutEscapingSlashes]) else { return plain }
        return String(decoding: data, as: UTF8.self)
    }

    private func plainTileJSON(_ s: ServedStyle, tileSize: Int, base: String) -> String {
        let prefix = tileSize == 512 ? "/512" : ""
        let b = s.bounds ?? [-180, -Mercator.maxLatitude, 180, Mercator.maxLatitude]
        let nums = b.map { String($0) }.joined(separator: ", ")
        return "{\"tilejson\": \"2.2.0\", \"name\": \(JSON.quote(s.name)), \"id\": \(JSON.quote(s.id)), \"format\": \"png\", "
            + "\"tileSize\": \(tileSize), \"minzoom\": 0, \"maxzoom\": \(Int(Router.maxZoom)), \"bounds\": [\(nums)], "
            + "\"center\": [\(s.preview.lon), \(s.preview.lat), \(Int(s.preview.zoom))], "
            + "\"tiles\": [\(tileBases(base).map { JSON.quote("\($0)/styles/\(s.id)\(prefix)/{z}/{x}/{y}.png") }.joined(separator: ", "))]}"
    }

    /// The `/` page: every style with a preview image and its endpoints.
    func indexPage() -> String {
        var html = "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>glsnap serve</title>"
        html += "<style>body{font-family:sans-serif;margin:2em}li{list-style:none;margin:1em 0}img{border:1px solid #ccc;vertical-align:middle;margin-right:1em}</style>"
        html += "</head><body><h1>glsnap serve</h1><ul>\n"
        for id in styleOrder {
            guard let s = styles[id] else { continue }
            let e = htmlEscape(s.id)
            let v = String(format: "%.5f,%.5f,%.2f", s.preview.lon, s.preview.lat, s.preview.zoom)
            html += "<li><img src=\"/styles/\(e)/static/\(v)/320x240.png\" width=\"320\" height=\"240\" alt=\"\(e)\">"
            html += "<b>\(htmlEscape(s.name))</b> (\(e)): <a href=\"/styles/\(e)/style.json\">style</a>, "
            html += "<a href=\"/styles/\(e).json\">TileJSON</a>, <a href=\"/styles/\(e)/wmts.xml\">WMTS</a>, "
            html += "<a href=\"/styles/\(e)/static/\(v)/800x600.png\">800x600</a>"
            html += hasViewer ? ", <a href=\"/styles/\(e)/\">viewer</a></li>\n" : "</li>\n"
        }
        html += "</ul>\n"
        let data = catalog.ids
        if !data.isEmpty {
            html += "<h2>Data</h2><ul>\n"
            for id in data {
                let e = htmlEscape(id)
                let format = catalog.source(id)?.format ?? "pbf"
                html += "<li><b>\(e)</b> (\(htmlEscape(format))): <a href=\"/data/\(e).json\">TileJSON</a>"
                html += hasViewer ? ", <a href=\"/data/\(e)/\">viewer</a></li>\n" : "</li>\n"
            }
            html += "</ul>\n"
        }
        if !hasViewer { html += "<p>Map viewers need MapLibre GL JS: start with <code>--maplibre FOLDER</code>.</p>\n" }
        html += "<p><a href=\"/styles.json\">styles.json</a> · <a href=\"/index.json\">index.json</a> · <a href=\"/fonts.json\">fonts.json</a> · <a href=\"/metrics\">metrics</a> · <a href=\"/health\">health</a></p>"
        html += "</body></html>\n"
        return html
    }

    /// The bases of TileJSON tile URLs: one per configured domain (tileserver-gl's `domains`,
    /// the public URL's scheme and path kept), else `base`.
    func tileBases(_ base: String) -> [String] {
        guard !config.domains.isEmpty else { return [base] }
        var scheme = "http", path = base
        for prefix in ["http://", "https://"] where base.hasPrefix(prefix) {
            scheme = String(prefix.dropLast(3))
            let rest = base.dropFirst(prefix.count)
            path = rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? ""
        }
        return config.domains.map { "\(scheme)://\($0)\(path)" }
    }

    var hasViewer: Bool { config.maplibreFolder != nil }

    /// A full-window MapLibre GL JS map of a style (`/styles/{id}/`) or a data set (`/data/{id}/`),
    /// the library from `/maplibre/` (this service, no outside CDN); the view follows the URL's hash.
    func viewerPage(title: String, style: String, center: (lon: Double, lat: Double, zoom: Double)) -> String {
        var html = "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>\(htmlEscape(title))</title>"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        html += "<link rel=\"stylesheet\" href=\"/maplibre/maplibre-gl.css\"><script src=\"/maplibre/maplibre-gl.js\"></script>"
        html += "<style>html,body,#map{margin:0;height:100%;width:100%}</style></head><body><div id=\"map\"></div><script>\n"
        html += "var map = new maplibregl.Map({container: 'map', hash: true, style: \(style), "
        html += String(format: "center: [%.6f, %.6f], zoom: %.2f", center.lon, center.lat, center.zoom) + "});\n"
        html += "map.addControl(new maplibregl.NavigationControl());\n"
        html += "map.on('idle', function () { document.body.setAttribute('data-map-idle', '1'); });\n"
        html += "</script></body></html>\n"
        return html
    }

    /// The viewer of style `s`: its style.json.
    func styleViewer(_ s: ServedStyle) -> String {
        viewerPage(title: s.name, style: JSON.quote("\(publicBase)/styles/\(s.id)/style.json"), center: s.preview)
    }

    /// The viewer of a data set: vector data as lines, fills and circles of each layer; raster data as is.
    func dataViewer(_ id: String) throws -> String {
        let tj = try dataTileJSONObject(id, base: publicBase)
        let format = tj["format"] as? String ?? "pbf"
        var layers: [[String: Any]] = [["id": "background", "type": "background", "paint": ["background-color": "#f4f3ef"]]]
        if format == "pbf" {
            let listed = (tj["vector_layers"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            let names = listed.isEmpty ? (catalog.guessedLayers[id] ?? []).compactMap { $0["id"] as? String } : listed
            for (i, name) in names.enumerated() {
                let color = "hsl(\((i * 137) % 360), 60%, 45%)"
                layers.append(["id": "\(name)-fill", "type": "fill", "source": "data", "source-layer": name,
                               "filter": ["==", "$type", "Polygon"], "paint": ["fill-color": color, "fill-opacity": 0.25]])
                layers.append(["id": "\(name)-line", "type": "line", "source": "data", "source-layer": name,
                               "filter": ["!=", "$type", "Point"], "paint": ["line-color": color, "line-width": 1]])
                layers.append(["id": "\(name)-point", "type": "circle", "source": "data", "source-layer": name,
                               "filter": ["==", "$type", "Point"], "paint": ["circle-color": color, "circle-radius": 2]])
            }
        } else {
            layers.append(["id": "raster", "type": "raster", "source": "data"])
        }
        let style: [String: Any] = ["version": 8, "sources": ["data": ["type": format == "pbf" ? "vector" : "raster",
                                                                       "url": "\(publicBase)/data/\(id).json"]],
                                    "layers": layers]
        let text = String(decoding: try JSONSerialization.data(withJSONObject: style, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self)
        var center = (lon: 0.0, lat: 0.0, zoom: 1.0)
        if let b = tj["bounds"] as? [Double], b.count == 4 {
            center = ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2, Double(tj["minzoom"] as? Int ?? 0) + 1)
        }
        // `</` cannot end the script early: JSON escapes nothing there, so break it.
        return viewerPage(title: id, style: text.replacingOccurrences(of: "</", with: "<\\/"), center: center)
    }

}
