import CMesa
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
        let format = atlas.bytesPerPixel == 1 ? GLenum(GL_RED) : GLenum(GL_RGBA)
        context.gl.PixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        let texture = Texture(context: context, width: snap.width, height: snap.height, format: format, pixels: snap.pixels, linear: true)
        // Textures of freed atlases go.
        textures = textures.filter { $0.value.atlas != nil }
        textures[key] = Entry(atlas: atlas, version: snap.version, texture: texture)
        return texture
    }
}

extension Painter {
    /// symbol: icons, then text halos, then text fills, from vertices placed on the CPU for this view.
    mutating func drawSymbol(_ item: FrameLayer) throws {
        guard let data = item.symbols, !data.isEmpty else { return }
        context.apply(DrawModes(color: .alphaBlended))
        if !data.icons.isEmpty {
            let program = try renderer.programs.program(.symbolIcon)
            context.use(program)
            let texture = renderer.symbolTextures.texture(for: data.iconAtlas, context: context)
            context.bind(texture, unit: 0)
            let filter = data.iconsLinear || frame.transform.pitch != 0 ? GL_LINEAR : GL_NEAREST
            gl.TexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), filter)
            gl.TexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), filter)
            drawSymbolVertices(program, .symbolIcon, data.icons, texture: texture, halo: nil)
        }
        for (vertices, atlas) in [(data.sdfIcons, data.iconAtlas), (data.text, data.glyphAtlas)] where !vertices.isEmpty {
            let program = try renderer.programs.program(.symbolSdf)
            context.use(program)
            let texture = renderer.symbolTextures.texture(for: atlas, context: context)
            context.bind(texture, unit: 0)
            gl.TexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
            gl.TexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
            gl.Uniform1f(program.location("u_device_pixel_ratio"), Float(frame.pixelRatio))
            drawSymbolVertices(program, .symbolSdf, vertices, texture: texture, halo: true)
            drawSymbolVertices(program, .symbolSdf, vertices, texture: texture, halo: false)
        }
    }

    private func drawSymbolVertices(_ program: Program, _ shader: ShaderID, _ vertices: [Float], texture: Texture, halo: Bool?) {
        let stride = SymbolDrawData.floatsPerVertex
        let buffer = Buffer(context: context, target: GLenum(GL_ARRAY_BUFFER), data: vertices)
        gl.Uniform2f(program.location("u_viewport"), Float(frame.transform.width), Float(frame.transform.height))
        let piece = frame.pieceClipTransform
        gl.Uniform4f(program.location("u_piece"), Float(piece.scaleX), Float(piece.scaleY), Float(piece.centerX), Float(piece.centerY))
        gl.Uniform2f(program.location("u_texsize"), Float(texture.width), Float(texture.height))
        gl.Uniform1i(program.location("u_texture"), 0)
        if let halo { gl.Uniform1i(program.location("u_is_halo"), halo ? 1 : 0) }
        gl.BindBuffer(GLenum(GL_ARRAY_BUFFER), buffer.id)
        let layout: [(String, Int, Int)] = [("a_pos", 2, 0), ("a_tex", 2, 2), ("a_fill", 4, 4), ("a_halo", 4, 8), ("a_props", 4, 12)]
        for (name, components, offset) in layout {
            guard let i = shader.attributes.firstIndex(of: name) else { continue }
            let loc = UInt32(i)
            gl.EnableVertexAttribArray(loc)
            gl.VertexAttribPointer(loc, GLint(components), GLenum(GL_FLOAT), GLboolean(0), GLsizei(stride * 4),
                                   UnsafeRawPointer(bitPattern: offset * 4))
        }
        gl.DrawArrays(GLenum(GL_TRIANGLES), 0, GLsizei(vertices.count / stride))
    }
}
