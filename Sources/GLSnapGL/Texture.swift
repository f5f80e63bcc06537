import CMesa

/// A 2D RGBA8 texture (sprite atlas, glyph atlas, raster tile, pattern).
public final class Texture {
    public let id: GLuint
    public let width: Int
    public let height: Int
    private let context: GLContext

    /// `format` is GL_RGBA (4 bytes a pixel) or GL_RED (1 byte: glyph SDFs).
    public convenience init(context: GLContext, width: Int, height: Int, format: GLenum = GLenum(GL_RGBA), pixels: [UInt8]?, linear: Bool = true) {
        let internalFormat = format == GLenum(GL_RED) ? GL_R8 : GL_RGBA8
        self.init(context: context, width: width, height: height, internalFormat: internalFormat, format: format,
                  type: GLenum(GL_UNSIGNED_BYTE), pixels: pixels, linear: linear)
    }

    /// An empty texture to render into: `internalFormat` GL_RGBA8 (colors, hillshade slopes) or
    /// GL_RGBA16F (heatmap densities, which add up past 1), linear or nearest filtered.
    public convenience init(context: GLContext, width: Int, height: Int, internalFormat: GLint, linear: Bool) {
        let type = internalFormat == GL_RGBA16F ? GLenum(GL_HALF_FLOAT) : GLenum(GL_UNSIGNED_BYTE)
        self.init(context: context, width: width, height: height, internalFormat: internalFormat, format: GLenum(GL_RGBA),
                  type: type, pixels: nil, linear: linear)
    }

    /// Allocates the texture (filled from `pixels` when given), clamped at the edges.
    private init(context: GLContext, width: Int, height: Int, internalFormat: GLint, format: GLenum, type: GLenum,
                 pixels: [UInt8]?, linear: Bool) {
        self.context = context
        self.width = width
        self.height = height
        let gl = context.gl
        var t: GLuint = 0
        gl.GenTextures(1, &t)
        id = t
        gl.BindTexture(GLenum(GL_TEXTURE_2D), id)
        if let pixels {
            context.timingUpload {
                pixels.withUnsafeBytes {
                    gl.TexImage2D(GLenum(GL_TEXTURE_2D), 0, internalFormat, GLsizei(width), GLsizei(height), 0, format, type, $0.baseAddress)
                }
            }
        } else {
            gl.TexImage2D(GLenum(GL_TEXTURE_2D), 0, internalFormat, GLsizei(width), GLsizei(height), 0, format, type, nil)
        }
        let filter = linear ? GL_LINEAR : GL_NEAREST
        gl.TexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), filter)
        gl.TexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), filter)
        gl.TexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        gl.TexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        context.state.textures[context.state.activeTexture] = id
    }

    deinit {
        var t = id
        for i in context.state.textures.indices where context.state.textures[i] == id { context.state.textures[i] = 0 }
        context.gl.DeleteTextures(1, &t)
    }
}
