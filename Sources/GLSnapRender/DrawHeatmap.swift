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
        if frame.terrain != nil { return try drawHeatmapOverTerrain(item, heatmap, opacity: opacity) }
        let w = max(1, frame.width / Painter.heatmapDownscale), h = max(1, frame.height / Painter.heatmapDownscale)
        let target = try renderer.heatmapTarget(width: w, height: h)
        target.bindAndClear()
        let kernels = try renderer.programs.program(HeatmapProgram.self)
        context.use(kernels.program)
        kernels.uniforms.intensity.set(Float(heatmap.intensity.evaluate(ctx)))
        let attributes = Painter.heatmapAttributes(heatmap)
        for tile in item.tiles {
            guard let box = tile.geometry, !box.geometry.isEmpty else { continue }
            let g = renderer.upload(box)
            guard let triangles = g.indices.first, triangles.count > 0 else { continue }
            kernels.uniforms.matrix.set(frame.transform.tileMatrix(for: tile.tile.id, wrap: tile.tile.wrap))
            kernels.uniforms.extrudeScale.set(Float(frame.transform.pixelsToTileUnits(tile.tile.id, 1)))
            let paint = bindPaint(attributes, layer: layer, geometry: g, box: box)
            bindAttributes(.heatmap, geometry: g, paint: paint)
            let elevations = bindElevation(.heatmap, tile: tile.tile, box: box, anchor: .pointCenter)
            // Densities add up.
            kernels.program.draw(indices: triangles.buffer, count: triangles.count, modes: DrawModes(color: .additive))
            withExtendedLifetime(elevations) {}
        }
        framebuffer.bind()

        let ramp = try renderer.colorRamp(for: layer, ramp: heatmap.color, input: .heatmapDensity, generation: frame.paintGeneration(layer.id))
        let texture = try renderer.programs.program(HeatmapTextureProgram.self)
        context.use(texture.program)
        context.bind(target.texture, unit: 0)
        context.bind(ramp, unit: 1)
        texture.uniforms.image.set(unit: 0)
        texture.uniforms.colorRamp.set(unit: 1)
        texture.uniforms.opacity.set(Float(opacity))
        bindStream(renderer.screenQuad, location: ProgramSet.location("a_pos", in: .heatmapTexture), components: 2, type: .float)
        texture.program.draw(indices: renderer.quadIndices, modes: DrawModes(color: .alphaBlended))
    }
}
