import Foundation
import GLSnapData
import GLSnapStyle

/// The listings tileserver-gl serves: TileJSON arrays and WMTS capabilities.
extension MapService {
    /// `/index.json`, `/rendered.json`, `/data.json`: the styles' raster TileJSON, then the data's.
    func tileJSONList(rendered: Bool, data: Bool, base: String) throws -> HTTPResponse {
        var items: [String] = []
        if rendered { items += styleOrder.compactMap { styles[$0] }.filter(\.serveRendered).map { tileJSON($0, tileSize: 256, base: base) } }
        if data {
            for id in catalog.ids {
                let o = try dataTileJSONObject(id, base: base)
                items.append(String(decoding: try JSONSerialization.data(withJSONObject: o, options: [.sortedKeys, .withoutEscapingSlashes]),
                                    as: UTF8.self))
            }
        }
        return .json("[" + items.joined(separator: ", ") + "]", extra: [("Cache-Control", config.cacheControl)])
    }

    /// URLs in WMTS capabilities must be absolute: a relative public URL (`/test/`) is put after
    /// `http://{bind}:{port}` (127.0.0.1 when bound to 0.0.0.0: give an absolute `--public-url` there).
    var absoluteBase: String {
        let base = publicBase
        if base.hasPrefix("http://") || base.hasPrefix("https://") { return base }
        let host = config.bind == "0.0.0.0" ? "127.0.0.1" : config.bind
        return "http://\(host):\(listeningPort)" + (base.isEmpty || base.hasPrefix("/") ? base : "/" + base)
    }

    /// WMTS 1.0 capabilities: a layer of 256-px and one of 512-px tiles over GoogleMapsCompatible
    /// tile matrix sets (zoom 0-22).
    func wmtsCapabilities(_ s: ServedStyle) -> String {
        let base = xmlEscape(absoluteBase), id = xmlEscape(s.id), name = xmlEscape(s.name)
        let own = "\(base)/styles/\(id)/wmts.xml"
        var x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        x += "<Capabilities xmlns=\"http://www.opengis.net/wmts/1.0\" xmlns:ows=\"http://www.opengis.net/ows/1.1\" "
        x += "xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.0.0\">\n"
        x += "<ows:ServiceIdentification><ows:Title>glsnap serve</ows:Title><ows:ServiceType>OGC WMTS</ows:ServiceType>"
        x += "<ows:ServiceTypeVersion>1.0.0</ows:ServiceTypeVersion></ows:ServiceIdentification>\n<ows:OperationsMetadata>\n"
        for op in ["GetCapabilities", "GetTile"] {
            x += "<ows:Operation name=\"\(op)\"><ows:DCP><ows:HTTP><ows:Get xlink:href=\"\(own)\"><ows:Constraint name=\"GetEncoding\">"
            x += "<ows:AllowedValues><ows:Value>RESTful</ows:Value></ows:AllowedValues></ows:Constraint></ows:Get></ows:HTTP></ows:DCP></ows:Operation>\n"
        }
        x += "</ows:OperationsMetadata>\n<Contents>\n"
        for size in [256, 512] {
            x += "<Layer><ows:Title>\(name)-\(size)</ows:Title><ows:Identifier>\(id)-\(size)</ows:Identifier>"
            x += "<ows:WGS84BoundingBox crs=\"urn:ogc:def:crs:OGC:2:84\"><ows:LowerCorner>-180 -85.051128779807</ows:LowerCorner>"
            x += "<ows:UpperCorner>180 85.051128779807</ows:UpperCorner></ows:WGS84BoundingBox>"
            x += "<Style isDefault=\"true\"><ows:Identifier>default</ows:Identifier></Style><Format>image/png</Format>"
            x += "<TileMatrixSetLink><TileMatrixSet>GoogleMapsCompatible_\(size)</TileMatrixSet></TileMatrixSetLink>"
            x += "<ResourceURL format=\"image/png\" resourceType=\"tile\" template=\"\(base)/styles/\(id)/\(size)/{TileMatrix}/{TileCol}/{TileRow}.png\"/>"
            x += "</Layer>\n"
        }
        // Scale denominator: meters per pixel at the equator over 0.28 mm (the standard pixel).
        let world = 2 * Double.pi * Mercator.epsg3857Radius
        for size in [256, 512] {
            x += "<TileMatrixSet><ows:Identifier>GoogleMapsCompatible_\(size)</ows:Identifier>"
            x += "<ows:SupportedCRS>urn:ogc:def:crs:EPSG::3857</ows:SupportedCRS>\n"
            for z in 0...Int(Router.maxZoom) {
                let n = 1 << z
                let scale = world / Double(size * n) / 0.00028
                x += "<TileMatrix><ows:Identifier>\(z)</ows:Identifier><ScaleDenominator>\(String(format: "%.8f", scale))</ScaleDenominator>"
                x += "<TopLeftCorner>-20037508.34 20037508.34</TopLeftCorner><TileWidth>\(size)</TileWidth><TileHeight>\(size)</TileHeight>"
                x += "<MatrixWidth>\(n)</MatrixWidth><MatrixHeight>\(n)</MatrixHeight></TileMatrix>\n"
            }
            x += "</TileMatrixSet>\n"
        }
        x += "</Contents>\n</Capabilities>\n"
        return x
    }
}

extension MapService {
    /// `frontPage: "file.html"`: the file, read at each request (so it can change), at most 64 MiB.
    func frontPageFile(_ file: String) throws -> HTTPResponse {
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? nil
        guard let size, size <= MapService.maxAssetBytes, let data = FileManager.default.contents(atPath: file) else {
            throw ServerError.renderFailed("the front page \(file) cannot be read or is larger than 64 MiB")
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: [UInt8](data))
    }
}

func xmlEscape(_ s: String) -> String { htmlEscape(s) }
