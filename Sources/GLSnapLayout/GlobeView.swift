import Foundation
import GLSnapStyle

/// A camera over the globe, as MapLibre GL JS's vertical perspective projection places it: the
/// map's Mercator camera (`Transform`: center, zoom, bearing, pitch, roll, field of view,
/// padding) looking at a sphere whose radius in pixels makes the scale at the center that of
/// Mercator there, `worldSize / (2π cos(latitude))`.
///
/// Positions on the sphere are unit vectors: x = sin(lon) cos(lat), y = sin(lat),
/// z = cos(lon) cos(lat) (GL JS's angular-to-surface convention). `globeness` blends the
/// globe (1) into the flat map (0) as GL JS's projection transition does: screen positions are
/// a linear mix of the two clip-space positions.
public struct GlobeView: Sendable {
    /// The flat camera this view bends onto the sphere.
    public let flat: Transform
    /// 1: all globe; 0: the flat map; between: the blend GL JS draws between the transition zooms.
    public let globeness: Double
    /// The sphere's radius in CSS pixels.
    public let radius: Double
    /// Unit sphere to clip space (column-major, clip y up as GL's).
    let sphereMatrix: [Double]
    let sphereMatrixInverse: [Double]
    /// The camera in unit-sphere coordinates.
    let camera: (x: Double, y: Double, z: Double)
    /// How far inside the unit sphere GL JS's tile mesh reaches at most: the sagitta of one
    /// segment of its tile subdivision (128 per tile at zoom 0, halved per zoom, at least 32),
    /// which at the rim decides which pixels show the planet.
    let rimInset: Double
    /// The tile mesh GL JS draws the planet with, which decides what each pixel shows.
    let mesh: GlobeMesh

    /// The globe over `flat`'s camera. `globeness` is clamped to 0...1. `terrain`: the style has
    /// 3D terrain, whose finer mesh GL JS draws the planet with (`GlobeMesh`).
    public init(flat: Transform, globeness: Double = 1, terrain: Bool = false) {
        self.flat = flat
        self.globeness = min(max(globeness.isFinite ? globeness : 1, 0), 1)
        let lat = flat.center.lat * .pi / 180, lon = flat.center.lon * .pi / 180
        let radius = flat.worldSize / (2 * .pi) / cos(lat)
        self.radius = radius
        let fov = flat.verticalFieldOfView * .pi / 180
        let d = flat.cameraToCenterDistance
        // The depth range only has to hold the visible half of the sphere (GL JS: near 0.5,
        // far past the sphere's back).
        var m = Mat4.perspective(fovy: fov, aspect: flat.width / flat.height, near: 0.5, far: d + 2 * radius)
        m[8] = -(flat.centerScreenPoint.x - flat.width / 2) * 2 / flat.width
        m[9] = (flat.centerScreenPoint.y - flat.height / 2) * 2 / flat.height
        var view = Mat4.identity
        Mat4.translate(&view, 0, 0, -d)
        Mat4.rotateZ(&view, flat.roll * .pi / 180)
        Mat4.rotateX(&view, -flat.pitch * .pi / 180)
        Mat4.rotateZ(&view, flat.bearing * .pi / 180)
        Mat4.translate(&view, 0, 0, -radius)
        Mat4.rotateX(&view, lat)
        GlobeView.rotateY(&view, -lon)
        Mat4.scale(&view, radius, radius, radius)
        sphereMatrix = Mat4.multiply(m, view)
        sphereMatrixInverse = Mat4.invert(sphereMatrix) ?? Mat4.identity
        let tileZoom = max(0, flat.zoom.rounded(.down))
        let segmentsPerWorld = pow(2, tileZoom) * max(128 / pow(2, tileZoom), 32)
        rimInset = 1 - cos(.pi / segmentsPerWorld)
        mesh = GlobeMesh(zoom: flat.zoom, terrain: terrain)
        let eye = Mat4.transform(Mat4.invert(view) ?? Mat4.identity, 0, 0, 0, 1)
        camera = (eye.0 / eye.3, eye.1 / eye.3, eye.2 / eye.3)
    }

