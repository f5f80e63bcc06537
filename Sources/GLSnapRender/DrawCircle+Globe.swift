import GLSnapGL
import GLSnapLayout

extension Painter {
    /// Viewport-aligned circles on the globe, as GL JS draws them: each centered where the globe
    /// projects its point, facing the screen (scaled by its distance with circle-pitch-scale map,
    /// as on a pitched flat map), hidden behind the horizon. No single matrix bends tile points
    /// onto the sphere, so each circle is drawn with a matrix that puts its center there (the
    /// shader only extrudes around it).
    func drawCirclesOnGlobe(_ globe: GlobeView, tile: CoveredTile, box: GeometryBox, triangles: IndexBuffer,
                            program: CircleProgram) {
        guard let stream = box.geometry.streams.first(where: { $0.attribute == "a_pos" }), case .int16(let pos) = stream.data else { return }
        let u = program.uniforms
        u.extrudeScale.set(Float(pixelsToClipUnits.x), Float(pixelsToClipUnits.y))
        let circles = min(pos.count / 8, triangles.count / 6)
        var m = [Float](repeating: 0, count: 16)
        for k in 0..<circles {
            // a_pos = center * 2 + corner bit: the first corner holds the center doubled.
            let center = (Double(pos[k * 8] >> 1), Double(pos[k * 8 + 1] >> 1))
            guard let c = globe.clipPosition(of: center, in: tile) else { continue }
            m[12] = Float(c.x); m[13] = Float(c.y); m[14] = Float(c.z); m[15] = Float(c.w)
            u.matrix.set(frame.pieceMatrix(m))
            program.program.draw(indices: triangles, first: k * 6, count: 6, modes: DrawModes(color: .alphaBlended))
        }
    }
}
