internal import CMesa
import Foundation

/// One GL context, current on the thread that made it, with its function table and state cache.
///
/// A worker thread owns one `GLContext`; every GL object (`Program`, `Buffer`, `Texture`,
/// `Framebuffer`) is created from and freed on it.
public final class GLContext {
    /// The function table; only GLSnapGL calls GL.
    let gl: GLFunctions
    public let backend: Backend
    /// The driver, e.g. "OSMesa (llvmpipe)" or "EGL device (NVIDIA)".
    public let label: String
    /// The renderer string GL reports.
    public let renderer: String
    /// While set, every draw blended as `.alphaBlended` counts its fragments instead
    /// (`DrawModes.countingOverdraw`, the overdraw inspector).
    public var overdrawInspector = false
    /// The largest framebuffer side the driver supports.
    public let maxFramebufferSize: Int
    /// True when glReadPixels can return rows top first (GL_MESA_pack_invert), so readback needs
    /// no row flip.
    public let packInvert: Bool
    var state = StateCache()
    /// Nanoseconds spent filling buffers and textures (uploads) in this context so far.
    public internal(set) var uploadNanoseconds: UInt64 = 0

    /// Runs `body`, counting its time as upload time.
    func timingUpload<T>(_ body: () -> T) -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { uploadNanoseconds += DispatchTime.now().uptimeNanoseconds - start }
        return body()
    }
    private let headless: HeadlessContext

    /// Creates a context for `backend` and makes it current on the calling thread. `rasterizer`
    /// sets up Mesa's software rasterizer (default: as for one context on this machine's cores).
    public init(backend: Backend, rasterizer: SoftwareRasterizer = .automatic(workers: 1)) throws {
        let headless = try makeHeadlessContext(backend, rasterizer: rasterizer)
        try headless.makeCurrent()
        self.headless = headless
        self.backend = backend
        self.label = headless.label
        gl = try GLFunctions(load: { headless.procAddress($0) })
        renderer = gl.GetString(GLenum(GL_RENDERER)).map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) } ?? "unknown"
        var rb: GLint = 0, vp: [GLint] = [0, 0]
        gl.GetIntegerv(GLenum(GL_MAX_RENDERBUFFER_SIZE), &rb)
        gl.GetIntegerv(GLenum(GL_MAX_VIEWPORT_DIMS), &vp)
        maxFramebufferSize = Int(min(rb, vp[0], vp[1]))
        // Rows of any width upload and read back without padding.
        gl.PixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        gl.PixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        // Probe GL_MESA_pack_invert: a driver without it refuses the enum (GL_INVALID_ENUM).
        var invert: GLint = 0
        gl.PixelStorei(GLContext.packInvertEnum, 1)
        gl.GetIntegerv(GLContext.packInvertEnum, &invert)
        gl.PixelStorei(GLContext.packInvertEnum, 0)
        while gl.GetError() != GLenum(GL_NO_ERROR) {}
        packInvert = invert == 1
        // Points take their size from gl_PointSize, as in WebGL (custom layers draw points).
        gl.Enable(GLenum(GL_PROGRAM_POINT_SIZE))
    }

    /// GL_PACK_INVERT_MESA.
    static let packInvertEnum = GLenum(0x8758)

    /// Binds the context to the calling thread again (after another context was current).
    public func makeCurrent() throws {
        try headless.makeCurrent()
    }

    /// Unbinds the context from the calling thread, so another thread may make it current.
    public func releaseCurrent() {
        headless.releaseCurrent()
    }

    /// Sets depth, stencil, blend and cull state for the next draw, touching only what changed.
    public func apply(_ modes: DrawModes) {
        state.apply(overdrawInspector ? modes.countingOverdraw : modes, gl)
    }

    /// Forgets what GL state the cache holds, so each next draw sets all of its own (after code
    /// that may have changed state behind the cache: a custom layer's callback).
    public func forgetState() {
        state.invalidate()
        // The cache now says unit 0 is active: make it so.
        gl.ActiveTexture(GLenum(GL_TEXTURE0))
    }

    /// Makes `program` current (uniforms are set on the current program).
    public func use(_ program: Program) {
        if state.program != program.id {
            gl.UseProgram(program.id)
            state.program = program.id
        }
    }

    /// Binds `vertexArray` (core profile draws need one bound).
    public func bind(_ vertexArray: VertexArray) {
        if state.vertexArray != vertexArray.id {
            gl.BindVertexArray(vertexArray.id)
            state.vertexArray = vertexArray.id
        }
    }

    /// Binds `texture` on texture unit `unit` (0...7); with `sampler`, samples it so from now on
    /// (a texture shared by layers with different resampling gets each layer's). Only parameters
    /// that change are set.
    public func bind(_ texture: Texture, unit: Int, sampler: SamplerState? = nil) {
        precondition(unit >= 0 && unit < state.textures.count, "texture unit \(unit) out of range")
        if state.activeTexture != unit {
            gl.ActiveTexture(GLenum(GL_TEXTURE0 + Int32(unit)))
            state.activeTexture = unit
        }
        if state.textures[unit] != texture.id {
            gl.BindTexture(GLenum(GL_TEXTURE_2D), texture.id)
            state.textures[unit] = texture.id
        }
        if let sampler { texture.apply(sampler) }
    }

    /// Binds `texture` on the active unit (to change it).
    func bindOnActiveUnit(_ texture: Texture) {
        bind(texture, unit: state.activeTexture)
    }

    /// Waits until GL has finished every command given so far.
    public func finish() {
        gl.Finish()
    }

    /// While `on`, every primitive is dropped before rasterization (GL_RASTERIZER_DISCARD): the
    /// draw calls' cost without their fragments (`glsnap bench --replay`). Not in the state cache:
    /// the caller turns it off again before drawing for an image.
    public func setRasterizerDiscard(_ on: Bool) {
        if on { gl.Enable(GLenum(GL_RASTERIZER_DISCARD)) } else { gl.Disable(GLenum(GL_RASTERIZER_DISCARD)) }
    }

    /// Throws when GL recorded an error since the last check.
    public func checkError(_ operation: @autoclosure () -> String) throws {
        let e = gl.GetError()
        if e != GLenum(GL_NO_ERROR) {
            while gl.GetError() != GLenum(GL_NO_ERROR) {}
            throw GLError.gl(operation: operation(), code: e)
        }
    }

    /// Clears the color of the rectangle `x, y, width, height` (GL's coordinates: rows from the
    /// bottom) of the bound framebuffer, through a scissor test that is off again after (tests).
    func clearColor(x: Int, y: Int, width: Int, height: Int, r: Float, g: Float, b: Float, a: Float) {
        apply(DrawModes(scissor: ScissorBox(x: x, y: y, width: width, height: height), color: .unblended))
        gl.ClearColor(r, g, b, a)
        gl.Clear(GLbitfield(GL_COLOR_BUFFER_BIT))
        apply(DrawModes(color: .unblended))
    }

    /// The line width GL holds (tests).
    var currentLineWidth: Float {
        var w: GLfloat = 0
        gl.GetFloatv(GLenum(GL_LINE_WIDTH), &w)
        return w
    }
}
