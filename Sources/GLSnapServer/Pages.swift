import Foundation
import GLSnapStyle

extension MapService {
    /// TileJSON 2.2 for a style's raster tiles.
    func tileJSON(_ s: ServedStyle, tileSize: Int, base: String) -> String {
        let prefix = tileSize == 512 ? "/512" : ""
        let b = s.bounds ?? [-180, -Mercator.maxLatitude, 180, Mercator.maxLatitude]
        let nums = b.map { String($0) }.joined(separator: ", ")
        return "{\"tilejson\": \"2.2.0\", \"name\": \(JSON.quote(s.name)), \"id\": \(JSON.quote(s.id)), \"format\": \"png\", "
            + "\"tileSize\": \(tileSize), \"minzoom\": 0, \"maxzoom\": \(Int(Router.maxZoom)), \"bounds\": [\(nums)], "
            + "\"center\": [\(s.preview.lon), \(s.preview.lat), \(Int(s.preview.zoom))], "
            + "\"tiles\": [\(JSON.quote("\(base)/styles/\(s.id)\(prefix)/{z}/{x}/{y}.png"))]}"
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
            html += "<a href=\"/styles/\(e).json\">TileJSON</a>, <a href=\"/styles/\(e)/static/\(v)/800x600.png\">800x600</a></li>\n"
        }
        html += "</ul><p><a href=\"/styles.json\">styles.json</a> · <a href=\"/metrics\">metrics</a> · <a href=\"/health\">health</a></p>"
        html += "</body></html>\n"
        return html
    }
}
