import GLSnap
import GLSnapStyle

/// `/styles/{id}/query/{view}/{width}x{height}[@{n}x]?point=X,Y` (or `box=X1,Y1,X2,Y2`), with
/// `layers=a,b` and `filter=JSON`: the features drawn at a pixel or in a box of the static map of
/// that view and size, topmost first, as the GeoJSON FeatureCollection `glsnap query` prints.
struct FeatureQuery: Equatable {
    /// The query geometry in points from the top-left: one point, or a box's two corners.
    enum Geometry: Equatable {
        case point(Point)
        case box(Point, Point)
    }

    var geometry: Geometry
    var layers: [String]?
    var filter: JSON?

    /// Most ids `layers=` may name (a style has at most `Limits.maxStyleLayers`; a list this long
    /// is a mistake, not a query).
    static let maxLayers = 1000

    /// Reads the query's arguments; pixels are of the `width`x`height`@`scale` image and become
    /// points. Every value is checked: a pixel outside the image, a malformed number, a filter that
    /// is not JSON or not a filter is a 400 naming it.
    static func parse(_ query: [(key: String, value: String)], width: Int, height: Int, scale: Int) throws -> FeatureQuery {
        func value(_ k: String) -> String? { query.first { $0.key == k }?.value }
        let s = Double(scale)
        func pixels(_ text: String, _ name: String, count: Int) throws -> [Point] {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            let numbers = parts.compactMap { parseDecimal($0) }
            guard parts.count == count, numbers.count == count else {
                throw ServerError.badRequest("\(name) must be \(count == 2 ? "X,Y" : "X1,Y1,X2,Y2"): \(count) numbers in image pixels, not '\(text.prefix(64))'")
            }
            let w = Double(width * scale), h = Double(height * scale)
            return try stride(from: 0, to: count, by: 2).map { i in
                let (x, y) = (numbers[i], numbers[i + 1])
                guard (0...w).contains(x), (0...h).contains(y) else {
                    throw ServerError.badRequest("\(name) pixel \(formatNumber(x)),\(formatNumber(y)) is outside the \(Int(w))x\(Int(h)) image")
                }
                return Point(x: x / s, y: y / s)
            }
        }
        let geometry: Geometry
        switch (value("point"), value("box")) {
        case let (point?, nil): geometry = .point(try pixels(point, "point", count: 2)[0])
        case let (nil, box?):
            let corners = try pixels(box, "box", count: 4)
            geometry = .box(corners[0], corners[1])
        default: throw ServerError.badRequest("give one of point=X,Y or box=X1,Y1,X2,Y2 (image pixels from the top-left)")
        }
        var layers: [String]?
        if let text = value("layers") {
            let ids = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard !ids.contains(where: \.isEmpty) else { throw ServerError.badRequest("layers must be layer ids separated by ',' (one is empty)") }
            guard ids.count <= maxLayers else { throw ServerError.badRequest("layers names \(ids.count) layers, more than \(maxLayers)") }
            layers = ids
        }
        var filter: JSON?
        if let text = value("filter") {
            let json: JSON
            do { json = try JSON.parse(text) } catch { throw ServerError.badRequest("filter is not JSON: \(error)") }
            guard json == .null || Filter.parse(json) != nil else {
                throw ServerError.badRequest("filter \(json.text.prefix(200)) is not a valid filter expression")
            }
            filter = json == .null ? nil : json
        }
        return FeatureQuery(geometry: geometry, layers: layers, filter: filter)
    }
}

extension MapService {
    /// Answers a feature query (see `FeatureQuery`) through the render queue, as static maps are.
    ///
    /// What it costs: the query needs what a snapshot of that view placed (which labels and icons
    /// were drawn and where, which tiles were covered), so the map is rendered as a static map
    /// would be: tiles read, layers laid out, symbols placed, and also drawn and read back into an
    /// image that is then dropped. The drawing and readback (and width x height x 4 bytes of
    /// pixels) are the part a query does not need; the library has no placement-only snapshot.
    /// On bright-v9-chicago at 512x512 (`glsnap bench`, release, 1 worker) upload, draw and
    /// readback took 14.5 of the 22.9 ms a snapshot took before encoding: a query pays about 2.7
    /// times what placement alone would cost, and no encoding.
    /// Placement is in points, so the map is drawn at pixel ratio 1 whatever the request's scale
    /// (the scale only says what pixels `point`/`box` are in): a query of an @2x image draws a
    /// quarter of its pixels. The features come from the snapshotter's tile cache, as its images do.
    func featureQuery(_ r: QueryRequest, style s: ServedStyle, path: String, query: [(key: String, value: String)],
                      ifNoneMatch: String?) throws -> HTTPResponse {
        let q = try FeatureQuery.parse(query, width: r.width, height: r.height, scale: r.scale)
        // Checked before rendering, so a misspelt layer costs no render.
        for id in q.layers ?? [] where s.snapshotter.getLayer(id) == nil {
            throw ServerError.badRequest("layers: style '\(s.id)' has no layer '\(id.prefix(100))'")
        }
        let camera = try staticCamera(view: r.view, width: Double(r.width), height: Double(r.height), coordinates: [], query: query)
        let tag = etag(s, path: path, query: query)
        if matches(ifNoneMatch, tag) { return notModified(tag) }
        let options = QueryOptions(layers: q.layers, filter: q.filter)
        let features = try inRenderSlot(path: path) { timeLimit in
            let snapshot = try s.snapshotter.snapshot(camera: camera, size: Size(width: Double(r.width), height: Double(r.height)),
                                                      pixelRatio: 1, timeLimit: timeLimit)
            let found: [QueriedFeature]
            do {
                switch q.geometry {
                case .point(let p): found = try snapshot.queryRenderedFeatures(at: p, options: options)
                case let .box(a, b): found = try snapshot.queryRenderedFeatures(in: (a, b), options: options)
                }
            } catch let e as QueryError {
                throw ServerError.badRequest(e.message)
            }
            guard found.count <= config.maxQueryFeatures else {
                throw ServerError.badRequest("the query found \(found.count) features, more than maxQueryFeatures (\(config.maxQueryFeatures)): "
                                             + "query a smaller box or name layers")
            }
            return (snapshot, found)
        }
        let body = QueriedFeature.featureCollection(features).text
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/geo+json"), ("ETag", tag),
                                                   ("Cache-Control", config.cacheControl)], body: Array(body.utf8))
    }
}

/// A number as a short text: whole numbers without a fraction.
private func formatNumber(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
}
