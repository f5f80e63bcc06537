import GLSnapGL
import GLSnapData
import GLSnapLayout
import GLSnapStyle

extension Painter {
    /// Viewport-aligned circles on the globe, as GL JS draws them: each centered where the globe
    /// projects its point, facing the screen (scaled by its distance with circle-pitch-scale map,
    /// as on a pitched flat map), hidden behind the horizon. No single matrix bends tile points
    /// onto the sphere, so each circle is drawn with a matrix that puts its center there (the
    /// shader only extrudes around it). `translate` (tile units, see `globeTranslation`) moves
    /// each center before it is projected, as GL JS adds circle-translate to it in its shader: so
    /// a translated circle is foreshortened with the sphere, and hidden where its moved center is.
    func drawCirclesOnGlobe(_ globe: GlobeView, tile: CoveredTile, box: GeometryBox, triangles: IndexBuffer,
                            program: CircleProgram, translate: (x: Double, y: Double) = (0, 0)) {
        guard let stream = box.geometry.streams.first(where: { $0.attribute == "a_pos" }), case .int16(let pos) = stream.data else { return }
        let u = program.uniforms
        u.extrudeScale.set(Float(pixelsToClipUnits.x), Float(pixelsToClipUnits.y))
        let circles = min(pos.count / 8, triangles.count / 6)
        var m = [Float](repeating: 0, count: 16)
        for k in 0..<circles {
            // a_pos = center * 2 + corner bit: the first corner holds the center doubled.
            let center = (Double(pos[k * 8] >> 1), Double(pos[k * 8 + 1] >> 1))
            guard let c = globe.clipPosition(of: (center.0 + translate.x, center.1 + translate.y), in: tile) else { continue }
            m[12] = Float(c.x); m[13] = Float(c.y); m[14] = Float(c.z); m[15] = Float(c.w)
            u.matrix.set(frame.pieceMatrix(m))
            program.program.draw(indices: triangles, first: k * 6, count: 6, modes: DrawModes(color: .alphaBlended))
        }
    }

    /// circle-translate of `translate` pixels (map- or viewport-anchored) in `tile`'s units, as GL
    /// JS's `translatePosition` gives it: a viewport anchor turned by the camera's bearing.
    func globeTranslation(_ tile: TileID, _ translate: [Double], _ anchor: TranslateAnchor) -> (x: Double, y: Double) {
        guard translate.count == 2, translate[0] != 0 || translate[1] != 0 else { return (0, 0) }
        return frame.translationInTileUnits(tile, translate[0], translate[1], viewport: anchor == .viewport)
    }
}
