import GLSnapData
import GLSnapImage

/// What the camera of a static image is given by.
enum StaticView: Equatable {
    /// `{lon},{lat},{zoom}[@{bearing}[,{pitch}]]`; zoom in GL JS's convention (512-px world at zoom 0).
    case center(lon: Double, lat: Double, zoom: Double, bearing: Double, pitch: Double)
    /// `{minx},{miny},{maxx},{maxy}`: fit the box (with `padding`).
    case bounds(west: Double, south: Double, east: Double, north: Double)
    /// `auto`: fit the overlays.
    case auto
}

struct StaticRequest: Equatable {
    var id: String
    var view: StaticView
    var width: Int
    var height: Int
    var scale: Int
    var format: ImageFormat
    /// `static/raw/...`: the view's and the overlays' coordinates are EPSG:3857 meters.
    var raw = false
    /// Mapbox's overlay segment (`static/{overlay}/{view}/{size}`): pins and `geojson(...)`.
    var overlay: String?
}

/// `/styles/{id}/query/{view}/{width}x{height}[@{scale}x]`: the features drawn at a pixel or in a
/// box of the static map with that view and size (the query's `point=` or `box=`, in its pixels).
struct QueryRequest: Equatable {
    var id: String
    /// A center or bounds view, as static maps take them (`auto` has no overlays to fit here).
    var view: StaticView
    var width: Int
    var height: Int
    /// Image pixels per point of the image the query's pixels are on.
    var scale: Int
}

struct TileRequest: Equatable {
    var id: String
    /// 256 or 512: the tile's side in points.
    var tileSize: Int
    var z: Int, x: Int, y: Int
    var scale: Int
    var format: ImageFormat
}

/// The endpoints.
enum Route: Equatable {
    case index
    case health
    case metrics
    case stylesList
    case style(id: String)
    case tileJSON(id: String, tileSize: Int)
    case tile(TileRequest)
    case staticImage(StaticRequest)
    /// `/styles/{id}/query/{view}/{size}`: rendered features as GeoJSON.
    case query(QueryRequest)
    /// `/styles/{id}/sprite[@2x].{json,png}`: the style's sprite sheet.
    case sprite(id: String, highDensity: Bool, json: Bool)
    /// `/fonts/{fontstack}/{range}.pbf`: glyphs of the first font of the stack that has them.
    case glyphs(stack: [String], range: String)
    /// `/data/{id}.json`: TileJSON of an MBTiles file.
    case dataJSON(id: String)
    /// `/data/{id}/{z}/{x}/{y}.{ext}`: a tile as stored.
    case dataTile(id: String, tile: TileID, ext: String)
    /// `/data/{id}/elevation/{z}/{x}/{y}` (a tile's center) or `/data/{id}/elevation/{z}/{lon}/{lat}`
    /// (a point: either number not whole): the elevation of a raster-dem data set.
    case elevation(id: String, z: Int, x: Double, y: Double)
    /// `POST /data/{id}/elevation`: tileserver-gl's batch of points.
    case elevationBatch(id: String)
    /// `/fonts.json`: the font names served.
    case fontList
    /// `/styles/{id}/wmts.xml`: WMTS capabilities of the raster tiles.
    case wmts(id: String)
    /// `/index.json` (styles' then data's), `/rendered.json`, `/data.json`: TileJSON arrays.
    case tileJSONList(rendered: Bool, data: Bool)
    /// `/files/{name}[/{name}...]`: a file of `paths.files`.
    case file(segments: [String])
    /// `/styles/{id}/`, `/data/{id}/`: a MapLibre GL JS map page.
    case viewer(id: String, data: Bool)
    /// `/maplibre/maplibre-gl.{js,css}`: the viewer's library.
    case viewerAsset(js: Bool)
}

/// Turns a request path into a `Route`, checking every number and name; throws `ServerError`
/// (400 for malformed or out-of-range values, 404 for paths that name no endpoint).
struct Router {
    var maxSize: Int
    var maxScaleFactor: Int
    /// Formats with an encoder; others answer 400 "not supported yet".
    var encodable: Set<ImageFormat> = [.png, .jpeg, .webp]
    /// `ServerConfig.pbfAlias`: a data tile named `{y}.{alias}` is the `.pbf` tile.
    var pbfAlias: String?
    static let maxZoom = 22.0
    static let maxPitch = 85.0
    /// tileserver-gl's limit on a center's latitude (a little past Mercator's 85.0511).
    static let maxCenterLatitude = 85.06

