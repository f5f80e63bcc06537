import Foundation
import GLSnapData

extension Transform {
    /// Meters to world pixels at the center's latitude (GL JS's pixelPerMeter).
    public var pixelsPerMeter: Double {
        worldSize / (Mercator.earthCircumference * cos(center.lat * .pi / 180))
    }

    /// The same camera at another elevation of its center (meters), over terrain whose DEM tile
    /// under the center reaches down to `minTerrainElevation` (nil: no terrain).
    public func elevated(_ meters: Double, minTerrainElevation: Double? = nil) -> Transform {
        Transform(width: width, height: height, center: center, zoom: zoom, bearing: bearing, pitch: pitch, roll: roll,
                  fieldOfView: verticalFieldOfView, padding: padding, elevation: meters,
                  centerAltitude: centerAltitude, minTerrainElevation: minTerrainElevation)
    }

    /// The Mercator point (0...1) at the center of the view.
    public var centerMercator: (x: Double, y: Double) { (centerPoint.x / worldSize, centerPoint.y / worldSize) }

    /// GL JS's fog matrix for a tile: the view's projection with its near plane moved out to the
    /// sea level under the center, so that depth 0 is the map's center and 1 the far plane
    /// (`calculateFogMatrix`); tile units and meters in, clip space out. Column-major Float.
    public func fogMatrix(for tile: TileID, wrap: Int = 0) -> [Float] {
        let fov = verticalFieldOfView * .pi / 180
        let pitchRad = pitch * .pi / 180
        let ppm = pixelsPerMeter
        let near = cameraToCenterDistance + elevation * ppm / cos(pitchRad)
        var m = Mat4.perspective(fovy: fov, aspect: width / height, near: near, far: farZ)
        m[8] = -(centerScreenPoint.x - width / 2) * 2 / width
        m[9] = (centerScreenPoint.y - height / 2) * 2 / height
        Mat4.scale(&m, 1, -1, 1)
        Mat4.translate(&m, 0, 0, -cameraToCenterDistance)
        Mat4.rotateZ(&m, -roll * .pi / 180)
        Mat4.rotateX(&m, pitchRad)
        Mat4.rotateZ(&m, -bearing * .pi / 180)
        Mat4.translate(&m, -centerPoint.x, -centerPoint.y, 0)
        Mat4.scale(&m, 1, 1, ppm)
        Mat4.translate(&m, 0, 0, -elevation)
        let tileScale = worldSize / pow(2, Double(tile.z))
        let unwrappedX = Double(tile.x) + pow(2, Double(tile.z)) * Double(wrap)
        var t = Mat4.identity
        Mat4.translate(&t, unwrappedX * tileScale, Double(tile.y) * tileScale, 0)
        let s = tileScale / Double(TileExtent.extent)
        Mat4.scale(&t, s, s, 1)
        return Mat4.multiply(m, t).map { Float($0) }
    }
}
