import CMesa
import GLSnapGL
import GLSnapStyle

extension Painter {
    static func heatmapAttributes(_ heatmap: HeatmapLayer) -> [PaintAttribute] { [
        PaintAttribute(attribute: "a_weight", property: heatmap.weight),
        PaintAttribute(attribute: "a_radius", property: heatmap.radius),
    ] }

    /// The heatmap density texture is this many times smaller than the image on each side (MapLibre's).
    static let heatmapDownscale = 4

    /// heatmap: Gaussian kernels added into a half-float texture a quarter of the image's size,
    /// then that density mapped through heatmap-color onto the whole view.
    mutating func drawHeatmap(_ item: FrameLayer, _ heatmap: HeatmapLayer) throws {
        let layer = item.layer
        let ctx = EvaluationContext(zoom: zoom)
        let opacity = heatmap.opacity.evaluate(ctx)
        guard opacity > 0 else { return }
        let w = max(1, frame.width / Painter.heatmapDownscale), h = max(1, frame.height / Painter.heatmapDownscale)
        let target = try renderer.heatmapTarget(width: w, height: h)
        target.bindAndClear()
        let program = try renderer.programs.program(.heatmap)
        context.use(program)
        gl.Uniform1f(program.location("u_intensity"), Float(heatmap.intensity.evaluate(ctx)))
        context.apply(DrawModes(color: ColorMode(blend: .init(source: GLenum(GL_ONE), destination: GLenum(GL_ONE)), mask: .all)))
        for tile in item.tiles {
            guard let box = tile.geometry, !box.geometry.isEmpty else { continue }
            let g = renderer.upload(box)
            guard let triangles = g.indices.first, triangles.count > 0 else { continue }
            setMatrix(program, frame.transform.tileMatrix(for: tile.tile.id, wrap: tile.tile.wrap))
            gl.Uniform1f(program.location("u_extrude_scale"), Float(frame.transform.pixelsToTileUnits(tile.tile.id, 1)))
            let paint = bindPaint(Painter.heatmapAttributes(heatmap), layer: layer, geometry: g, box: box)
            bindAttributes(.heatmap, geometry: g, paint: paint)
            gl.BindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), triangles.buffer.id)
            gl.DrawElements(GLenum(GL_TRIANGLES), GLsizei(triangles.count), GLenum(GL_UNSIGNED_INT), nil)
        }
        framebuffer.bind()

        let ramp = try renderer.colorRamp(for: layer, ramp: heatmap.color, input: .heatmapDensity, generation: frame.paintGeneration(layer.id))
        let texture = try renderer.programs.program(.heatmapTexture)
        context.use(texture)
        context.bind(target.texture, unit: 0)
        context.bind(ramp, unit: 1)
        gl.Uniform1i(texture.location("u_image"), 0)
        gl.Uniform1i(texture.location("u_color_ramp"), 1)
        gl.Uniform1f(texture.location("u_opacity"), Float(opacity))
        context.apply(DrawModes(color: .alphaBlended))
        bindStream(renderer.screenQuad, location: ProgramSet.location("a_pos", in: .heatmapTexture), components: 2, type: GLenum(GL_FLOAT))
        gl.BindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), renderer.quadIndices.id)
        gl.DrawElements(GLenum(GL_TRIANGLES), 6, GLenum(GL_UNSIGNED_INT), nil)
    }
}
