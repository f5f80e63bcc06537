import Foundation
import GLSnap
import GLSnapStyle

/// The Mapbox Static Images API's style edits of one static-map request, checked like the
/// library's runtime-styling calls and applied to that request only (a `StyleVariant` of the
/// served style, drawn with its workers and caches):
///
///     addlayer={layer JSON}[&before_layer=ID]     a layer added (below ID, else on top)
///     setfilter=[filter]&layer_id=ID             the filter of a layer of the style (or the added one)
///     geojson=GeoJSON                            GeoJSON drawn with simplestyle properties
///
/// and the overlay segment of Mapbox's path (`geojson(...)` there too). A bad edit is a 400 naming it.
struct StaticStyleEdits: Equatable {
    var addLayers: [JSON] = []
    var beforeLayer: String?
    var filter: (layer: String, value: JSON)?
    var geoJSON: [JSON] = []

    var isEmpty: Bool { addLayers.isEmpty && filter == nil && geoJSON.isEmpty }

    /// The edits as text, naming the variant they make (equal edits, equal text).
    var key: String {
        JSON.array([.array(addLayers), .string(beforeLayer ?? ""), .string(filter?.layer ?? ""), filter?.value ?? .null,
                    .array(geoJSON)]).text
    }

    static func == (a: StaticStyleEdits, b: StaticStyleEdits) -> Bool {
        a.addLayers == b.addLayers && a.beforeLayer == b.beforeLayer && a.filter?.layer == b.filter?.layer
            && a.filter?.value == b.filter?.value && a.geoJSON == b.geoJSON
    }

    /// Reads the edits of `query`; `maxLayers` bounds the layers added (GeoJSON overlays count three each).
    static func parse(_ query: [(key: String, value: String)], overlayGeoJSON: [JSON] = [], maxLayers: Int) throws -> StaticStyleEdits {
        func values(_ key: String) -> [String] { query.filter { $0.key == key }.map(\.value) }
        var edits = StaticStyleEdits()
        for text in values("addlayer") {
            let layer = try json(text, "addlayer")
            guard layer.objectValue != nil else { throw ServerError.badRequest("addlayer must be a layer object, e.g. {\"id\": \"x\", \"type\": \"line\", ...}") }
            edits.addLayers.append(layer)
        }
        let before = values("before_layer")
        guard before.count <= 1 else { throw ServerError.badRequest("before_layer is given more than once") }
        if let b = before.first {
            guard !edits.addLayers.isEmpty else { throw ServerError.badRequest("before_layer needs an addlayer") }
            edits.beforeLayer = b
        }
        let filters = values("setfilter"), ids = values("layer_id")
        guard filters.count <= 1, ids.count <= 1 else { throw ServerError.badRequest("setfilter and layer_id may each be given once") }
        switch (filters.first, ids.first) {
        case let (f?, id?): edits.filter = (id, try json(f, "setfilter"))
        case (_?, nil): throw ServerError.badRequest("setfilter needs layer_id, the layer it applies to")
        case (nil, _?): throw ServerError.badRequest("layer_id needs setfilter, the filter to apply")
        case (nil, nil): break
        }
        edits.geoJSON = try values("geojson").map { try json($0, "geojson") } + overlayGeoJSON
        let added = edits.addLayers.count + 3 * edits.geoJSON.count
        guard added <= maxLayers else {
            throw ServerError.badRequest("the request adds \(added) layers, over the limit of \(maxLayers) (maxAddedLayers; a geojson overlay adds 3)")
        }
        return edits
    }

    /// A `true`/`false` switch (`attribution`, `logo`); nil when not given, 400 for another value.
    static func flag(_ query: [(key: String, value: String)], _ key: String) throws -> Bool? {
        guard let v = query.last(where: { $0.key == key })?.value else { return nil }
        switch v {
        case "true", "1": return true
        case "false", "0": return false
        default: throw ServerError.badRequest("\(key) must be true or false, not '\(v.prefix(32))'")
        }
    }

    private static func json(_ text: String, _ key: String) throws -> JSON {
        do { return try JSON.parse(Array(text.utf8)) } catch {
            throw ServerError.badRequest("\(key) is not JSON: \(error)")
        }
    }

