import CMesa

/// Depth test and writes; `nil` in `DrawModes.depth` means the depth test is off.
public struct DepthMode: Equatable, Sendable {
    public var function: GLenum
    public var writes: Bool
    public var range: ClosedRange<Float>
    public init(function: GLenum = GLenum(GL_LEQUAL), writes: Bool, range: ClosedRange<Float> = 0...1) {
        self.function = function; self.writes = writes; self.range = range
    }
}

/// Stencil test; `nil` in `DrawModes.stencil` means the stencil test is off.
public struct StencilMode: Equatable, Sendable {
    public var function: GLenum
    public var reference: Int32
    public var readMask: UInt32
    public var writeMask: UInt32
    public var fail: GLenum
    public var depthFail: GLenum
    public var pass: GLenum

    public init(function: GLenum, reference: Int32, readMask: UInt32 = 0xFF, writeMask: UInt32 = 0,
                fail: GLenum = GLenum(GL_KEEP), depthFail: GLenum = GLenum(GL_KEEP), pass: GLenum = GLenum(GL_KEEP)) {
        self.function = function; self.reference = reference; self.readMask = readMask; self.writeMask = writeMask
        self.fail = fail; self.depthFail = depthFail; self.pass = pass
    }

    /// Draw only where the stencil buffer holds `id` (the tile clipping mask).
    public static func equal(_ id: Int32) -> StencilMode {
        StencilMode(function: GLenum(GL_EQUAL), reference: id)
    }
}

/// Blending and the color write mask.
public struct ColorMode: Equatable, Sendable {
    /// Source and destination factors; nil disables blending.
    public var blend: Blend?
    public var mask: Mask

    public struct Blend: Equatable, Sendable {
        public var source: GLenum
        public var destination: GLenum
        public init(source: GLenum, destination: GLenum) { self.source = source; self.destination = destination }
    }

    public struct Mask: Equatable, Sendable {
        public var r, g, b, a: Bool
        public static let all = Mask(r: true, g: true, b: true, a: true)
        public static let none = Mask(r: false, g: false, b: false, a: false)
    }

    /// Premultiplied-alpha "over", how every layer is composited.
    public static let alphaBlended = ColorMode(blend: Blend(source: GLenum(GL_ONE), destination: GLenum(GL_ONE_MINUS_SRC_ALPHA)), mask: .all)
    public static let unblended = ColorMode(blend: nil, mask: .all)
    public static let disabled = ColorMode(blend: nil, mask: .none)

    public init(blend: Blend?, mask: Mask) { self.blend = blend; self.mask = mask }
}

/// Face culling; nil in `DrawModes.cull` disables it.
public struct CullMode: Equatable, Sendable {
    public var face: GLenum
    public var frontFace: GLenum
    public init(face: GLenum = GLenum(GL_BACK), frontFace: GLenum = GLenum(GL_CCW)) { self.face = face; self.frontFace = frontFace }
}

/// All fixed-function state one draw call needs; draw code passes this and never toggles GL state.
public struct DrawModes: Equatable, Sendable {
    public var depth: DepthMode?
    public var stencil: StencilMode?
    public var color: ColorMode
    public var cull: CullMode?

    public init(depth: DepthMode? = nil, stencil: StencilMode? = nil, color: ColorMode = .alphaBlended, cull: CullMode? = nil) {
        self.depth = depth; self.stencil = stencil; self.color = color; self.cull = cull
    }
}

/// Remembers what GL state is set so each draw changes only what differs.
struct StateCache {
    private var depth: DepthMode?? = .none
    private var stencil: StencilMode?? = .none
    private var color: ColorMode? = nil
    private var cull: CullMode?? = .none
    var program: GLuint = 0
    var vertexArray: GLuint = 0
    var textures = [GLuint](repeating: 0, count: 8)
    var activeTexture = 0

    mutating func invalidate() { self = StateCache() }

    mutating func apply(_ modes: DrawModes, _ gl: GLFunctions) {
        if depth != .some(modes.depth) {
            if let d = modes.depth {
                gl.Enable(GLenum(GL_DEPTH_TEST))
                gl.DepthFunc(d.function)
                gl.DepthMask(GLboolean(d.writes ? 1 : 0))
                gl.DepthRange(Double(d.range.lowerBound), Double(d.range.upperBound))
            } else {
                gl.Disable(GLenum(GL_DEPTH_TEST))
            }
            depth = .some(modes.depth)
        }
        if stencil != .some(modes.stencil) {
            if let s = modes.stencil {
                gl.Enable(GLenum(GL_STENCIL_TEST))
                gl.StencilFunc(s.function, s.reference, s.readMask)
                gl.StencilMask(s.writeMask)
                gl.StencilOp(s.fail, s.depthFail, s.pass)
            } else {
                gl.Disable(GLenum(GL_STENCIL_TEST))
            }
            stencil = .some(modes.stencil)
        }
        if color != modes.color {
            let c = modes.color
            if let b = c.blend {
                gl.Enable(GLenum(GL_BLEND))
                gl.BlendFunc(b.source, b.destination)
            } else {
                gl.Disable(GLenum(GL_BLEND))
            }
            gl.ColorMask(GLboolean(c.mask.r ? 1 : 0), GLboolean(c.mask.g ? 1 : 0), GLboolean(c.mask.b ? 1 : 0), GLboolean(c.mask.a ? 1 : 0))
            color = c
        }
        if cull != .some(modes.cull) {
            if let c = modes.cull {
                gl.Enable(GLenum(GL_CULL_FACE))
                gl.CullFace(c.face)
                gl.FrontFace(c.frontFace)
            } else {
                gl.Disable(GLenum(GL_CULL_FACE))
            }
            cull = .some(modes.cull)
        }
    }
}
