internal import CMesa

/// The offscreen render target: RGBA8 color plus depth24/stencil8, drawn to and read back.
public final class Framebuffer {
    public let width: Int
    public let height: Int
    private let fbo: GLuint
    private let color: GLuint
    private let depthStencil: GLuint
    private let context: GLContext

    public init(context: GLContext, width: Int, height: Int) throws {
        guard width > 0, height > 0, width <= context.maxFramebufferSize, height <= context.maxFramebufferSize else {
            throw GLError.size(width: width, height: height, max: context.maxFramebufferSize)
        }
        self.context = context
        self.width = width
        self.height = height
        let gl = context.gl
        var ids: [GLuint] = [0, 0]
        gl.GenRenderbuffers(2, &ids)
        color = ids[0]
        depthStencil = ids[1]
        gl.BindRenderbuffer(GLenum(GL_RENDERBUFFER), color)
        gl.RenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_RGBA8), GLsizei(width), GLsizei(height))
        gl.BindRenderbuffer(GLenum(GL_RENDERBUFFER), depthStencil)
        gl.RenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_DEPTH24_STENCIL8), GLsizei(width), GLsizei(height))
        var f: GLuint = 0
        gl.GenFramebuffers(1, &f)
        fbo = f
        gl.BindFramebuffer(GLenum(GL_FRAMEBUFFER), fbo)
        gl.FramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), color)
        gl.FramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_DEPTH_STENCIL_ATTACHMENT), GLenum(GL_RENDERBUFFER), depthStencil)
        let status = gl.CheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            gl.DeleteFramebuffers(1, &f)
            gl.DeleteRenderbuffers(2, &ids)
            throw GLError.framebuffer(status: status, width: width, height: height)
        }
    }

    deinit {
        var f = fbo
        var ids = [color, depthStencil]
        context.gl.DeleteFramebuffers(1, &f)
        context.gl.DeleteRenderbuffers(2, &ids)
    }

    /// Binds this framebuffer and sets the viewport to all of it.
    public func bind() {
        context.gl.BindFramebuffer(GLenum(GL_FRAMEBUFFER), fbo)
        context.gl.Viewport(0, 0, GLsizei(width), GLsizei(height))
    }

    /// Clears color (premultiplied RGBA), depth to 1 and stencil to 0.
    public func clear(r: Float, g: Float, b: Float, a: Float) {
        let gl = context.gl
        // Clears obey the color and depth write masks and the stencil write mask.
        context.apply(DrawModes(depth: DepthMode(function: .always, writes: true),
                                stencil: StencilMode(function: .always, reference: 0, writeMask: 0xFF),
                                color: .unblended))
        gl.ClearColor(r, g, b, a)
        gl.ClearDepth(1)
        gl.ClearStencil(0)
        gl.Clear(GLbitfield(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT))
    }

    /// Clears only the stencil buffer (before new tile clipping masks).
    public func clearStencil() {
        context.apply(DrawModes(stencil: StencilMode(function: .always, reference: 0, writeMask: 0xFF), color: .disabled))
        context.gl.ClearStencil(0)
        context.gl.Clear(GLbitfield(GL_STENCIL_BUFFER_BIT))
    }

    /// Reads the rows `y0..<y0+rows` (counted from the top) into `out` as straight-alpha RGBA,
    /// top row first. GL stores rows bottom-up and premultiplied; both are undone here.
    public func read(intoStraightRGBA out: UnsafeMutableRawBufferPointer, fromRow y0: Int = 0, rows: Int? = nil) throws {
        let n = rows ?? height - y0
        precondition(y0 >= 0 && n >= 0 && y0 + n <= height, "row range outside the framebuffer")
        precondition(out.count >= width * n * 4, "readback buffer too small")
        let gl = context.gl
        gl.BindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), fbo)
        gl.Finish()
        let glY = height - y0 - n
        let base = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
        if context.packInvert {
            // The driver writes the rows top first: no flip pass over the image.
            gl.PixelStorei(GLContext.packInvertEnum, 1)
            gl.ReadPixels(0, GLint(glY), GLsizei(width), GLsizei(n), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), out.baseAddress)
            gl.PixelStorei(GLContext.packInvertEnum, 0)
            try context.checkError("glReadPixels")
        } else {
            gl.ReadPixels(0, GLint(glY), GLsizei(width), GLsizei(n), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), out.baseAddress)
            try context.checkError("glReadPixels")
            flipRows(base, rowBytes: width * 4, rows: n)
        }
        unpremultiply(base, count: width * n)
    }
}

/// Reverses the order of `rows` rows in place.
func flipRows(_ base: UnsafeMutablePointer<UInt8>, rowBytes: Int, rows n: Int) {
    var top = 0, bottom = n - 1
    let tmp = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes)
    defer { tmp.deallocate() }
    while top < bottom {
        let a = base + top * rowBytes, b = base + bottom * rowBytes
        tmp.update(from: a, count: rowBytes)
        a.update(from: b, count: rowBytes)
        b.update(from: tmp, count: rowBytes)
        top += 1; bottom -= 1
    }
}

/// Premultiplied to straight alpha, rounding to nearest. Pairs of opaque pixels, most of a map,
/// are skipped eight bytes at a time.
@inline(__always)
func unpremultiply(_ p: UnsafeMutablePointer<UInt8>, count: Int) {
    let raw = UnsafeMutableRawPointer(p)
    let opaquePair: UInt64 = 0xFF00_0000_FF00_0000
    var i = 0
    while i < count {
        if i + 1 < count, raw.loadUnaligned(fromByteOffset: i * 4, as: UInt64.self) & opaquePair == opaquePair {
            i += 2
            continue
        }
        let o = i * 4
        let a = Int(p[o + 3])
        if a != 255 && a != 0 {
            p[o] = UInt8(min(255, (Int(p[o]) * 255 + a / 2) / a))
            p[o + 1] = UInt8(min(255, (Int(p[o + 1]) * 255 + a / 2) / a))
            p[o + 2] = UInt8(min(255, (Int(p[o + 2]) * 255 + a / 2) / a))
        }
        i += 1
    }
}
