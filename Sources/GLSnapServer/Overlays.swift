import Foundation
import GLSnapStyle
import GLSnapData
import GLSnapImage

/// Straight-alpha RGBA, components 0...1.
struct RGBA: Equatable {
    var r, g, b, a: Double

    init(r: Double, g: Double, b: Double, a: Double) { self.r = r; self.g = g; self.b = b; self.a = a }

    /// A CSS color (`red`, `#0000ff`, `rgba(255,255,255,0.5)`, ...) given as `parameter` (which
    /// the 400 names: `stroke`, `fill`, `path stroke`).
    init(css: String, parameter: String) throws {
        guard css.utf8.count <= 64 else {
            throw ServerError.badRequest("\(parameter): '\(css.prefix(64))...' is not a CSS color (over 64 bytes)")
        }
        let c: Color
        do { c = try Color(css: css) } catch { throw ServerError.badRequest("\(parameter): \(error)") }
        let u = c.unpremultiplied
        self.init(r: u.r, g: u.g, b: u.b, a: u.a)
    }
}

/// How a stroke's ends are drawn (`linecap`, canvas names; tileserver-gl's default butt).
enum LineCap: String, Equatable { case butt, round, square }
/// How a stroke's corners are drawn (`linejoin`; default miter, limit 10 as a canvas's).
enum LineJoin: String, Equatable { case miter, round, bevel }

/// A polyline or polygon drawn over a static image (`path=`).
struct OverlayPath: Equatable {
    var points: [(lon: Double, lat: Double)]
    /// nil: `none` or `transparent`, no stroke.
    var stroke: RGBA?
    var fill: RGBA?
    /// Stroke width in points; 0 draws no stroke.
    var width: Double
    /// A wider stroke under the line (`border`), `borderWidth` points past each side of it.
    var border: RGBA? = nil
    var borderWidth: Double = 0

    static func == (a: OverlayPath, b: OverlayPath) -> Bool {
        a.stroke == b.stroke && a.fill == b.fill && a.width == b.width && a.border == b.border && a.borderWidth == b.borderWidth
            && a.points.count == b.points.count && zip(a.points, b.points).allSatisfy { $0.lon == $1.lon && $0.lat == $1.lat }
    }
}

/// A marker (`marker=lon,lat|icon|scale:s|offset:x,y`): the icon's bottom center sits on the location.
struct OverlayMarker: Equatable {
    var lon: Double, lat: Double
    /// A file name in the configured icons folder (PNG); other names draw a circle.
    var icon: String
    /// A `data:image/png;base64,...` icon, decoded (tileserver-gl's `allowInlineMarkerImages`).
    var inline: RGBAImage? = nil
    var scale: Double = 1
    var offsetX: Double = 0, offsetY: Double = 0
}

/// The overlays of a static-image request, parsed and checked against the configured limits.
struct Overlays: Equatable {
    var paths: [OverlayPath] = []
    var markers: [OverlayMarker] = []
    var lineCap = LineCap.butt
    var lineJoin = LineJoin.miter
    /// Mapbox's labelled pins (from the path's overlay segment).
    var pins: [OverlayPin] = []

    var isEmpty: Bool { paths.isEmpty && markers.isEmpty && pins.isEmpty }

    /// Every coordinate of every path, marker and pin (for `auto`).
    var coordinates: [(lon: Double, lat: Double)] {
        paths.flatMap(\.points) + markers.map { ($0.lon, $0.lat) } + pins.map { ($0.lon, $0.lat) }
    }

    struct Limits {
        var maxPoints: Int; var maxPaths: Int; var maxMarkers: Int
        /// `ServerConfig.allowInlineMarkerImages`.
        var inlineMarkers = false
        /// `ServerConfig.allowRemoteMarkerIcons`: fetches `http(s)` icons; nil: refused.
        var remoteIcons: HTTPClient? = nil
    }

