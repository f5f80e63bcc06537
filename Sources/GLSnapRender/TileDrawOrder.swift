import GLSnapLayout

extension Painter {
    /// GL JS's tile order in its translucent pass (`coordsDescending`, the reverse of
    /// `compareTileId`): deeper tiles first, then the world in view before its copies (the west
    /// copy before the east one at the same distance), then north to south and west to east.
    /// The order shows wherever one tile's drawing reaches over another's: circles (not
    /// stencil-clipped) and patterned extrusions.
    static func translucentPassOrder(_ tiles: [FrameTile]) -> [FrameTile] {
        func worldDistance(_ wrap: Int) -> Int { abs(wrap * 2) - (wrap < 0 ? 1 : 0) }
        return tiles.sorted { a, b in
            let p = a.tile, q = b.tile
            if p.overscaledZoom != q.overscaledZoom { return p.overscaledZoom > q.overscaledZoom }
            if p.wrap != q.wrap { return worldDistance(p.wrap) < worldDistance(q.wrap) }
            if p.id.y != q.id.y { return p.id.y < q.id.y }
            return p.id.x < q.id.x
        }
    }
}
