import GLSnapGL
import GLSnapLayout
import GLSnapStyle

/// GPU copies of the symbol atlases, uploaded again when an atlas's version changes.
final class SymbolTextures {
    /// The atlas is held weakly and compared: a freed atlas's identifier may be reused by a new
    /// one of the same version, whose texture this must not be.
    private struct Entry {
        weak var atlas: SymbolAtlas?
        var version: Int
        var texture: Texture
    }
    private var textures: [ObjectIdentifier: Entry] = [:]

    func texture(for atlas: SymbolAtlas, context: GLContext) -> Texture {
        let key = ObjectIdentifier(atlas)
        if let t = textures[key], t.atlas === atlas, t.version == atlas.version { return t.texture }
        let snap = atlas.snapshot()
        let format: PixelFormat = atlas.bytesPerPixel == 1 ? .r8 : .rgba8
        let texture = Texture(context: context, width: snap.width, height: snap.height, format: format, pixels: snap.pixels, sampler: .linear)
        // Textures of freed atlases go.
        textures = textures.filter { $0.value.atlas != nil }
        textures[key] = Entry(atlas: atlas, version: snap.version, texture: texture)
        return texture
    }
}

/// The uniforms both symbol programs have.
protocol SymbolUniforms {
    var viewport: UniformVec2 { get }
    var piece: UniformVec4 { get }
    var texsize: UniformVec2 { get }
    var texture: UniformSampler { get }
}

extension SymbolIconProgram.Uniforms: SymbolUniforms {}
extension SymbolSdfProgram.Uniforms: SymbolUniforms {}

extension Painter {
    /// symbol: icons, then text (halos, then fills, run by run), from vertices placed on the CPU for this view.
    mutating func drawSymbol(_ item: FrameLayer) throws {
        guard let data = item.symbols, !data.isEmpty else { return }
        if !data.icons.isEmpty {
            let icon = try renderer.programs.program(SymbolIconProgram.self)
            context.use(icon.program)
            let texture = renderer.symbolTextures.texture(for: data.iconAtlas, context: context)
            context.bind(texture, unit: 0, sampler: SamplerState(filter: data.iconsLinear || frame.transform.pitch != 0 ? .linear : .nearest))
            drawSymbolVertices(icon.program, icon.uniforms, .symbolIcon, data.icons, texture: texture)
        }
        for (vertices, runs, atlas, isText, gamma) in [(data.sdfIcons, data.sdfIconRuns, data.iconAtlas, false, data.sdfIconGamma),
                                                       (data.text, data.textRuns, data.glyphAtlas, true, data.textGamma)] where !vertices.isEmpty {
            let sdf = try renderer.programs.program(SymbolSdfProgram.self)
            context.use(sdf.program)
            let texture = renderer.symbolTextures.texture(for: atlas, context: context)
            context.bind(texture, unit: 0, sampler: .linear)
            sdf.uniforms.devicePixelRatio.set(Float(frame.pixelRatio))
            sdf.uniforms.isText.set(isText)
            sdf.uniforms.pitchWithMap.set(gamma != nil)
            if let g = gamma { sdf.uniforms.pitchGamma.set(Float(g.a), Float(g.b), Float(g.c)) }
            let buffer = VertexBuffer(context: context, data: vertices)
            // Run by run (tile by tile, sort-key segment by segment): halos, then fills.
            var start = 0
            for end in runs + [vertices.count] {
                sdf.uniforms.isHalo.set(true)
                drawSymbolVertices(sdf.program, sdf.uniforms, .symbolSdf, buffer, start..<end, texture: texture)
                sdf.uniforms.isHalo.set(false)
                drawSymbolVertices(sdf.program, sdf.uniforms, .symbolSdf, buffer, start..<end, texture: texture)
                start = end
            }
        }
        if !data.textImages.isEmpty {
            // Images in text, with the text: sampled nearest unless pitched or scaled (as MapLibre's text-and-icon program).
            let icon = try renderer.programs.program(SymbolIconProgram.self)
            context.use(icon.program)
            let texture = renderer.symbolTextures.texture(for: data.iconAtlas, context: context)
            context.bind(texture, unit: 0, sampler: SamplerState(filter: data.textImagesLinear || frame.transform.pitch != 0 ? .linear : .nearest))
            drawSymbolVertices(icon.program, icon.uniforms, .symbolIcon, data.textImages, texture: texture)
        }
    }

    private func drawSymbolVertices(_ program: Program, _ u: some SymbolUniforms, _ shader: ShaderID, _ vertices: [Float], texture: Texture) {
        drawSymbolVertices(program, u, shader, VertexBuffer(context: context, data: vertices), 0..<vertices.count, texture: texture)
    }

    /// Draws the vertices of `buffer` whose floats are `floats`.
    private func drawSymbolVertices(_ program: Program, _ u: some SymbolUniforms, _ shader: ShaderID, _ buffer: VertexBuffer,
                                    _ floats: Range<Int>, texture: Texture) {
        let stride = SymbolDrawData.floatsPerVertex
        u.viewport.set(Float(frame.transform.width), Float(frame.transform.height))
        let piece = frame.pieceClipTransform
        u.piece.set(Float(piece.scaleX), Float(piece.scaleY), Float(piece.centerX), Float(piece.centerY))
        u.texsize.set(Float(texture.width), Float(texture.height))
        u.texture.set(unit: 0)
        let layout: [(String, Int, Int)] = [("a_pos", 2, 0), ("a_tex", 2, 2), ("a_fill", 4, 4), ("a_halo", 4, 8), ("a_props", 4, 12)]
        for (name, components, offset) in layout {
            guard let i = shader.attributes.firstIndex(of: name) else { continue }
            context.setAttribute(VertexAttribute(location: UInt32(i), components: components, type: .float,
                                                 stride: stride * 4, offset: (floats.lowerBound + offset) * 4), buffer)
        }
        program.draw(vertexCount: floats.count / stride, modes: DrawModes(color: .alphaBlended))
    }
}