    /// Reads `path`, `marker`, `latlng`, `stroke`, `fill`, `width`, `border`, `borderwidth`,
    /// `linecap` and `linejoin` as tileserver-gl does; a coordinate or option that does not parse is
    /// a 400 (tileserver-gl skips it silently).
    /// `raw`: coordinate pairs are EPSG:3857 meters (`static/raw`; encoded polylines stay degrees, as tileserver-gl's).
    static func parse(_ query: [(key: String, value: String)], limits: Limits, raw: Bool = false) throws -> Overlays {
        func first(_ k: String) -> String? { query.first { $0.key == k }?.value }
        let latlng = first("latlng") == "1" || first("latlng") == "true"
        let stroke: RGBA? = try first("stroke").map { try paint($0, "stroke") } ?? RGBA(r: 0, g: 64 / 255, b: 1, a: 0.7)
        // An empty `fill=` is tileserver-gl's default fill.
        let fill: RGBA? = try first("fill").flatMap { $0.isEmpty ? RGBA(r: 1, g: 1, b: 1, a: 0.4) : try paint($0, "fill") }
        var width = 1.0
        if let w = first("width") { width = try strokeWidth(w) }
        let border: RGBA? = try first("border").flatMap { try paint($0, "border") }
        let borderWidth = try first("borderwidth").map(borderSize)
        var result = Overlays()
        if let c = first("linecap") {
            guard let cap = LineCap(rawValue: c) else { throw ServerError.badRequest("linecap must be butt, round or square") }
            result.lineCap = cap
        }
        if let j = first("linejoin") {
            guard let join = LineJoin(rawValue: j) else { throw ServerError.badRequest("linejoin must be miter, round or bevel") }
            result.lineJoin = join
        }
        var total = 0
        for item in query where item.key == "path" {
            guard result.paths.count < limits.maxPaths else { throw ServerError.badRequest("more than \(limits.maxPaths) paths") }
            var path = OverlayPath(points: [], stroke: stroke, fill: fill, width: width, border: border)
            var inlineBorder: RGBA?? = nil, inlineBorderWidth: Double? = nil
            var parts = item.value.split(separator: "|", omittingEmptySubsequences: false)[...]
            // Per-path options come first: fill:..., stroke:..., width:..., border:..., borderwidth:...
            while let p = parts.first, let colon = p.firstIndex(of: ":"), !p.hasPrefix("enc:") {
                let name = p[..<colon], value = String(p[p.index(after: colon)...])
                switch name {
                case "fill": path.fill = try paint(value, "path fill")
                case "stroke": path.stroke = try paint(value, "path stroke")
                case "width": path.width = try strokeWidth(value)
                case "border": inlineBorder = .some(try paint(value, "path border"))
                case "borderwidth": inlineBorderWidth = try borderSize(value)
                default: throw ServerError.badRequest("unknown path option '\(name.prefix(32))' (fill, stroke, width, border, borderwidth)")
                }
                parts = parts.dropFirst()
            }
            // As tileserver-gl: an inline border takes its inline width; else the query's; else 10% of the line.
            if let b = inlineBorder { path.border = b }
            path.borderWidth = (inlineBorder != nil ? inlineBorderWidth : nil) ?? borderWidth ?? path.width * 0.1
            if let p = parts.first, p.hasPrefix("enc:") {
                // The polyline is everything after "enc:", '|' included (a valid polyline character).
                let encoded = parts.joined(separator: "|").dropFirst(4)
                path.points = try decodePolyline(Substring(encoded), limit: limits.maxPoints - total)
            } else {
                for pair in parts where !pair.isEmpty {
                    guard total + path.points.count < limits.maxPoints else {
                        throw ServerError.badRequest("overlays have more than \(limits.maxPoints) points")
                    }
                    path.points.append(try coordinate(pair, latlng: latlng, raw: raw))
                }
            }
            guard !path.points.isEmpty else { throw ServerError.badRequest("a path needs at least one lng,lat pair") }
            total += path.points.count
            result.paths.append(path)
        }
        for item in query where item.key == "marker" {
            guard result.markers.count < limits.maxMarkers else { throw ServerError.badRequest("more than \(limits.maxMarkers) markers") }
            let parts = item.value.split(separator: "|", omittingEmptySubsequences: false)
            guard parts.count >= 2 else { throw ServerError.badRequest("a marker is lng,lat|icon[|scale:s][|offset:x,y]") }
            let c = try coordinate(parts[0], latlng: latlng, raw: raw)
            let icon = String(parts[1])
            var inline: RGBAImage?
            if HTTPClient.handles(icon) {
                guard let client = limits.remoteIcons else {
                    throw ServerError.badRequest("remote marker icons are off (allowRemoteMarkerIcons): \(icon.prefix(256))")
                }
                inline = try remoteIcon(icon, client: client)
            } else if icon.hasPrefix("data:") {
                guard limits.inlineMarkers else { throw ServerError.badRequest("inline marker images are off (allowInlineMarkerImages)") }
                inline = try inlineIcon(icon)
            } else {
                guard isSafeName(icon) else { throw ServerError.badRequest("invalid marker icon name (a file name in the icons folder)") }
            }
            var marker = OverlayMarker(lon: c.lon, lat: c.lat, icon: inline == nil ? icon : "inline", inline: inline)
            for option in parts.dropFirst(2) {
                if option.hasPrefix("scale:"), let s = parseDecimal(option.dropFirst(6)), s > 0, s <= 8 {
                    marker.scale = s
                } else if option.hasPrefix("offset:") {
                    let xy = option.dropFirst(7).split(separator: ",", omittingEmptySubsequences: false)
                    guard (1...2).contains(xy.count), let x = parseDecimal(xy[0]), abs(x) <= 4096 else {
                        throw ServerError.badRequest("marker offset must be x[,y] in pixels")
                    }
                    marker.offsetX = x
                    if xy.count == 2 {
                        guard let y = parseDecimal(xy[1]), abs(y) <= 4096 else { throw ServerError.badRequest("marker offset must be x[,y] in pixels") }
                        marker.offsetY = y
                    }
                } else {
                    throw ServerError.badRequest("unknown marker option '\(option.prefix(32))' (scale:0-8, offset:x,y)")
                }
            }
            result.markers.append(marker)
        }
        return result
    }

