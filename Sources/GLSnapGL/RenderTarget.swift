internal import CMesa

/// An offscreen framebuffer whose color goes to a texture that later draws sample: hillshade
/// slopes per DEM tile, heatmap densities. No depth or stencil.
public final class RenderTarget {
    public let texture: Texture
    private let fbo: GLuint
    private let context: GLContext

    /// Throws `GLError.framebuffer` when the driver cannot render to this format and size.
    public init(context: GLContext, width: Int, height: Int, format: PixelFormat = .rgba8, sampler: SamplerState = .linear) throws {
        guard width > 0, height > 0, width <= context.maxFramebufferSize, height <= context.maxFramebufferSize else {
            throw GLError.size(width: width, height: height, max: context.maxFramebufferSize)
        }
        self.context = context
        texture = Texture(context: context, width: width, height: height, format: format, pixels: nil, sampler: sampler)
        let gl = context.gl
        var f: GLuint = 0
        gl.GenFramebuffers(1, &f)
        fbo = f
        gl.BindFramebuffer(GLenum(GL_FRAMEBUFFER), fbo)
        gl.FramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture.id, 0)
        let status = gl.CheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            gl.DeleteFramebuffers(1, &f)
            throw GLError.framebuffer(status: status, width: width, height: height)
        }
    }

    deinit {
        var f = fbo
        context.gl.DeleteFramebuffers(1, &f)
    }

    /// Binds this target, sets the viewport to all of it and clears it to transparent.
    public func bindAndClear() {
        let gl = context.gl
        gl.BindFramebuffer(GLenum(GL_FRAMEBUFFER), fbo)
        gl.Viewport(0, 0, GLsizei(texture.width), GLsizei(texture.height))
        context.apply(DrawModes(color: .unblended))
        gl.ClearColor(0, 0, 0, 0)
        gl.Clear(GLbitfield(GL_COLOR_BUFFER_BIT))
    }
}
