import Foundation
import GLSnapGL
import GLSnapLayout
import GLSnapStyle

extension Painter {
    /// raster: each tile's texture on its square (image sources: on their four corners). When the
    /// tiles mix zoom levels (a parent standing in for a missing child), the highest zoom draws
    /// first and marks the stencil, so every pixel gets one tile, as MapLibre's overlap stencil does.
    mutating func drawRaster(_ item: FrameLayer, _ raster: RasterLayer) throws {
        let ctx = EvaluationContext(zoom: zoom)
        let opacity = raster.opacity.evaluate(ctx)
        guard opacity > 0, !item.tiles.isEmpty else { return }
        let program = try renderer.programs.program(RasterProgram.self)
        let u = program.uniforms
        context.use(program.program)
        u.opacity.set(Float(opacity))
        u.brightnessLow.set(Float(raster.brightnessMin.evaluate(ctx)))
        u.brightnessHigh.set(Float(raster.brightnessMax.evaluate(ctx)))
        u.saturationFactor.set(Float(Painter.saturationFactor(raster.saturation.evaluate(ctx))))
        u.contrastFactor.set(Float(Painter.contrastFactor(raster.contrast.evaluate(ctx))))
        let spin = Painter.spinWeights(raster.hueRotate.evaluate(ctx))
        u.spinWeights.set(spin.0, spin.1, spin.2)
        u.bufferScale.set(1)
        u.image.set(unit: 0)
        // `resampling` (spec 26) wins over the older `raster-resampling` when set.
        let resampling = raster.resampling.isSet ? raster.resampling : raster.rasterResampling
        let nearest = resampling.evaluate(ctx) == .nearest

        // Past 20 degrees of pitch mipmapped tiles are filtered anisotropically, as GL JS does
        // (flatter maps keep plain mipmaps, which are sharper), in the shader (raster.fragment.glsl).
        let anisotropy = frame.transform.pitch > Painter.anisotropicPitch ? Painter.maxAnisotropy : 1
        let tiles = item.tiles.filter { $0.raster != nil }.sorted { $0.tile.id.z > $1.tile.id.z }
        let mixed = Set(tiles.map(\.tile.id.z)).count > 1
        if mixed { releaseStencil() }
        for t in tiles {
            guard let box = t.raster else { continue }
            let (texture, quad, mipmapped) = renderer.rasterTextures.texture(for: box, context: context, frame: renderer.currentFrame)
            // Textures are shared by layers with different resampling: each draw sets its own.
            context.bind(texture, unit: 0, sampler: SamplerState(minify: .linear, magnify: nearest ? .nearest : .linear,
                                                                 mipmap: mipmapped ? .nearest : nil))
            u.anisotropy.set(mipmapped ? anisotropy : 1)
            u.texsize.set(Float(box.image.width), Float(box.image.height))
            let stencil = mixed ? StencilMode(function: .greater, reference: 1, writeMask: 0xFF, pass: .replace) : nil
            u.matrix.set(alignedTileMatrix(for: t.tile))
            bindStream(quad ?? renderer.tileQuad, location: ProgramSet.location("a_pos", in: .raster), components: 2, type: .int16)
            bindStream(renderer.tileQuad, location: ProgramSet.location("a_texture_pos", in: .raster), components: 2, type: .int16)
            // Image quads split along the top-right/bottom-left diagonal (MapLibre's triangle strip).
            program.program.draw(indices: quad == nil ? renderer.quadIndices : renderer.imageQuadIndices,
                                modes: DrawModes(stencil: stencil, color: .alphaBlended))
        }
        if mixed { releaseStencil() }
    }

    /// The tile matrix shifted by under a pixel so texels land on the pixel grid (MapLibre's
    /// alignedProjMatrix): raster tiles at integer zoom stay crisp instead of blurring between texels.
    func alignedTileMatrix(for tile: CoveredTile) -> [Float] {
        let t = frame.transform
        var m = t.tileMatrix(for: tile.id, wrap: tile.wrap)
        let x = Mercator.x(lon: t.center.lon) * t.worldSize, y = Mercator.y(lat: t.center.lat) * t.worldSize
        let angle = -t.bearing * .pi / 180
        let xShift = Double(Int(t.width) % 2) / 2, yShift = Double(Int(t.height) % 2) / 2
        var dx = x - x.rounded() + cos(angle) * xShift + sin(angle) * yShift
        var dy = y - y.rounded() + cos(angle) * yShift + sin(angle) * xShift
        if dx > 0.5 { dx -= 1 }
        if dy > 0.5 { dy -= 1 }
        let p = t.projMatrix
        for i in 0..<4 { m[12 + i] += Float(p[i] * dx + p[4 + i] * dy) }
        return m
    }

    /// The pitch (degrees) past which raster tiles are filtered anisotropically (GL JS's draw_raster).
    static let anisotropicPitch = 20.0
    /// The most samples an anisotropic lookup takes (the usual GPU maximum, 16x).
    static let maxAnisotropy: Float = 16

    /// raster-hue-rotate as a rotation of RGB about the gray axis (MapLibre's spin weights).
    static func spinWeights(_ degrees: Double) -> (Float, Float, Float) {
        let a = degrees * .pi / 180
        let s = sin(a), c = cos(a), r3 = 3.0.squareRoot()
        return (Float((2 * c + 1) / 3), Float((-r3 * s - c + 1) / 3), Float((r3 * s - c + 1) / 3))
    }

    /// raster-contrast in -1...1 as a factor about mid-gray.
    static func contrastFactor(_ contrast: Double) -> Double {
        contrast > 0 ? 1 / (1 - contrast) : 1 + contrast
    }

    /// raster-saturation in -1...1 as the share of the way to gray (negative: away from it).
    static func saturationFactor(_ saturation: Double) -> Double {
        saturation > 0 ? 1 - 1 / (1.001 - saturation) : -saturation
    }
}