    /// The unit vector of a coordinate (degrees).
    public static func surfaceVector(lon: Double, lat: Double) -> (x: Double, y: Double, z: Double) {
        let l = lon * .pi / 180, p = lat * .pi / 180
        return (sin(l) * cos(p), sin(p), cos(l) * cos(p))
    }

    /// Whether the camera sees `coordinate`: it lies on the near side of the horizon (the
    /// plane through the points where lines from the camera touch the sphere).
    public func isVisible(_ coordinate: (lon: Double, lat: Double)) -> Bool {
        guard globeness > 0 else { return true }
        let v = GlobeView.surfaceVector(lon: coordinate.lon, lat: coordinate.lat)
        return v.x * camera.x + v.y * camera.y + v.z * camera.z > 1
    }

    /// Where `coordinate` is drawn (CSS pixels from the top-left), or nil where it lies behind
    /// the globe's horizon (hidden by the planet) or behind the camera.
    public func point(for coordinate: (lon: Double, lat: Double)) -> (x: Double, y: Double)? {
        guard isVisible(coordinate) else { return nil }
        let lat = min(max(coordinate.lat, -Mercator.maxLatitude), Mercator.maxLatitude)
        return project(mercator: (Mercator.x(lon: coordinate.lon), Mercator.y(lat: lat)), lat: coordinate.lat)
    }

    /// The screen position of a Mercator coordinate (0...1 across the world; `lat` in degrees
    /// where the Mercator y is clamped short of a pole), without the horizon test.
    func project(mercator m: (x: Double, y: Double), lat: Double? = nil) -> (x: Double, y: Double)? {
        let lon = (m.x * 2 - 1) * 180
        let v = GlobeView.surfaceVector(lon: lon, lat: lat ?? Mercator.lat(y: m.y))
        var c = Mat4.transform(sphereMatrix, v.x, v.y, v.z, 1)
        if globeness < 1 {
            let ws = flat.worldSize
            let f = Mat4.transform(flat.projMatrix, m.x * ws, m.y * ws, 0, 1)
            let g = globeness
            c = (f.0 + (c.0 - f.0) * g, f.1 + (c.1 - f.1) * g, c.2, f.3 + (c.3 - f.3) * g)
        }
        guard c.3 > 1e-9 else { return nil }
        return ((c.0 / c.3 + 1) / 2 * flat.width, (1 - c.1 / c.3) / 2 * flat.height)
    }

    /// The coordinate drawn at a screen position (CSS pixels from the top-left), or nil where
    /// the position shows no globe (space around the planet).
    /// Longitudes are within -180...180.
    public func coordinate(for point: (x: Double, y: Double)) -> (lon: Double, lat: Double)? {
        if globeness < 1 {
            guard let m = mercatorCoordinate(for: point) else { return nil }
            return (remainder(Mercator.lon(x: m.x), 360), Mercator.lat(y: m.y))
        }
        guard let s = surfacePoint(at: point) else { return nil }
        return (atan2(s.x, s.z) * 180 / .pi, asin(min(max(s.y, -1), 1)) * 180 / .pi)
    }

    /// The Mercator coordinate (x unwrapped to within half a world of the center's; y may pass
    /// 0...1 near the poles) drawn at a screen position, or nil off the globe.
    public func mercatorCoordinate(for point: (x: Double, y: Double)) -> (x: Double, y: Double)? {
        guard globeness > 0 else { return flat.mercatorCoordinate(for: point) }
        if globeness < 1 { return blendedMercatorCoordinate(for: point) }
        guard let c = coordinate(for: point) else { return nil }
        var x = Mercator.x(lon: c.lon)
        let cx = Mercator.x(lon: flat.center.lon)
        x -= (x - cx).rounded()
        let lat = min(max(c.lat, -89.999999), 89.999999) * .pi / 180
        let y = 0.5 - log(tan(.pi / 4 + lat / 2)) / (2 * .pi)
        return (x, y)
    }

