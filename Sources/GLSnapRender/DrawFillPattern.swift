import GLSnapGL
import GLSnapLayout
import GLSnapStyle

extension Painter {
    static func fillPatternAttributes(_ fill: FillLayer) -> [PaintAttribute] { [PaintAttribute(attribute: "a_opacity", property: fill.opacity)] }

    /// fill with fill-pattern: the image repeated in map space, then (fill-antialias) the
    /// outline: in the pattern's colors, or in fill-outline-color when that is set (MapLibre's rule).
    mutating func drawFillPattern(_ item: FrameLayer, _ fill: FillLayer) throws {
        let layer = item.layer
        let (translate, anchor) = self.translate(fill.translate, fill.translateAnchor)
        let pattern = try renderer.programs.program(FillPatternProgram.self)
        context.use(pattern.program)
        guard bindPatternAtlas(pattern.uniforms) else { return }
        let attributes = Painter.fillPatternAttributes(fill)
        for t in item.tiles {
            guard let box = t.geometry, !box.geometry.isEmpty else { continue }
            let g = renderer.upload(box)
            guard g.indices.count >= 1, g.indices[0].count > 0 else { continue }
            guard var paint = bindPattern(fill.pattern, layer: layer, geometry: g, box: box) else { return }
            paint.merge(bindPaint(attributes, layer: layer, geometry: g, box: box)) { a, _ in a }
            pattern.uniforms.matrix.set(matrix(for: t.tile, translate: translate, anchor: anchor))
            setPatternTileUniforms(pattern.uniforms, tile: t.tile)
            bindAttributes(.fillPattern, geometry: g, paint: paint)
            pattern.program.draw(indices: g.indices[0].buffer, count: g.indices[0].count,
                                 modes: DrawModes(clip: clip(for: t.tile), color: .alphaBlended))
        }
        guard fill.antialias.evaluate(EvaluationContext(zoom: zoom)) else { return }
        if fill.outlineColor.isSet { return try drawFillOutline(item, fill, translate: translate, anchor: anchor) }
        try drawFillOutlinePattern(item, fill, translate: translate, anchor: anchor)
    }

    /// The antialiasing outline of a patterned fill in the pattern's colors: 1-pixel lines as
    /// drawFillOutline draws them.
    private mutating func drawFillOutlinePattern(_ item: FrameLayer, _ fill: FillLayer, translate: [Double], anchor: TranslateAnchor) throws {
        let layer = item.layer
        let outline = try renderer.programs.program(FillOutlinePatternProgram.self)
        context.use(outline.program)
        guard bindPatternAtlas(outline.uniforms) else { return }
        outline.uniforms.world.set(Float(frame.width), Float(frame.height))
        let attributes = Painter.fillPatternAttributes(fill)
        for t in item.tiles {
            guard let box = t.geometry, !box.geometry.isEmpty else { continue }
            let g = renderer.upload(box)
            guard g.indices.count >= 2, g.indices[1].count > 0 else { continue }
            guard var paint = bindPattern(fill.pattern, layer: layer, geometry: g, box: box) else { return }
            paint.merge(bindPaint(attributes, layer: layer, geometry: g, box: box)) { a, _ in a }
            outline.uniforms.matrix.set(matrix(for: t.tile, translate: translate, anchor: anchor))
            setPatternTileUniforms(outline.uniforms, tile: t.tile)
            bindAttributes(.fillOutlinePattern, geometry: g, paint: paint)
            outline.program.draw(.lines, indices: g.indices[1].buffer, count: g.indices[1].count,
                                 modes: DrawModes(clip: clip(for: t.tile), color: .alphaBlended, lineWidth: Painter.fillOutlineWidth))
        }
    }

    /// background with background-pattern: the tiles covering the view at the integer zoom, each
    /// filled with the image.
    mutating func drawBackgroundPattern(_ background: BackgroundLayer) throws {
        let opacity = background.opacity.evaluate(EvaluationContext(zoom: zoom))
        guard opacity > 0, let pattern = constantPattern(background.pattern.value) else { return }
        let program = try renderer.programs.program(BackgroundPatternProgram.self)
        let u = program.uniforms
        context.use(program.program)
        guard bindPatternAtlas(u) else { return }
        let c = pattern.corners
        u.pattern.set(c[0], c[1], c[2], c[3])
        u.patternSize.set(Float(Double(pattern.width) / pattern.pixelRatio), Float(Double(pattern.height) / pattern.pixelRatio))
        u.opacity.set(Float(opacity))
        bindStream(renderer.tileQuad, location: 0, components: 2, type: .int16)
        for tile in frame.transform.coveringTiles(tileSize: Int(Transform.tileSize)) {
            u.matrix.set(frame.pieceMatrix(caches.tileMatrix(tile, frame.transform)))
            setPatternTileUniforms(u, tile: tile)
            program.program.draw(indices: renderer.quadIndices, modes: DrawModes(color: .alphaBlended))
        }
    }
}
