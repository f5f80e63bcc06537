import CMesa
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
        let program = try renderer.programs.program(.colorRelief)
        context.use(program)
        gl.Uniform1f(program.location("u_opacity"), Float(opacity))
        gl.Uniform1i(program.location("u_image"), 0)
        gl.Uniform1i(program.location("u_elevation_stops"), 1)
        gl.Uniform1i(program.location("u_color_stops"), 2)
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
            gl.Uniform1i(program.location("u_stop_count"), Int32(ramp.count))
            gl.Uniform4f(program.location("u_unpack"), unpack[0], unpack[1], unpack[2], unpack[3])
            context.bind(dem, unit: 0)
            setFilter(magnify: nearest ? GL_NEAREST : GL_LINEAR, minify: GL_LINEAR)
            gl.Uniform2f(program.location("u_dimension"), Float(box.image.width), Float(box.image.height))
            let stencil = mixed ? StencilMode(function: GLenum(GL_GREATER), reference: 1, writeMask: 0xFF, pass: GLenum(GL_REPLACE)) : nil
            context.apply(DrawModes(stencil: stencil, color: .alphaBlended))
            setMatrix(program, alignedTileMatrix(for: t.tile))
            bindStream(renderer.tileQuad, location: ProgramSet.location("a_pos", in: .colorRelief), components: 2, type: GLenum(GL_SHORT))
            gl.BindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), renderer.quadIndices.id)
            gl.DrawElements(GLenum(GL_TRIANGLES), 6, GLenum(GL_UNSIGNED_INT), nil)
        }
        if mixed { releaseStencil() }
    }
}
