internal import CMesa

/// What a layer is drawn into: the frame's `Framebuffer`, or a `LayerTarget` that is composited
/// onto it afterwards.
public protocol DrawTarget: AnyObject {
    /// Binds the target and sets the viewport to all of it.
    func bind()
    /// Clears only the stencil buffer (before new tile clipping masks).
    func clearStencil()
}

extension Framebuffer: DrawTarget {}

/// An offscreen target for drawing one layer whole before it is blended onto the frame at the
/// layer's opacity (`fill-layer-opacity`, `line-layer-opacity`): RGBA8 color in a texture the
/// composite samples, with depth24/stencil8 for the tile masks.
public final class LayerTarget: DrawTarget {
    public let texture: Texture
    private let fbo: GLuint
    private let depthStencil: GLuint
    private let context: GLContext

    public init(context: GLContext, width: Int, height: Int) throws {
        guard width > 0, height > 0, width <= context.maxFramebufferSize, height <= context.maxFramebufferSize else {
            throw GLError.size(width: width, height: height, max: context.maxFramebufferSize)
        }
        self.context = context
        texture = Texture(context: context, width: width, height: height, pixels: nil, sampler: .nearest)
        let gl = context.gl
        var rb: GLuint = 0
        gl.GenRenderbuffers(1, &rb)
        depthStencil = rb
        gl.BindRenderbuffer(GLenum(GL_RENDERBUFFER), rb)
        gl.RenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_DEPTH24_STENCIL8), GLsizei(width), GLsizei(height))
        var f: GLuint = 0
        gl.GenFramebuffers(1, &f)
        fbo = f
        gl.BindFramebuffer(GLenum(GL_FRAMEBUFFER), fbo)
        gl.FramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture.id, 0)
        gl.FramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_DEPTH_STENCIL_ATTACHMENT), GLenum(GL_RENDERBUFFER), rb)
        let status = gl.CheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            gl.DeleteFramebuffers(1, &f)
            gl.DeleteRenderbuffers(1, &rb)
            throw GLError.framebuffer(status: status, width: width, height: height)
        }
    }

    deinit {
        var f = fbo, rb = depthStencil
        context.gl.DeleteFramebuffers(1, &f)
        context.gl.DeleteRenderbuffers(1, &rb)
    }

    public func bind() {
        context.gl.BindFramebuffer(GLenum(GL_FRAMEBUFFER), fbo)
        context.gl.Viewport(0, 0, GLsizei(texture.width), GLsizei(texture.height))
    }

    /// Binds the target and clears it: color to transparent, depth to 1, stencil to 0.
    public func bindAndClear() {
        bind()
        let gl = context.gl
        context.apply(DrawModes(depth: DepthMode(function: .always, writes: true),
                                stencil: StencilMode(function: .always, reference: 0, writeMask: 0xFF),
                                color: .unblended))
        gl.ClearColor(0, 0, 0, 0)
        gl.ClearDepth(1)
        gl.ClearStencil(0)
        gl.Clear(GLbitfield(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT))
    }

    public func clearStencil() {
        context.apply(DrawModes(stencil: StencilMode(function: .always, reference: 0, writeMask: 0xFF), color: .disabled))
        context.gl.ClearStencil(0)
        context.gl.Clear(GLbitfield(GL_STENCIL_BUFFER_BIT))
    }
}