    /// Largest inline icon: the PNG's bytes and its side in pixels (as a file icon's, `IconStore`).
    static let maxInlineBytes = 1 << 20, maxInlineSide = 512

    /// How remote marker icons are fetched: at most `maxInlineBytes`, 5 s to connect, 10 s in
    /// all, no retry (the request waits on it), 8 MiB of them kept in memory.
    static let remoteIconOptions = HTTPOptions(connectTimeout: 5, totalTimeout: 10, maxBytes: maxInlineBytes, retries: 0,
                                               cacheBytes: 8 << 20, maxConnections: 4)

    /// The PNG, JPEG or WebP image at `url`, at most `maxInlineSide` px a side; a 400 naming the
    /// URL and what is wrong otherwise.
    private static func remoteIcon(_ url: String, client: HTTPClient) throws -> RGBAImage {
        let shown = url.prefix(256)
        let fetched: [UInt8]?
        do { fetched = try client.fetch(url) } catch {
            throw ServerError.badRequest("the marker icon \(shown) could not be fetched: \(error)")
        }
        guard let bytes = fetched else { throw ServerError.badRequest("the marker icon \(shown) was not found (404)") }
        do { return try ImageDecoder(limits: .init(maxDimension: maxInlineSide, maxBytes: maxInlineBytes)).decode(bytes) } catch {
            throw ServerError.badRequest("the marker icon \(shown) is not a PNG, JPEG or WebP image of at most \(maxInlineSide) px a side: \(error)")
        }
    }

