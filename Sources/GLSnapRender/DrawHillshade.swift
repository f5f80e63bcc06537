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
        let program = try renderer.programs.program(HillshadeProgram.self)
        let u = program.uniforms
        context.use(program.program)
        let lights = HillshadeLights(hillshade, ctx, bearing: frame.viewportBearing)
        u.light.set(Float(hillshade.exaggeration.evaluate(ctx)), Float(lights.azimuths[0]))
        for (uniform, property) in [(u.shadow, hillshade.shadowColor.value), (u.highlight, hillshade.highlightColor.value),
                                    (u.accent, hillshade.accentColor.value)] {
            let c = Painter.firstColor(property, ctx)
            uniform.set(Float(c.r), Float(c.g), Float(c.b), Float(c.a))
        }
        u.method.set(lights.method.rawValue)
        u.lightCount.set(Int32(lights.count))
        u.azimuths.set(lights.azimuths.map(Float.init))
        u.altitudes.set(lights.altitudes.map(Float.init))
        u.shadows.set(lights.shadows.flatMap { [Float($0.r), Float($0.g), Float($0.b), Float($0.a)] })
        u.highlights.set(lights.highlights.flatMap { [Float($0.r), Float($0.g), Float($0.b), Float($0.a)] })
        u.image.set(unit: 0)
        let mixed = Set(tiles.map(\.tile.id.z)).count > 1
        if mixed { releaseStencil() }
        let nearest = hillshade.resampling.evaluate(ctx) == .nearest
        for (t, target) in zip(tiles, slopes) {
            context.bind(target.texture, unit: 0, sampler: SamplerState(minify: .linear, magnify: nearest ? .nearest : .linear))
            let id = t.tile.id
            let n = pow(2, Double(id.z))
            u.latrange.set(Float(Mercator.lat(y: Double(id.y) / n)), Float(Mercator.lat(y: Double(id.y + 1) / n)))
            let stencil = mixed ? StencilMode(function: .greater, reference: 1, writeMask: 0xFF, pass: .replace) : nil
            u.matrix.set(alignedTileMatrix(for: t.tile))
            bindStream(renderer.tileQuad, location: ProgramSet.location("a_pos", in: .hillshade), components: 2, type: .int16)
            program.program.draw(indices: renderer.quadIndices, modes: DrawModes(stencil: stencil, color: .alphaBlended))
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
        let prepare = try renderer.programs.program(HillshadePrepareProgram.self)
        let u = prepare.uniforms
        context.use(prepare.program)
        context.bind(dem, unit: 0, sampler: .nearest)
        u.image.set(unit: 0)
        u.dimension.set(Float(box.image.width), Float(box.image.height))
        u.zoom.set(Float(zoom))
        u.slopeScale.set(Float(size) / 128)
        u.unpack.set(unpack[0], unpack[1], unpack[2], unpack[3])
        bindStream(renderer.tileQuad, location: ProgramSet.location("a_pos", in: .hillshadePrepare), components: 2, type: .int16)
        prepare.program.draw(indices: renderer.quadIndices, modes: DrawModes(color: .unblended))
        renderer.rasterTextures.store(target, for: box, frame: frameNumber)
        return target
    }
}
