import Foundation

extension Transform {
    /// How far above the middle of the view the horizon lies (CSS pixels along the view's up
    /// direction; negative below it), as GL JS's getMercatorHorizon puts it: the line where the
    /// ground would meet the sky on a sphere of Earth's size, 0.85 of the flat plane's vanishing
    /// line, and never steeper than `maxHorizonAngle` from the camera. The far plane stops there.
    public var horizonAboveCenter: Double {
        cameraToCenterDistance * min(tan((90 - pitch) * .pi / 180) * 0.85,
                                     tan((Transform.maxHorizonAngle - pitch) * .pi / 180))
    }

    /// The horizon as a line of the image: a point on it and the unit normal that points to the
    /// sky, in CSS pixels with y up from the bottom-left corner (as GL's window coordinates).
    /// The roll turns it about the middle of the view; like GL JS's sky, the map's padding does
    /// not move it.
    public var horizonLine: (point: (x: Double, y: Double), normal: (x: Double, y: Double)) {
        let h = horizonAboveCenter
        let r = roll * .pi / 180
        let s = sin(r), c = cos(r)
        return ((width / 2 - h * s, height / 2 + h * c), (-s, c))
    }

    /// How far the camera is above the ground (CSS pixels at the center; negative below it): the
    /// center's altitude plus the camera's height over the center.
    public var cameraHeightAboveGround: Double {
        cos(pitch * .pi / 180) * cameraToCenterDistance + centerAltitude * pixelsPerMeter
    }

    /// Whether the camera is above the ground plane by at least the height of an 85-degree camera
    /// over a center on the ground. One nearer looks along the ground, where the tile cover grows
    /// without bound, and one below it sees the map from underneath; `Snapshotter` refuses both
    /// past 85 degrees (a pitch past 90 needs a raised center, as in GL JS's high-pitch views).
    public var isClearOfTheGround: Bool {
        cameraHeightAboveGround >= cameraToCenterDistance * cos(85 * Double.pi / 180) * (1 - 1e-9)
    }

    /// The matrix that draws the square of `halfSize` world pixels about the center on the
    /// ground (vertices -1...1) into clip space: a ground plane that the far plane cuts at the
    /// horizon. Column-major Float.
    public func groundMatrix(halfSize: Double) -> [Float] {
        var m = projMatrix
        Mat4.translate(&m, centerPoint.x, centerPoint.y, 0)
        Mat4.scale(&m, halfSize, halfSize, 1)
        return m.map { Float($0) }
    }
}
