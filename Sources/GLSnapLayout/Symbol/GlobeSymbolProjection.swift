import Foundation
import GLSnapData

/// A tile's points projected through the globe instead of the flat map, for symbols placed and
/// drawn facing the screen over the sphere, as GL JS's `projectTileCoordinates` projects them:
/// the tile point's Mercator position bent onto the unit sphere, then through the globe's
/// view-projection (clip w is the distance from the camera, as on the flat map, so labels
/// shrink with it alike). Between the transition zooms the clip positions are GL JS's blend of
/// the sphere's and the flat map's.
struct GlobeTileProjection {
    let globe: GlobeView
    /// The tile's north-west corner in Mercator (x unwrapped by the tile's world copy).
    let originX: Double, originY: Double
    /// Mercator units per tile unit.
    let scale: Double
    /// The tile's zoom.
    let z: Int

    init(globe: GlobeView, tile: CoveredTile) {
        self.globe = globe
        z = tile.id.z
        let n = exp2(Double(tile.id.z))
        originX = (Double(tile.id.x) + Double(tile.wrap) * n) / n
        originY = Double(tile.id.y) / n
        scale = 1 / (n * Double(TileExtent.extent))
    }

    /// The unit-sphere point of a tile point.
    @inline(__always)
    func surfaceVector(_ p: Vec2) -> (x: Double, y: Double, z: Double) {
        let mx = originX + p.x * scale, my = originY + p.y * scale
        let lon = (mx * 2 - 1) * .pi
        let lat = 2 * atan(exp(.pi * (1 - 2 * my))) - .pi / 2
        return (sin(lon) * cos(lat), sin(lat), cos(lon) * cos(lat))
    }

    /// Screen position (CSS px) and clip w of a tile point; nil behind the camera. Points
    /// behind the horizon are projected too (onto the far side): `isOccluded` tells them.
    func project(_ p: Vec2) -> (x: Double, y: Double, w: Double)? {
        let v = surfaceVector(p)
        var c = Mat4.transform(globe.sphereMatrix, v.x, v.y, v.z, 1)
        if globe.globeness < 1 {
            let ws = globe.flat.worldSize
            let f = Mat4.transform(globe.flat.projMatrix, (originX + p.x * scale) * ws, (originY + p.y * scale) * ws, 0, 1)
            let g = globe.globeness
            c = (f.0 + (c.0 - f.0) * g, f.1 + (c.1 - f.1) * g, c.2, f.3 + (c.3 - f.3) * g)
        }
        guard c.3 > 1e-6 else { return nil }
        return ((c.0 / c.3 + 1) / 2 * globe.flat.width, (1 - c.1 / c.3) / 2 * globe.flat.height, c.3)
    }

    /// Whether the planet hides the tile point from the camera (GL JS's occlusion test: the
    /// point lies beyond the plane of the horizon).
    func isOccluded(_ p: Vec2) -> Bool {
        guard globe.globeness > 0 else { return false }
        let v = surfaceVector(p), o = globe.camera
        return v.x * o.x + v.y * o.y + v.z * o.z <= 1
    }

    /// How much longer a tile unit at `p` must be to span what it spans at the center: on the
    /// sphere a Mercator unit at latitude φ is `cos φ / cos φ_center` as long as at the center
    /// (blended by the globeness between the transition zooms).
    func latitudeCorrection(at p: Vec2) -> Double {
        let my = originY + p.y * scale
        let lat = 2 * atan(exp(.pi * (1 - 2 * my))) - .pi / 2
        let center = globe.flat.center.lat * .pi / 180
        let k = cos(center) / max(cos(lat), 1e-6)
        return globe.globeness * k + (1 - globe.globeness)
    }
}

extension GlobeView {
    /// The clip position (x, y, z, w; the whole view's) of tile point `p` of `tile` on the
    /// globe, or nil where the planet hides it (behind the horizon) or it is behind the camera:
    /// where a viewport-aligned circle centered there is drawn, facing the screen.
    public func clipPosition(of p: (x: Double, y: Double), in tile: CoveredTile) -> (x: Double, y: Double, z: Double, w: Double)? {
        let g = GlobeTileProjection(globe: self, tile: tile)
        let v = Vec2(p.x, p.y)
        guard !g.isOccluded(v), let s = g.project(v) else { return nil }
        // Back to clip space from CSS pixels, with the point's w; z mid-range (circles are not depth-tested).
        return ((s.x / flat.width * 2 - 1) * s.w, (1 - s.y / flat.height * 2) * s.w, 0, s.w)
    }
}

extension GlobeTileProjection {
    /// `tiles` with one copy of each tile: on the sphere a world copy lands where the tile does
    /// (GL JS's globe has no world copies), so a second copy's labels would only collide with the
    /// first's. The copy nearest the first world is kept, the order otherwise unchanged.
    static func oneCopyPerTile(_ tiles: [(tile: CoveredTile, symbols: SymbolTile)]) -> [(tile: CoveredTile, symbols: SymbolTile)] {
        var kept: [TileID: Int] = [:]
        for (i, t) in tiles.enumerated() {
            if let k = kept[t.tile.id], abs(tiles[k].tile.wrap) <= abs(t.tile.wrap) { continue }
            kept[t.tile.id] = i
        }
        let keep = Set(kept.values)
        return tiles.indices.filter { keep.contains($0) }.map { tiles[$0] }
    }
}