    /// The unit-sphere point a screen position's ray meets first, or nil where it misses.
    func surfacePoint(at point: (x: Double, y: Double)) -> (x: Double, y: Double, z: Double)? {
        let nx = point.x / flat.width * 2 - 1, ny = 1 - point.y / flat.height * 2
        // Every ray starts at the camera; the far plane gives its direction.
        let b = Mat4.transform(sphereMatrixInverse, nx, ny, 1, 1)
        let o = camera
        var dir = (b.0 / b.3 - o.0, b.1 / b.3 - o.1, b.2 / b.3 - o.2)
        let len = (dir.0 * dir.0 + dir.1 * dir.1 + dir.2 * dir.2).squareRoot()
        guard len > 0 else { return nil }
        dir = (dir.0 / len, dir.1 / len, dir.2 / len)
        // |o + t dir| = 1: t² + 2 (o·dir) t + |o|² - 1 = 0.
        let bq = o.0 * dir.0 + o.1 * dir.1 + o.2 * dir.2
        let cq = o.0 * o.0 + o.1 * o.1 + o.2 * o.2 - 1
        // GL JS's sphere is a mesh of chords, so its rim lies inside the true one by the chords'
        // sagitta: rays that pass within it see space there too.
        guard bq * bq - cq - rimInset * (2 - rimInset) >= 0 else { return nil }
        let disc = bq * bq - cq
        let t = -bq - disc.squareRoot()
        guard t >= 0 else { return nil }
        return (o.0 + dir.0 * t, o.1 + dir.1 * t, o.2 + dir.2 * t)
    }

    /// Between the transition zooms the screen position is a blend, with no closed inverse:
    /// Newton's method from the flat map's answer (the two are close there).
    func blendedMercatorCoordinate(for point: (x: Double, y: Double)) -> (x: Double, y: Double)? {
        var m = flat.mercatorCoordinate(for: point)
        let h = 1 / flat.worldSize
        for _ in 0..<8 {
            guard let p = project(mercator: m), let px = project(mercator: (m.x + h, m.y)),
                  let py = project(mercator: (m.x, m.y + h)) else { return nil }
            let j = ((px.x - p.x) / h, (py.x - p.x) / h, (px.y - p.y) / h, (py.y - p.y) / h)
            let det = j.0 * j.3 - j.1 * j.2
            guard abs(det) > 1e-12 else { return nil }
            let ex = point.x - p.x, ey = point.y - p.y
            m.x += (j.3 * ex - j.1 * ey) / det
            m.y += (-j.2 * ex + j.0 * ey) / det
            if abs(ex) + abs(ey) < 1e-6 { break }
        }
        return m
    }

    /// The cap of the sphere the camera sees (degrees): its center's longitude, its half width
    /// in longitude (180 where it holds a pole) and its north and south latitudes; nil for the
    /// flat map or a camera inside the sphere.
    public func visibleCap() -> (lon: Double, halfWidth: Double, north: Double, south: Double)? {
        let d = (camera.x * camera.x + camera.y * camera.y + camera.z * camera.z).squareRoot()
        guard globeness > 0, d > 1 else { return nil }
        let alpha = acos(1 / d) * 180 / .pi
        let lat = asin(camera.y / d) * 180 / .pi, lon = atan2(camera.x, camera.z) * 180 / .pi
        let north = lat + alpha, south = lat - alpha
        if north >= 90 || south <= -90 { return (lon, 180, min(north, 90), max(south, -90)) }
        let half = asin(min(1, sin(alpha * .pi / 180) / cos(lat * .pi / 180))) * 180 / .pi
        return (lon, half, north, south)
    }

    static func rotateY(_ a: inout [Double], _ rad: Double) {
        let s = sin(rad), c = cos(rad)
        for i in 0..<4 {
            let a0 = a[i], a2 = a[8 + i]
            a[i] = a0 * c - a2 * s
            a[8 + i] = a0 * s + a2 * c
        }
    }
}