    func route(_ path: String) throws -> Route {
        guard path.utf8.count <= 4096 else { throw ServerError.badRequest("the path is longer than 4096 bytes") }
        guard path.hasPrefix("/") else { throw ServerError.badRequest("the path must start with '/'") }
        let parts = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch parts.count {
        case 1:
            switch parts[0] {
            case "", "index.html": return .index
            case "health": return .health
            case "metrics": return .metrics
            case "styles.json": return .stylesList
            case "fonts.json": return .fontList
            case "index.json": return .tileJSONList(rendered: true, data: true)
            case "rendered.json": return .tileJSONList(rendered: true, data: false)
            case "data.json": return .tileJSONList(rendered: false, data: true)
            default: break
            }
        case 2 where parts[0] == "styles" && parts[1].hasSuffix(".json"):
            return .tileJSON(id: try styleID(String(parts[1].dropLast(5))), tileSize: 256)
        case 3 where parts[0] == "styles" && (parts[1] == "256" || parts[1] == "512") && parts[2].hasSuffix(".json"):
            return .tileJSON(id: try styleID(String(parts[2].dropLast(5))), tileSize: parts[1] == "256" ? 256 : 512)
        case 3 where parts[0] == "styles" && parts[2] == "style.json":
            return .style(id: try styleID(parts[1]))
        case 3 where parts[0] == "styles" && ["sprite.json", "sprite.png", "sprite@2x.json", "sprite@2x.png"].contains(parts[2]):
            return .sprite(id: try styleID(parts[1]), highDensity: parts[2].contains("@2x"), json: parts[2].hasSuffix(".json"))
        case 3 where (parts[0] == "styles" || parts[0] == "data") && parts[2].isEmpty:
            return .viewer(id: parts[0] == "styles" ? try styleID(parts[1]) : try dataID(parts[1]), data: parts[0] == "data")
        case 2 where parts[0] == "maplibre" && (parts[1] == "maplibre-gl.js" || parts[1] == "maplibre-gl.css"):
            return .viewerAsset(js: parts[1].hasSuffix(".js"))
        case 3 where parts[0] == "styles" && parts[2] == "wmts.xml":
            return .wmts(id: try styleID(parts[1]))
        // tileserver-gl's `/styles/{id}/sprite/{spriteID}[@2x].{json,png}`: one sheet here, "default".
        case 4 where parts[0] == "styles" && parts[2] == "sprite"
            && ["default.json", "default.png", "default@2x.json", "default@2x.png"].contains(parts[3]):
            return .sprite(id: try styleID(parts[1]), highDensity: parts[3].contains("@2x"), json: parts[3].hasSuffix(".json"))
        case 3 where parts[0] == "fonts":
            return try glyphs(stack: parts[1], file: parts[2])
        case 2 where parts[0] == "data" && parts[1].hasSuffix(".json"):
            return .dataJSON(id: try dataID(String(parts[1].dropLast(5))))
        case 5 where parts[0] == "data":
            return try dataTile(id: try dataID(parts[1]), z: parts[2], x: parts[3], last: parts[4])
        case 3 where parts[0] == "data" && parts[2] == "elevation":
            return .elevationBatch(id: try dataID(parts[1]))
        case 6 where parts[0] == "data" && parts[2] == "elevation":
            let id = try dataID(parts[1])
            guard let z = smallInt(Substring(parts[3])), z <= Int(Self.maxZoom) else {
                throw ServerError.badRequest("elevation zoom '\(parts[3].prefix(16))' must be a whole number, 0-\(Int(Self.maxZoom))")
            }
            guard let x = Double(parts[4]), x.isFinite, let y = Double(parts[5]), y.isFinite else {
                throw ServerError.badRequest("elevation '\(parts[4].prefix(32))/\(parts[5].prefix(32))' must be two numbers: a tile's x/y or a point's lon/lat")
            }
            return .elevation(id: id, z: z, x: x, y: y)
        case 6 where parts[0] == "styles" && parts[2] == "static" && parts[3] == "raw":
            return .staticImage(try staticRequest(id: try styleID(parts[1]), spec: parts[4], last: parts[5], raw: true))
        case 6 where parts[0] == "styles" && parts[2] == "static" && parts[3].contains("("):
            var r = try staticRequest(id: try styleID(parts[1]), spec: parts[4], last: parts[5])
            r.overlay = String(parts[3])
            return .staticImage(r)
        case 5 where parts[0] == "styles" && parts[2] == "query":
            return .query(try queryRequest(id: try styleID(parts[1]), spec: parts[3], last: parts[4]))
        case 5 where parts[0] == "styles" && parts[2] == "static":
            return .staticImage(try staticRequest(id: try styleID(parts[1]), spec: parts[3], last: parts[4]))
        case 5 where parts[0] == "styles":
            return .tile(try tileRequest(id: try styleID(parts[1]), tileSize: 256, z: parts[2], x: parts[3], last: parts[4]))
        case 6 where parts[0] == "styles" && (parts[2] == "256" || parts[2] == "512"):
            return .tile(try tileRequest(id: try styleID(parts[1]), tileSize: Int(parts[2]) ?? 256, z: parts[3], x: parts[4], last: parts[5]))
        case 6 where parts[0] == "styles" && smallInt(Substring(parts[2])) != nil:
            _ = try styleID(parts[1])
            throw ServerError.badRequest("tile size \(parts[2]) is not served: use 256 or 512")
        default:
            break
        }
        if parts.first == "files", (2...9).contains(parts.count) {
            guard parts.dropFirst().allSatisfy(isSafeName) else {
                throw ServerError.badRequest("invalid file name (letters, digits, '-', '_', '.' per folder, not starting with '.')")
            }
            return .file(segments: Array(parts.dropFirst()))
        }
        if parts.first == "styles", parts.count >= 2 { _ = try styleID(parts[1]) }
        if parts.first == "data", parts.count >= 2 { _ = try dataID(parts[1]) }
        throw ServerError.notFound("nothing is served at this path")
    }

