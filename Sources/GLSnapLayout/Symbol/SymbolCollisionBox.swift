import Foundation

/// How a point symbol's collision box reaches the screen, as MapLibre GL JS projects it
/// (`_projectCollisionBox`):
///
/// - viewport-aligned: a box around the projected anchor, scaled by the perspective ratio;
/// - rotating with the map on the screen plane: the box turned to the map's projected east, its
///   bounding box taken;
/// - pitched with the map: the box laid in the map plane at its layout size in CSS pixels
///   (turned to face the viewer's x axis when not rotating with the map), grown by the map
///   plane's perspective ratio as the shader grows the glyphs (`mapPlaneScale`), its eight edge
///   points projected, their bounding box taken: under pitch the bounding box of the trapezoid
///   the box becomes (`projectedUnderPitch`).
///
/// Variable-anchor shifts move the box along the same east and south axes; in the map plane a
/// shifted box is not grown (GL JS applies the growth only where no shift is given). Box units
/// are CSS pixels at the layout size (text box × layout text size / 24, padding added).
struct SymbolBoxFrame {
    enum Plane { case screen, map }
    let plane: Plane
    /// The anchor: on the screen (CSS px) or in the map plane (CSS px at the view's zoom).
    let origin: Vec2
    let east: Vec2, south: Vec2
    /// Screen plane: the perspective ratio; map plane: `mapPlaneScale`, or 1 once shifted.
    let scale: Double
    let toScreen: (Vec2) -> Vec2?

    /// The frame of a symbol at screen anchor `a` (already translated) and map-plane anchor
    /// `planeAnchor`; `eastOnScreen` is the map's east on the screen at the anchor (unit length);
    /// `w` the clip w of the translated anchor and `cameraToCenter` the camera-to-center distance.
    static func make(rotateWithMap: Bool, pitchWithMap: Bool, pitched: Bool, screenAnchor a: Vec2, planeAnchor: Vec2, perspective: Double,
                     w: Double, cameraToCenter: Double,
                     eastOnScreen: Vec2, cosA: Double, sinA: Double, toScreen: @escaping (Vec2) -> Vec2?) -> SymbolBoxFrame {
        if pitchWithMap && (projectedUnderPitch || !pitched) {
            // The map plane is north up; the view turns it by the bearing (angle = -bearing).
            let east = rotateWithMap ? Vec2(1, 0) : Vec2(cosA, -sinA)
            return SymbolBoxFrame(plane: .map, origin: planeAnchor, east: east, south: Vec2(-east.y, east.x),
                                  scale: mapPlaneScale(w: w, cameraToCenter: cameraToCenter), toScreen: toScreen)
        }
        let east = rotateWithMap ? eastOnScreen : Vec2(1, 0)
        return SymbolBoxFrame(plane: .screen, origin: a, east: east, south: Vec2(-east.y, east.x), scale: perspective, toScreen: toScreen)
    }

    /// Whether boxes of labels laid on a pitched map are projected from the map plane, as GL JS 6
    /// projects them, or kept on the screen plane, as MapLibre Native keeps them (the older
    /// suite's expectations: text-pitch-alignment/map-text-rotation-alignment-viewport).
    static let projectedUnderPitch = true

    /// How much a box laid on the pitched map grows at clip w: the shader's perspective ratio
    /// for glyphs pitched with the map, 0.5 + 0.5 × w / camera-to-center distance clamped to
    /// 0...4 (GL JS's `_projectCollisionBox`, where no variable-anchor shift is given), so that
    /// projected it is as large on the screen as the glyphs it holds.
    static func mapPlaneScale(w: Double, cameraToCenter d: Double) -> Double {
        guard d > 0, w.isFinite else { return 1 }
        return min(max(0.5 + 0.5 * w / d, 0), 4)
    }

    /// Where a variable anchor's shift (CSS px at the layout size, along the frame's axes) moves
    /// the anchor. In the map plane the box is then laid at its layout size, not grown by
    /// `mapPlaneScale` (GL JS drops that growth whenever a shift is given, even a zero one).
    func shifted(_ shift: Vec2) -> SymbolBoxFrame {
        let k = plane == .map ? 1 : scale
        let o = Vec2(origin.x + (east.x * shift.x + south.x * shift.y) * k, origin.y + (east.y * shift.x + south.y * shift.y) * k)
        return SymbolBoxFrame(plane: plane, origin: o, east: east, south: south, scale: k, toScreen: toScreen)
    }

    /// The screen bounding box of box `b` around the anchor; nil when part of it is behind the
    /// camera.
    func box(_ b: Rect) -> CollisionShape? {
        let k = scale
        if plane == .screen && east.x == 1 && east.y == 0 {
            return .box(b.scaled(by: k).translated(by: origin))
        }
        var bounds = Rect.empty
        let xs = [b.minX * k, (b.minX + b.maxX) / 2 * k, b.maxX * k], ys = [b.minY * k, (b.minY + b.maxY) / 2 * k, b.maxY * k]
        for (i, x) in xs.enumerated() {
            for (j, y) in ys.enumerated() where i != 1 || j != 1 {
                var p = Vec2(origin.x + east.x * x + south.x * y, origin.y + east.y * x + south.y * y)
                if plane == .map {
                    guard let s = toScreen(p) else { return nil }
                    p = s
                }
                bounds = bounds.union(Rect(p))
            }
        }
        return .box(bounds)
    }
}
