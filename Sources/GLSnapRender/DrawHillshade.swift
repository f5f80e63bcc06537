import CMesa
import Foundation
import GLSnapGL
import GLSnapLayout
import GLSnapStyle

extension Painter {
    /// hillshade, in MapLibre's two passes: each DEM tile's slopes are rendered once into a texture
    /// of the tile's size (cached with the tile), then every tile is shaded from its slopes with
    /// the layer's light and colors.
    mutating func drawHillshade(_ item: FrameLayer, _ hillshade: HillshadeLayer) throws {
        let tiles = item.tiles.filter { $0.raster != nil }.sorted { $0.tile.id.z > $1.tile.id.z }
        guard !tiles.isEmpty else { return }
        var slopes: [RenderTarget] = []
        for t in tiles {
            guard let box = t.raster else { continue }
            slopes.append(try prepareHillshade(box, zoom: t.tile.overscaledZoom))
        }
        framebuffer.bind()

        let ctx = EvaluationContext(zoom: zoom)
        let program = try renderer.programs.program(.hillshade)
        context.use(program)
        let lights = HillshadeLights(hillshade, ctx, bearing: frame.transform.bearing)
        gl.Uniform2f(program.location("u_light"), Float(hillshade.exaggeration.evaluate(ctx)),
                     Float(lights.azimuths[0]))
        for (name, property) in [("u_shadow", hillshade.shadowColor.value), ("u_highlight", hillshade.highlightColor.value),
                                 ("u_accent", hillshade.accentColor.value)] {
            let c = Painter.firstColor(property, ctx)
            gl.Uniform4f(program.location(name), Float(c.r), Float(c.g), Float(c.b), Float(c.a))
        }
        gl.Uniform1i(program.location("u_method"), lights.method.rawValue)
        gl.Uniform1i(program.location("u_light_count"), Int32(lights.count))
        gl.Uniform1fv(program.location("u_azimuths"), Int32(lights.count), lights.azimuths.map(Float.init))
        gl.Uniform1fv(program.location("u_altitudes"), Int32(lights.count), lights.altitudes.map(Float.init))
        gl.Uniform4fv(program.location("u_shadows"), Int32(lights.count), lights.shadows.flatMap { [Float($0.r), Float($0.g), Float($0.b), Float($0.a)] })
        gl.Uniform4fv(program.location("u_highlights"), Int32(lights.count), lights.highlights.flatMap { [Float($0.r), Float($0.g), Float($0.b), Float($0.a)] })
        gl.Uniform1i(program.location("u_image"), 0)
        let mixed = Set(tiles.map(\.tile.id.z)).count > 1
        if mixed { releaseStencil() }
        let nearest = hillshade.resampling.evaluate(ctx) == .nearest
        for (t, target) in zip(tiles, slopes) {
            context.bind(target.texture, unit: 0)
            setFilter(magnify: nearest ? GL_NEAREST : GL_LINEAR, minify: GL_LINEAR)
            let id = t.tile.id
            let n = pow(2, Double(id.z))
            gl.Uniform2f(program.location("u_latrange"), Float(Mercator.lat(y: Double(id.y) / n)), Float(Mercator.lat(y: Double(id.y + 1) / n)))
            let stencil = mixed ? StencilMode(function: GLenum(GL_GREATER), reference: 1, writeMask: 0xFF, pass: GLenum(GL_REPLACE)) : nil
            context.apply(DrawModes(stencil: stencil, color: .alphaBlended))
            setMatrix(program, alignedTileMatrix(for: t.tile))
            bindStream(renderer.tileQuad, location: ProgramSet.location("a_pos", in: .hillshade), components: 2, type: GLenum(GL_SHORT))
            gl.BindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), renderer.quadIndices.id)
            gl.DrawElements(GLenum(GL_TRIANGLES), 6, GLenum(GL_UNSIGNED_INT), nil)
        }
        if mixed { releaseStencil() }
    }

    /// The colors of a color or color-array property (one for a single color).
    static func colors(_ value: PropertyValue, _ ctx: EvaluationContext) -> [Color] {
        func color(_ v: Value) -> Color? {
            switch v {
            case .color(let c): return c
            case .string(let s): return Color.parse(s)
            default: return nil
            }
        }
        if case .array(let items) = value.evaluate(ctx) { return items.compactMap(color) }
        return color(value.evaluate(ctx)).map { [$0] } ?? []
    }

    /// A color property's value, or the first of a color array.
    static func firstColor(_ value: PropertyValue, _ ctx: EvaluationContext) -> Color {
        func color(_ v: Value?) -> Color {
            switch v {
            case .color(let c)?: return c
            case .string(let s)?: return Color.parse(s) ?? .transparent
            default: return .transparent
            }
        }
        if case .array(let items) = value.evaluate(ctx) { return color(items.first) }
        return color(value.evaluate(ctx))
    }

    /// The slope texture of a DEM tile: made on first use, then cached with the tile's texture.
    /// Leaves the slope target bound; the caller binds the frame's framebuffer again.
    private func prepareHillshade(_ box: RasterBox, zoom: Int) throws -> RenderTarget {
        let frameNumber = renderer.currentFrame
        if let t = renderer.rasterTextures.prepared(for: box, frame: frameNumber) { return t }
        guard case .dem(let unpack) = box.kind, unpack.count == 4 else {
            preconditionFailure("hillshade tiles are DEM tiles")
        }
        let dem = renderer.rasterTextures.texture(for: box, context: context, frame: frameNumber).texture
        let size = box.image.width - 2
        let target = try RenderTarget(context: context, width: size, height: size)
        target.bindAndClear()
        let program = try renderer.programs.program(.hillshadePrepare)
        context.use(program)
        context.bind(dem, unit: 0)
        setFilter(magnify: GL_NEAREST, minify: GL_NEAREST)
        gl.Uniform1i(program.location("u_image"), 0)
        gl.Uniform2f(program.location("u_dimension"), Float(box.image.width), Float(box.image.height))
        gl.Uniform1f(program.location("u_zoom"), Float(zoom))
        gl.Uniform1f(program.location("u_slope_scale"), Float(size) / 128)
        gl.Uniform4f(program.location("u_unpack"), unpack[0], unpack[1], unpack[2], unpack[3])
        context.apply(DrawModes(color: .unblended))
        bindStream(renderer.tileQuad, location: ProgramSet.location("a_pos", in: .hillshadePrepare), components: 2, type: GLenum(GL_SHORT))
        gl.BindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), renderer.quadIndices.id)
        gl.DrawElements(GLenum(GL_TRIANGLES), 6, GLenum(GL_UNSIGNED_INT), nil)
        renderer.rasterTextures.store(target, for: box, frame: frameNumber)
        return target
    }
}
