import Foundation
import GLSnapData
import GLSnapImage
import GLSnapLayout
import GLSnapRender
import GLSnapStyle

/// An `image` source: one picture pinned to four coordinates (top-left, top-right, bottom-right,
/// bottom-left), drawn as a raster quad in the smallest tile that holds all four corners
/// (MapLibre's ImageSource).
struct ImageSource {
    let tile: TileID
    let raster: RasterBox

    /// Reads and decodes the source's `url`; throws naming what is wrong with the definition.
    init(definition: JSON, resolver: ResourceResolver, decoder: ImageDecoder = ImageDecoder()) throws {
        guard let url = definition["url"]?.stringValue else {
            throw GLSnapError.style(source: "image source", message: "'url' is missing or not a string")
        }
        let corners = try ImageSource.corners(definition["coordinates"], name: url)
        self.init(corners: corners, image: try decoder.decode(resolver.load(url)))
    }

    /// `image` pinned to `coordinates` (four [longitude, latitude] pairs); `name` names the
    /// source or URL in errors. A canvas source's picture comes this way (Snapshotter+Canvas.swift).
    init(coordinates: JSON?, image: RGBAImage, name: String) throws {
        self.init(corners: try ImageSource.corners(coordinates, name: name), image: image)
    }

    /// The four corners in Mercator coordinates (0...1).
    static func corners(_ coordinates: JSON?, name: String) throws -> [(x: Double, y: Double)] {
        guard let list = coordinates?.arrayValue, list.count == 4 else {
            throw GLSnapError.style(source: name, message: "'coordinates' must be four [longitude, latitude] pairs")
        }
        var corners: [(x: Double, y: Double)] = []
        for c in list {
            guard let pair = c.arrayValue?.compactMap(\.numberValue), pair.count == 2, pair[0].isFinite, pair[1].isFinite else {
                throw GLSnapError.style(source: name, message: "'coordinates' must be four [longitude, latitude] pairs")
            }
            corners.append((Mercator.x(lon: pair[0]), Mercator.y(lat: max(-Mercator.maxLatitude, min(Mercator.maxLatitude, pair[1])))))
        }
        return corners
    }

    private init(corners: [(x: Double, y: Double)], image: RGBAImage) {
        let tile = ImageSource.centerTile(corners)
        let n = pow(2, Double(tile.z)), e = Double(TileExtent.extent)
        var quad: [Int16] = []
        for c in corners {
            let tx = ((c.x * n - Double(tile.x)) * e).rounded(), ty = ((c.y * n - Double(tile.y)) * e).rounded()
            quad.append(Int16(max(-32768, min(32767, tx))))
            quad.append(Int16(max(-32768, min(32767, ty))))
        }
        self.tile = tile
        raster = RasterBox(image: RasterBox.premultiplied(image), corners: quad)
    }

    /// The tile whose zoom fits the corners' extent and that holds their center.
    static func centerTile(_ corners: [(x: Double, y: Double)]) -> TileID {
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let minX = xs.min() ?? 0, maxX = xs.max() ?? 0, minY = ys.min() ?? 0, maxY = ys.max() ?? 0
        let span = max(maxX - minX, maxY - minY)
        let z = span > 0 ? max(0, min(TileID.maxZoom, Int(floor(-log2(span))))) : TileID.maxZoom
        let n = Double(1 << z)
        let x = max(0, min(n - 1, floor((minX + maxX) / 2 * n))), y = max(0, min(n - 1, floor((minY + maxY) / 2 * n)))
        return TileID(z: z, x: Int(x), y: Int(y)) ?? TileID(z: 0, x: 0, y: 0)!
    }
}