    private func dataID(_ s: String) throws -> String {
        guard isSafeName(s) else { throw ServerError.badRequest("invalid data id (letters, digits, '-', '_', '.' only)") }
        return s
    }

    /// Font names are file names in a glyph folder: no '/', no NUL or control characters, not
    /// starting with '.', at most 128 bytes each and 8 per stack; the range is `{n*256}-{n*256+255}`.
    func glyphs(stack: String, file: String) throws -> Route {
        let fonts = stack.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard (1...8).contains(fonts.count), fonts.allSatisfy({ f in
            (1...128).contains(f.utf8.count) && !f.hasPrefix(".") && f.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0 != "/" && $0 != "\\" && $0.value != 0x7F }
        }) else {
            throw ServerError.badRequest("invalid font stack: 1-8 font names separated by ',', no '/', not starting with '.'")
        }
        let range = file.hasSuffix(".pbf") ? String(file.dropLast(4)) : ""
        let ends = range.split(separator: "-", omittingEmptySubsequences: false)
        guard ends.count == 2, let a = smallInt(ends[0]), let b = smallInt(ends[1]), a % 256 == 0, b == a + 255, a <= 65280 else {
            throw ServerError.badRequest("invalid glyph range '\(file.prefix(32))': expected {start}-{start+255}.pbf with start a multiple of 256")
        }
        return .glyphs(stack: fonts, range: range)
    }

    func dataTile(id: String, z: String, x: String, last: String) throws -> Route {
        var last = last
        if let alias = pbfAlias, last.hasSuffix("." + alias) { last = String(last.dropLast(alias.count)) + "pbf" }
        guard let dot = last.lastIndex(of: ".") else { throw ServerError.badRequest("the tile needs an extension (.pbf, .png, ...)") }
        let ext = String(last[last.index(after: dot)...])
        guard let zi = smallInt(Substring(z)), let xi = smallInt(Substring(x)), let yi = smallInt(last[..<dot]) else {
            throw ServerError.badRequest("tile coordinates must be non-negative integers")
        }
        guard zi <= TileID.maxZoom, let tile = TileID(z: zi, x: xi, y: yi) else {
            throw ServerError.notFound("tile \(zi)/\(xi)/\(yi) is outside the tile grid")
        }
        return .dataTile(id: id, tile: tile, ext: ext)
    }

    private func styleID(_ s: String) throws -> String {
        guard isSafeName(s) else { throw ServerError.badRequest("invalid style id (letters, digits, '-', '_', '.' only)") }
        return s
    }

    /// `{main}[@{n}x].{ext}` → main, scale, format.
    func splitLast(_ last: String) throws -> (main: Substring, scale: Int, format: ImageFormat) {
        guard let dot = last.lastIndex(of: ".") else { throw ServerError.badRequest("the file name needs an extension (.png)") }
        let ext = last[last.index(after: dot)...].lowercased()
        let (main, scale) = try splitScale(last[..<dot])
        guard let format = ImageFormat(name: ext) else {
            throw ServerError.badRequest("unknown image format '\(ext.prefix(16))': use png")
        }
        guard encodable.contains(format) else { throw ServerError.badRequest("format \(format.rawValue) not supported yet: use png") }
        return (main, scale, format)
    }

    /// `{main}[@{n}x]` → main, scale.
    func splitScale(_ name: Substring) throws -> (main: Substring, scale: Int) {
        guard let at = name.lastIndex(of: "@") else { return (name, 1) }
        let s = name[name.index(after: at)...]
        guard s.count >= 2, s.last == "x", s.count <= 3, let n = Int(s.dropLast()), s.dropLast().allSatisfy(\.isASCIIDigit) else {
            throw ServerError.badRequest("malformed scale '@\(s.prefix(16))': expected @2x, @3x, ...")
        }
        guard (1...maxScaleFactor).contains(n) else {
            throw ServerError.badRequest("scale @\(n)x is outside 1-\(maxScaleFactor) (maxScaleFactor)")
        }
        return (name[..<at], n)
    }

    func tileRequest(id: String, tileSize: Int, z: String, x: String, last: String) throws -> TileRequest {
        let (yPart, scale, format) = try splitLast(last)
        guard let zi = smallInt(Substring(z)), let xi = smallInt(Substring(x)), let yi = smallInt(yPart) else {
            throw ServerError.badRequest("tile coordinates must be non-negative integers")
        }
        // tileserver-gl answers 400 "Out of bounds" for these.
        guard zi <= Int(Router.maxZoom) else { throw ServerError.badRequest("tile zoom \(zi) is above \(Int(Router.maxZoom))") }
        guard xi < 1 << zi, yi < 1 << zi else { throw ServerError.badRequest("tile \(zi)/\(xi)/\(yi) is outside the \(1 << zi)x\(1 << zi) grid") }
        guard scale != 1 || !last.contains("@") else { throw ServerError.badRequest("scale @1x is not a scale: leave it out") }
        guard tileSize * scale <= maxSize else { throw ServerError.badRequest("tile of \(tileSize * scale) pixels exceeds maxSize \(maxSize)") }
        return TileRequest(id: id, tileSize: tileSize, z: zi, x: xi, y: yi, scale: scale, format: format)
    }

    func staticRequest(id: String, spec: String, last: String, raw: Bool = false) throws -> StaticRequest {
        let (sizePart, scale, format) = try splitLast(last)
        // tileserver-gl's static route does not match an explicit @1x: 404.
        guard scale != 1 || !last.contains("@") else { throw ServerError.notFound("scale @1x is not a scale: leave it out") }
        let (w, h) = try imageSize(sizePart, scale: scale)
        return StaticRequest(id: id, view: try view(spec, raw: raw), width: w, height: h, scale: scale, format: format, raw: raw)
    }

    /// `{width}x{height}`, each at least 1 and, times `scale`, at most `maxSize`.
    func imageSize(_ part: Substring, scale: Int) throws -> (width: Int, height: Int) {
        let wh = part.split(separator: "x", omittingEmptySubsequences: false)
        guard wh.count == 2, let w = smallInt(wh[0]), let h = smallInt(wh[1]) else {
            throw ServerError.badRequest("the image size must be {width}x{height}, e.g. 512x512")
        }
        guard w >= 1, h >= 1 else { throw ServerError.badRequest("the image size must be at least 1x1") }
        guard max(w, h) * scale <= maxSize else {
            throw ServerError.badRequest("image \(w)x\(h)@\(scale)x exceeds maxSize \(maxSize) pixels per side")
        }
        return (w, h)
    }

    /// `/styles/{id}/query/{view}/{width}x{height}[@{n}x]`: the view and size as a static map's
    /// (no extension: the answer is GeoJSON).
    func queryRequest(id: String, spec: String, last: String) throws -> QueryRequest {
        let (sizePart, scale) = try splitScale(Substring(last))
        guard scale != 1 || !last.contains("@") else { throw ServerError.badRequest("scale @1x is not a scale: leave it out") }
        let (w, h) = try imageSize(sizePart, scale: scale)
        let v = try view(spec)
        guard v != .auto else { throw ServerError.badRequest("a query's view must be {lon},{lat},{zoom}[@{bearing}[,{pitch}]] or {minx},{miny},{maxx},{maxy}: auto fits overlays, which a query has none of") }
        return QueryRequest(id: id, view: v, width: w, height: h, scale: scale)
    }

    func view(_ spec: String, raw: Bool = false) throws -> StaticView {
        if spec == "auto" { return .auto }
        let halves = spec.split(separator: "@", omittingEmptySubsequences: false)
        guard halves.count <= 2 else { throw ServerError.badRequest("malformed view '\(spec.prefix(64))'") }
        // A view tileserver-gl's pattern does not match (an empty number: a trailing comma) is a 404 there.
        guard !halves.contains(where: { $0.split(separator: ",", omittingEmptySubsequences: false).contains { $0.isEmpty } }) else {
            throw ServerError.notFound("malformed view '\(spec.prefix(64))': an empty number (a trailing comma?)")
        }
        var nums = try numbers(halves[0])
        if raw {
            // EPSG:3857 meters: each x,y pair (the box's corners, the center) to degrees.
            for i in stride(from: 0, to: nums.count - 1, by: 2) {
                let c = Mercator.fromMeters(x: nums[i], y: nums[i + 1])
                nums[i] = c.lon; nums[i + 1] = c.lat
            }
        }
        if halves.count == 1 && nums.count == 4 {
            let (w, s, e, n) = (nums[0], nums[1], nums[2], nums[3])
            // As tileserver-gl: the box may reach the poles and past the antimeridian; its center
            // must be a valid center (|lon| <= 180, |lat| <= 85.06).
            let cx = (w + e) / 2, cy = (s + n) / 2
            guard w <= e, s <= n, e - w <= 720, (-90...90).contains(s), (-90...90).contains(n),
                  abs(cx) <= 180, abs(cy) <= Router.maxCenterLatitude else {
                throw ServerError.badRequest("invalid bounds: need minx <= maxx (at most 720 degrees apart), miny <= maxy within -90..90, "
                                             + "and a center within -180..180, -85.06..85.06")
            }
            return .bounds(west: w, south: s, east: e, north: n)
        }
        guard nums.count == 3 else {
            throw ServerError.badRequest("the view must be {lon},{lat},{zoom}[@{bearing}[,{pitch}]], {minx},{miny},{maxx},{maxy} or auto")
        }
        var bearing = 0.0, pitch = 0.0
        if halves.count == 2 {
            let bp = try numbers(halves[1])
            guard (1...2).contains(bp.count) else { throw ServerError.badRequest("after '@' give {bearing} or {bearing},{pitch}") }
            bearing = bp[0]
            if bp.count == 2 { pitch = bp[1] }
        }
        let (lon, lat, zoom) = (nums[0], nums[1], nums[2])
        guard (-180...180).contains(lon), abs(lat) <= Router.maxCenterLatitude else {
            throw ServerError.badRequest("invalid center \(lon),\(lat): longitude must be within -180..180, latitude within -85.06..85.06")
        }
        guard zoom >= 0 else { throw ServerError.notFound("zoom \(zoom) is below 0") }
        guard zoom <= Router.maxZoom else { throw ServerError.badRequest("zoom \(zoom) is outside 0-\(Int(Router.maxZoom))") }
        // As tileserver-gl (MapLibre clamps it): pitch is drawn within 0-85.
        guard abs(pitch) <= 36000 else { throw ServerError.badRequest("pitch \(pitch) is out of range") }
        pitch = max(0, min(Router.maxPitch, pitch))
        guard abs(bearing) <= 36000 else { throw ServerError.badRequest("bearing \(bearing) is out of range") }
        return .center(lon: lon, lat: max(-Mercator.maxLatitude, min(Mercator.maxLatitude, lat)), zoom: zoom, bearing: bearing.truncatingRemainder(dividingBy: 360), pitch: pitch)
    }

    private func numbers(_ s: Substring) throws -> [Double] {
        let parts = s.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= 8 else { throw ServerError.badRequest("too many numbers in '\(s.prefix(64))'") }
        return try parts.map { p in
            guard let d = parseDecimal(p) else { throw ServerError.badRequest("'\(p.prefix(40))' is not a number") }
            return d
        }
    }
}