    /// The served style with the edits made, for this request's snapshot; 400 naming the problem
    /// when an edit is refused.
    func variant(of snapshotter: Snapshotter) throws -> StyleVariant {
        do {
            return try snapshotter.variant { style in
                for layer in addLayers { try style.addLayer(layer, before: beforeLayer) }
                if let filter { try style.setFilter(filter.layer, filter.value == .null ? nil : filter.value) }
                for (i, data) in geoJSON.enumerated() {
                    let source = "glsnap-geojson-\(i)"
                    try style.addSource(source, .object(["type": .string("geojson"), "data": data]))
                    for layer in StaticStyleEdits.simplestyleLayers(source: source) { try style.addLayer(layer) }
                }
            }
        } catch let e as StyleEditError {
            throw ServerError.badStyle("style edit refused: \(e)", problems: e.problems)
        } catch let e as GLSnapError {
            // An added source that cannot be set up has no problems to list.
            throw e.problems.isEmpty ? ServerError.badRequest("style edit refused: \(e)")
                : ServerError.badStyle("style edit refused: \(e)", problems: e.problems)
        }
    }

    /// A GeoJSON overlay's layers: polygons, lines and points drawn by their simplestyle-spec
    /// properties (`fill`, `fill-opacity`, `stroke`, `stroke-width`, `stroke-opacity`,
    /// `marker-color`, `marker-size`), with Mapbox's defaults.
    static func simplestyleLayers(source: String) -> [JSON] {
        func get(_ name: String, _ fallback: JSON) -> JSON {
            .array([.string("coalesce"), .array([.string("get"), .string(name)]), fallback])
        }
        func type(_ types: [String]) -> JSON {
            .array([.string("match"), .array([.string("geometry-type")]), .array(types.map(JSON.string)), .bool(true), .bool(false)])
        }
        let markerRadius: JSON = .array([.string("match"), get("marker-size", .string("medium")),
                                         .string("small"), .number(5), .string("large"), .number(10), .number(7)])
        return [
            .object(["id": .string(source + "-fill"), "type": .string("fill"), "source": .string(source),
                     "filter": type(["Polygon", "MultiPolygon"]),
                     "paint": .object(["fill-color": get("fill", .string("#555555")), "fill-opacity": get("fill-opacity", .number(0.6))])]),
            .object(["id": .string(source + "-line"), "type": .string("line"), "source": .string(source),
                     "filter": type(["LineString", "MultiLineString", "Polygon", "MultiPolygon"]),
                     "paint": .object(["line-color": get("stroke", .string("#555555")), "line-width": get("stroke-width", .number(2)),
                                       "line-opacity": get("stroke-opacity", .number(1))])]),
            .object(["id": .string(source + "-point"), "type": .string("circle"), "source": .string(source),
                     "filter": type(["Point", "MultiPoint"]),
                     "paint": .object(["circle-color": get("marker-color", .string("#7e7e7e")), "circle-radius": markerRadius,
                                       "circle-stroke-color": .string("#ffffff"), "circle-stroke-width": .number(1.5)])]),
        ]
    }
}

/// A labelled pin of Mapbox's overlay grammar: `pin-s-a+f00(lon,lat)`, `pin-l-12+00ff00(lon,lat)`,
/// `pin-s(lon,lat)`: small or large, an optional label (a letter or a number 0-99), an optional
/// 3- or 6-digit hex color (default #7e7e7e).
struct OverlayPin: Equatable {
    var lon: Double, lat: Double
    var large: Bool
    var label: String?
    var color: RGBA
}

/// The overlay segment of Mapbox's static path (`/static/{overlay}/{view}/{size}`): pins and
/// `geojson(...)` overlays, separated by commas.
enum MapboxOverlay {
    /// Most overlays in one segment.
    static let maxItems = 100

    static func parse(_ segment: String) throws -> (pins: [OverlayPin], geoJSON: [JSON]) {
        var pins: [OverlayPin] = [], geoJSON: [JSON] = []
        for item in try split(segment) {
            guard pins.count + geoJSON.count < maxItems else { throw ServerError.badRequest("more than \(maxItems) overlays") }
            guard let open = item.firstIndex(of: "("), item.hasSuffix(")") else {
                throw ServerError.badRequest("overlay '\(item.prefix(64))' must be name(...), e.g. pin-s-a+f00(-87.6,41.8) or geojson({...})")
            }
            let name = item[..<open], inner = String(item[item.index(after: open)..<item.index(before: item.endIndex)])
            if name == "geojson" {
                do { geoJSON.append(try JSON.parse(Array(inner.utf8))) } catch {
                    throw ServerError.badRequest("geojson overlay is not JSON: \(error)")
                }
            } else if name.hasPrefix("pin-s") || name.hasPrefix("pin-l") {
                pins.append(try pin(String(name), inner))
            } else {
                throw ServerError.badRequest("unknown overlay '\(name.prefix(32))' (pin-s, pin-l or geojson; paths are path= query options)")
            }
        }
        return (pins, geoJSON)
    }

