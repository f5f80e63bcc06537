import Foundation
import GLSnapGL
import GLSnapLayout
import GLSnapStyle

extension Painter {
    /// color-relief: each DEM tile's elevations colored through the layer's ramp (see
    /// `ReliefRamp`). Where tiles of several zooms overlap the highest draws, as for raster.
    mutating func drawColorRelief(_ item: FrameLayer, _ relief: ColorReliefLayer) throws {
        let layer = item.layer
        let ctx = EvaluationContext(zoom: zoom)
        let opacity = relief.opacity.evaluate(ctx)
        let tiles = item.tiles.filter { $0.raster != nil }.sorted { $0.tile.id.z > $1.tile.id.z }
        guard opacity > 0, !tiles.isEmpty else { return }
        let program = try renderer.programs.program(ColorReliefProgram.self)
        let u = program.uniforms
        context.use(program.program)
        u.opacity.set(Float(opacity))
        u.image.set(unit: 0)
        u.elevationStops.set(unit: 1)
        u.colorStops.set(unit: 2)
        let nearest = relief.resampling.evaluate(ctx) == .nearest
        let mixed = Set(tiles.map(\.tile.id.z)).count > 1
        if mixed { releaseStencil() }
        for t in tiles {
            guard let box = t.raster, case .dem(let unpack) = box.kind, unpack.count == 4 else { continue }
            // Made before any is bound: making a texture binds it on the active unit.
            let ramp = renderer.reliefRamps.textures(for: layer, color: relief.color, generation: frame.styleGeneration, unpack: unpack, context: context)
            let dem = renderer.rasterTextures.texture(for: box, context: context, frame: renderer.currentFrame).texture
            context.bind(ramp.elevations, unit: 1)
            context.bind(ramp.colors, unit: 2)
            u.stopCount.set(Int32(ramp.count))
            u.unpack.set(unpack[0], unpack[1], unpack[2], unpack[3])
            context.bind(dem, unit: 0, sampler: SamplerState(minify: .linear, magnify: nearest ? .nearest : .linear))
            u.dimension.set(Float(box.image.width), Float(box.image.height))
            u.linear.set(!nearest)
            let stencil = mixed ? StencilMode(function: .greater, reference: 1, writeMask: 0xFF, pass: .replace) : nil
            u.matrix.set(alignedTileMatrix(for: t.tile))
            bindStream(renderer.tileQuad, location: ProgramSet.location("a_pos", in: .colorRelief), components: 2, type: .int16)
            program.program.draw(indices: renderer.quadIndices, modes: DrawModes(stencil: stencil, color: .alphaBlended))
        }
        if mixed { releaseStencil() }
    }
}
