import GLSnapGL
import GLSnapStyle

extension Painter {
    /// Pixels a side of the density texture of one tile's heatmap over terrain (GL JS's tile size).
    static let terrainHeatmapSize = 512

    /// heatmap over terrain, as GL JS draws it there: each tile's kernels, raised to the ground
    /// under their points, are added into a texture of their own (the whole view at
    /// `terrainHeatmapSize`²), which is then mapped through heatmap-color onto the view; tiles do
    /// not add up with each other.
    mutating func drawHeatmapOverTerrain(_ item: FrameLayer, _ heatmap: HeatmapLayer, opacity: Double) throws {
        let layer = item.layer
        let ctx = EvaluationContext(zoom: zoom)
        let size = Painter.terrainHeatmapSize
        let target = try renderer.heatmapTarget(width: size, height: size)
        let kernels = try renderer.programs.program(HeatmapProgram.self)
        let ramp = try renderer.colorRamp(for: layer, ramp: heatmap.color, input: .heatmapDensity, generation: frame.paintGeneration(layer.id))
        let texture = try renderer.programs.program(HeatmapTextureProgram.self)
        let attributes = Painter.heatmapAttributes(heatmap)
        for tile in item.tiles {
            guard let box = tile.geometry, !box.geometry.isEmpty else { continue }
            let g = renderer.upload(box)
            guard let triangles = g.indices.first, triangles.count > 0 else { continue }
            target.bindAndClear()
            context.use(kernels.program)
            kernels.uniforms.intensity.set(Float(heatmap.intensity.evaluate(ctx)))
            kernels.uniforms.matrix.set(frame.transform.tileMatrix(for: tile.tile.id, wrap: tile.tile.wrap))
            kernels.uniforms.extrudeScale.set(Float(frame.transform.pixelsToTileUnits(tile.tile.id, 1)))
            let paint = bindPaint(attributes, layer: layer, geometry: g, box: box)
            bindAttributes(.heatmap, geometry: g, paint: paint)
            let elevations = bindElevation(.heatmap, tile: tile.tile, box: box, anchor: .pointCenter)
            kernels.program.draw(indices: triangles.buffer, count: triangles.count, modes: DrawModes(color: .additive))
            withExtendedLifetime(elevations) {}

            framebuffer.bind()
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
}