    /// `data:image/png;base64,...` decoded; a 400 naming what is wrong otherwise.
    private static func inlineIcon(_ uri: String) throws -> RGBAImage {
        let prefix = "data:image/png;base64,"
        guard uri.hasPrefix(prefix) else { throw ServerError.badRequest("an inline marker image must be data:image/png;base64,...") }
        // A '+' left unescaped in a query reads as a space.
        let text = uri.dropFirst(prefix.count).replacingOccurrences(of: " ", with: "+")
        guard text.utf8.count <= maxInlineBytes * 4 / 3 + 4, let data = Data(base64Encoded: String(text)) else {
            throw ServerError.badRequest("the inline marker image is not base64 or larger than \(maxInlineBytes >> 10) KiB")
        }
        do { return try PNGDecoder(limits: .init(maxDimension: maxInlineSide, maxBytes: maxInlineBytes)).decode([UInt8](data)) } catch {
            throw ServerError.badRequest("the inline marker image is not a PNG of at most \(maxInlineSide) px a side: \(error)")
        }
    }

    /// A CSS color, or nil for `none` and `transparent` (nothing drawn).
    /// A colour parameter; `none` and `transparent` paint nothing.
    private static func paint(_ s: String, _ parameter: String) throws -> RGBA? {
        s == "none" || s == "transparent" ? nil : try RGBA(css: s, parameter: parameter)
    }

    private static func borderSize(_ s: String) throws -> Double {
        guard let w = parseDecimal(Substring(s)), (0...100).contains(w) else { throw ServerError.badRequest("border width must be 0-100") }
        return w
    }

    private static func strokeWidth(_ s: String) throws -> Double {
        guard let w = parseDecimal(Substring(s)), (0...100).contains(w) else { throw ServerError.badRequest("stroke width must be 0-100") }
        return w
    }

    private static func coordinate(_ pair: Substring, latlng: Bool, raw: Bool) throws -> (lon: Double, lat: Double) {
        let xy = pair.split(separator: ",", omittingEmptySubsequences: false)
        guard xy.count == 2, var lon = parseDecimal(xy[0]), var lat = parseDecimal(xy[1]) else {
            throw ServerError.badRequest("'\(pair.prefix(48))' is not a lng,lat pair")
        }
        if latlng { swap(&lon, &lat) }
        if raw { (lon, lat) = Mercator.fromMeters(x: lon, y: lat) }
        guard (-180...180).contains(lon), (-90...90).contains(lat) else {
            throw ServerError.badRequest("coordinate \(lon),\(lat) is out of range")
        }
        return (lon, max(-Mercator.maxLatitude, min(Mercator.maxLatitude, lat)))
    }

    /// Google's encoded polyline (precision 5), lat/lng order.
    static func decodePolyline(_ s: Substring, limit: Int) throws -> [(lon: Double, lat: Double)] {
        var out: [(lon: Double, lat: Double)] = []
        var lat = 0, lon = 0
        var it = s.utf8.makeIterator()
        func next() throws -> Int? {
            var result = 0, shift = 0
            while true {
                guard let c = it.next() else {
                    if shift == 0 { return nil }
                    throw ServerError.badRequest("truncated encoded polyline")
                }
                guard c >= 63, c < 127, shift <= 30 else { throw ServerError.badRequest("malformed encoded polyline") }
                let v = Int(c) - 63
                result |= (v & 0x1f) << shift
                shift += 5
                if v < 0x20 { break }
            }
            return (result & 1) != 0 ? ~(result >> 1) : result >> 1
        }
        while let dLat = try next() {
            guard let dLon = try next() else { throw ServerError.badRequest("truncated encoded polyline") }
            lat += dLat; lon += dLon
            guard out.count < limit else { throw ServerError.badRequest("overlays have too many points") }
            let c = (lon: Double(lon) / 1e5, lat: Double(lat) / 1e5)
            guard (-180...180).contains(c.lon), (-90...90).contains(c.lat) else {
                throw ServerError.badRequest("encoded polyline leaves the valid coordinate range")
            }
            out.append((c.lon, max(-Mercator.maxLatitude, min(Mercator.maxLatitude, c.lat))))
        }
        return out
    }
}
