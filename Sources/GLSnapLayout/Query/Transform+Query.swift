import Foundation

/// The view's side of a rendered-feature query: screen points to tile units and back.
extension Transform {
    /// How much farther from the camera than the center the top of the view is (MapLibre's
    /// maxPitchScaleFactor): query paddings grow by it, as symbols and circles far away do.
    public var maxPitchScaleFactor: Double {
        let m = mercatorCoordinate(for: (0, 0))
        let p = Mat4.transform(pixelMatrix, m.x * worldSize, m.y * worldSize, 0, 1)
        return p.3 / cameraToCenterDistance
    }

    /// A query as extrusions see it: the query and the point on the ground under the camera
    /// (MapLibre's getCameraQueryGeometry), so walls that rise into the query are found.
    public func cameraQueryGeometry(_ screen: [QueryPoint]) -> [QueryPoint] {
        let reach = tan(pitch * .pi / 180) * cameraToCenterDistance, r = roll * .pi / 180
        let camera = QueryPoint(centerScreenPoint.x + reach * sin(r), centerScreenPoint.y + reach * cos(r))
        if screen.count == 1 { return [screen[0], camera] }
        let all = screen + [camera]
        let minX = all.map(\.x).min() ?? 0, maxX = all.map(\.x).max() ?? 0
        let minY = all.map(\.y).min() ?? 0, maxY = all.map(\.y).max() ?? 0
        return [QueryPoint(minX, minY), QueryPoint(maxX, minY), QueryPoint(maxX, maxY), QueryPoint(minX, maxY), QueryPoint(minX, minY)]
    }

    /// Screen points (CSS pixels) on the ground, in the tile units (`TileExtent.extent` across)
    /// of `tile` in its world copy.
    public func tilePoints(_ screen: [QueryPoint], tile: CoveredTile) -> [QueryPoint] {
        let tiles = exp2(Double(tile.id.z))
        let e = Double(TileExtent.extent)
        return screen.map { p in
            let m = mercatorCoordinate(for: (p.x, p.y))
            return QueryPoint(((m.x - Double(tile.wrap)) * tiles - Double(tile.id.x)) * e, (m.y * tiles - Double(tile.id.y)) * e)
        }
    }
}

/// A tile's points (tile units, height in meters) to screen pixels and depth, for the parts of a
/// query that compare in the view's plane (viewport-aligned circles, extrusions).
public struct TileScreenProjection: Sendable {
    let m: [Double]
    let width: Double, height: Double
    /// The camera's distance to the center, for pitch scaling.
    public let cameraToCenterDistance: Double

    public init(transform t: Transform, tile: CoveredTile) {
        m = t.tileMatrix(for: tile.id, wrap: tile.wrap).map(Double.init)
        width = t.width; height = t.height; cameraToCenterDistance = t.cameraToCenterDistance
    }

    /// Screen x, y (CSS px), clip depth z/w and w of a tile point `z` meters up.
    public func project(_ p: QueryPoint, z: Double = 0) -> (point: QueryPoint, depth: Double, w: Double) {
        let x = m[0] * p.x + m[4] * p.y + m[8] * z + m[12]
        let y = m[1] * p.x + m[5] * p.y + m[9] * z + m[13]
        let d = m[2] * p.x + m[6] * p.y + m[10] * z + m[14]
        let w = m[3] * p.x + m[7] * p.y + m[11] * z + m[15]
        return (QueryPoint((x / w + 1) / 2 * width, (1 - y / w) / 2 * height), d / w, w)
    }
}