/// A decimal number `[+-]digits[.digits]` or `[+-].digits` (no exponents, no nan or inf), at most 40 bytes.
func parseDecimal(_ s: Substring) -> Double? {
    let u = Array(s.utf8)
    guard !u.isEmpty, u.count <= 40 else { return nil }
    var i = 0
    if u[0] == UInt8(ascii: "-") || u[0] == UInt8(ascii: "+") { i = 1 }
    var digits = 0, dots = 0
    while i < u.count {
        if u[i] >= 0x30 && u[i] <= 0x39 { digits += 1 } else if u[i] == UInt8(ascii: ".") { dots += 1 } else { return nil }
        i += 1
    }
    guard digits > 0, dots <= 1, let d = Double(String(s)), d.isFinite else { return nil }
    return d
}

/// A non-negative integer of at most 9 digits.
func smallInt(_ s: Substring) -> Int? {
    guard (1...9).contains(s.utf8.count), s.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
    return Int(s)
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

extension Route {
    /// The route's pattern, for the `route` label of `tileserver_http_requests_total`.
    var metricsName: String {
        switch self {
        case .index: return "/"
        case .health: return "/health"
        case .metrics: return "/metrics"
        case .stylesList: return "/styles.json"
        case .style: return "/styles/:id/style.json"
        case .tileJSON: return "/styles/:tileSize/:id.json"
        case .tile: return "/styles/:id/:tileSize/:z/:x/:y.:format"
        case .staticImage: return "/styles/:id/static/:view/:size.:format"
        case .query: return "/styles/:id/query/:view/:size"
        case .sprite: return "/styles/:id/sprite"
        case .glyphs: return "/fonts/:fontstack/:range.pbf"
        case .dataJSON: return "/data/:id.json"
        case .dataTile: return "/data/:id/:z/:x/:y.:format"
        case .elevation: return "/data/:id/elevation/:z/:x/:y"
        case .elevationBatch: return "/data/:id/elevation"
        case .fontList: return "/fonts.json"
        case .wmts: return "/styles/:id/wmts.xml"
        case .tileJSONList(let rendered, let data): return rendered && data ? "/index.json" : rendered ? "/rendered.json" : "/data.json"
        case .viewer(_, let data): return data ? "/data/:id/" : "/styles/:id/"
        case .viewerAsset: return "/maplibre/:file"
        case .file: return "/files/:name"
        }
    }

    /// What `tileserver_tiles_served_total` counts a 200 of this route as: (type, name).
    func servedType(path: String) -> (type: String, name: String)? {
        switch self {
        case .tile(let t): return ("rendered", t.id)
        case .staticImage(let r): return ("rendered", r.id)
        case .style(let id): return ("style", id)
        case let .glyphs(stack, _): return ("font", stack.joined(separator: ","))
        case let .dataTile(id, _, ext): return (ext == "pbf" ? "vector" : "raster", id)
        default: return nil
        }
    }
}
