import CMesa
import GLSnapGL
import GLSnapLayout
import GLSnapStyle

extension Painter {
    static func fillPatternAttributes(_ fill: FillLayer) -> [PaintAttribute] { [PaintAttribute(attribute: "a_opacity", property: fill.opacity)] }

    /// fill with fill-pattern: the image repeated in map space (MapLibre draws no outline color
    /// for patterned fills; the antialiasing outline is not drawn).
    mutating func drawFillPattern(_ item: FrameLayer, _ fill: FillLayer) throws {
        let layer = item.layer
        let (translate, anchor) = self.translate(fill.translate, fill.translateAnchor)
        let program = try renderer.programs.program(.fillPattern)
        context.use(program)
        guard bindPatternAtlas(program) else { return }
        for t in item.tiles {
            guard let box = t.geometry, !box.geometry.isEmpty else { continue }
            let g = renderer.upload(box)
            guard g.indices.count >= 1, g.indices[0].count > 0 else { continue }
            guard var paint = bindPattern(fill.pattern, layer: layer, geometry: g, box: box) else { return }
            paint.merge(bindPaint(Painter.fillPatternAttributes(fill), layer: layer, geometry: g, box: box)) { a, _ in a }
            context.apply(DrawModes(stencil: stencil(for: t.tile), color: .alphaBlended))
            setMatrix(program, matrix(for: t.tile, translate: translate, anchor: anchor))
            setPatternTileUniforms(program, tile: t.tile)
            bindAttributes(.fillPattern, geometry: g, paint: paint)
            gl.BindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), g.indices[0].buffer.id)
            gl.DrawElements(GLenum(GL_TRIANGLES), GLsizei(g.indices[0].count), GLenum(GL_UNSIGNED_INT), nil)
        }
    }

    /// background with background-pattern: the tiles covering the view at the integer zoom, each
    /// filled with the image.
    mutating func drawBackgroundPattern(_ background: BackgroundLayer) throws {
        let opacity = background.opacity.evaluate(EvaluationContext(zoom: zoom))
        guard opacity > 0, let pattern = constantPattern(background.pattern.value) else { return }
        let program = try renderer.programs.program(.backgroundPattern)
        context.use(program)
        guard bindPatternAtlas(program) else { return }
        context.apply(DrawModes(color: .alphaBlended))
        let c = pattern.corners
        gl.Uniform4f(program.location("u_pattern"), c[0], c[1], c[2], c[3])
        gl.Uniform2f(program.location("u_pattern_size"), Float(Double(pattern.width) / pattern.pixelRatio),
                     Float(Double(pattern.height) / pattern.pixelRatio))
        gl.Uniform1f(program.location("u_opacity"), Float(opacity))
        bindStream(renderer.tileQuad, location: 0, components: 2, type: GLenum(GL_SHORT))
        gl.BindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), renderer.quadIndices.id)
        for tile in frame.transform.coveringTiles(tileSize: Int(Transform.tileSize)) {
            setMatrix(program, frame.pieceMatrix(caches.tileMatrix(tile, frame.transform)))
            setPatternTileUniforms(program, tile: tile)
            gl.DrawElements(GLenum(GL_TRIANGLES), 6, GLenum(GL_UNSIGNED_INT), nil)
        }
    }
}