    private static func pin(_ name: String, _ coordinates: String) throws -> OverlayPin {
        let usage = "a pin is pin-s|pin-l[-label][+color](lon,lat): label a-z or 0-99, color 3 or 6 hex digits"
        var spec = Substring(name.dropFirst(5))
        var color = RGBA(r: 0x7e / 255, g: 0x7e / 255, b: 0x7e / 255, a: 1)
        if let plus = spec.firstIndex(of: "+") {
            let hex = spec[spec.index(after: plus)...]
            guard hex.count == 3 || hex.count == 6, hex.allSatisfy(\.isHexDigit) else { throw ServerError.badRequest(usage) }
            color = try RGBA(css: "#" + hex, parameter: "pin color")
            spec = spec[..<plus]
        }
        var label: String?
        if !spec.isEmpty {
            guard spec.hasPrefix("-") else { throw ServerError.badRequest(usage) }
            let l = spec.dropFirst()
            let letter = l.count == 1 && l.allSatisfy { $0.isASCII && $0.isLetter }
            let number = (1...2).contains(l.count) && l.allSatisfy { $0.isASCII && $0.isNumber }
            guard letter || number else { throw ServerError.badRequest(usage + " (maki icons are not drawn)") }
            label = String(l)
        }
        let xy = coordinates.split(separator: ",", omittingEmptySubsequences: false)
        guard xy.count == 2, let lon = Double(xy[0]), let lat = Double(xy[1]), lon.isFinite, lat.isFinite,
              abs(lon) <= 180, abs(lat) <= 90 else {
            throw ServerError.badRequest("pin coordinates must be lon,lat within -180..180, -90..90")
        }
        return OverlayPin(lon: lon, lat: lat, large: name.hasPrefix("pin-l"), label: label, color: color)
    }

    /// Splits at the commas outside parentheses, brackets and JSON strings.
    private static func split(_ s: String) throws -> [String] {
        var items: [String] = [], current = "", depth = 0, inString = false, escaped = false
        for c in s {
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
            } else if c == "\"" {
                inString = true
            } else if c == "(" || c == "[" || c == "{" {
                depth += 1
            } else if c == ")" || c == "]" || c == "}" {
                depth -= 1
                guard depth >= 0 else { throw ServerError.badRequest("unbalanced parentheses in the overlay") }
            } else if c == ",", depth == 0 {
                items.append(current); current = ""
                continue
            }
            current.append(c)
        }
        guard depth == 0, !inString else { throw ServerError.badRequest("unbalanced parentheses in the overlay") }
        items.append(current)
        return items.filter { !$0.isEmpty }
    }
}

extension OverlayPin {
    /// Radius of the pin's head in points (small, large).
    static let radius = (small: 7.0, large: 10.0)

    /// Draws the pin: a round head in its color with a white rim, on a short stem whose foot is
    /// the location, the label in white (black on a light color) at the head's center.
    func draw(on o: inout SnapshotOverlay, captions: CaptionText) {
        let p = o.point(for: Coordinate(latitude: lat, longitude: lon))
        let r = large ? OverlayPin.radius.large : OverlayPin.radius.small
        let head = Point(x: p.x, y: p.y - r * 1.6)
        // The stem: circles shrinking down to the location.
        for i in 0...6 {
            let t = Double(i) / 6
            o.fillCircle(center: Point(x: p.x, y: head.y + (p.y - head.y) * t), radius: max(0.8, r * 0.45 * (1 - t)),
                         r: color.r, g: color.g, b: color.b, a: 1)
        }
        o.fillCircle(center: head, radius: r + 1.2, r: 1, g: 1, b: 1, a: 1)
        o.fillCircle(center: head, radius: r, r: color.r, g: color.g, b: color.b, a: 1)
        guard let label else { return }
        let light = 0.299 * color.r + 0.587 * color.g + 0.114 * color.b > 0.6
        let ink = light ? RGBA(r: 0, g: 0, b: 0, a: 1) : RGBA(r: 1, g: 1, b: 1, a: 1)
        let text = label.uppercased()
        // CaptionText draws 10-pt text; its capitals stand about 7 pt above the baseline.
        captions.draw(text, x: head.x - captions.width(text) / 2, y: head.y + 3.5, pixelRatio: o.pixelRatio, color: ink, halo: nil,
                      on: &o.image)
    }
}
