internal import CMesa

/// A depth or stencil comparison: the test passes when the new value compares so to the stored one.
public enum CompareFunction: Sendable {
    case never, less, equal, lessOrEqual, greater, notEqual, greaterOrEqual, always

    var glValue: GLenum {
        switch self {
        case .never: return GLenum(GL_NEVER)
        case .less: return GLenum(GL_LESS)
        case .equal: return GLenum(GL_EQUAL)
        case .lessOrEqual: return GLenum(GL_LEQUAL)
        case .greater: return GLenum(GL_GREATER)
        case .notEqual: return GLenum(GL_NOTEQUAL)
        case .greaterOrEqual: return GLenum(GL_GEQUAL)
        case .always: return GLenum(GL_ALWAYS)
        }
    }
}

/// What a stencil test does to the stored value.
public enum StencilOperation: Sendable {
    case keep, zero, replace, increment, decrement, invert

    var glValue: GLenum {
        switch self {
        case .keep: return GLenum(GL_KEEP)
        case .zero: return GLenum(GL_ZERO)
        case .replace: return GLenum(GL_REPLACE)
        case .increment: return GLenum(GL_INCR)
        case .decrement: return GLenum(GL_DECR)
        case .invert: return GLenum(GL_INVERT)
        }
    }
}

/// A blend factor (source or destination).
public enum BlendFactor: Sendable {
    case zero, one, sourceAlpha, oneMinusSourceAlpha, destinationAlpha, oneMinusDestinationAlpha
    /// `ColorMode.constant`, GL's blend color.
    case constantColor

    var glValue: GLenum {
        switch self {
        case .zero: return GLenum(GL_ZERO)
        case .one: return GLenum(GL_ONE)
        case .sourceAlpha: return GLenum(GL_SRC_ALPHA)
        case .oneMinusSourceAlpha: return GLenum(GL_ONE_MINUS_SRC_ALPHA)
        case .destinationAlpha: return GLenum(GL_DST_ALPHA)
        case .oneMinusDestinationAlpha: return GLenum(GL_ONE_MINUS_DST_ALPHA)
        case .constantColor: return GLenum(GL_CONSTANT_COLOR)
        }
    }
}

/// Depth test and writes; `nil` in `DrawModes.depth` means the depth test is off.
public struct DepthMode: Equatable, Sendable {
    public var function: CompareFunction
    public var writes: Bool
    public var range: ClosedRange<Float>
    public init(function: CompareFunction = .lessOrEqual, writes: Bool, range: ClosedRange<Float> = 0...1) {
        self.function = function; self.writes = writes; self.range = range
    }
}

/// Stencil test; `nil` in `DrawModes.stencil` means the stencil test is off.
public struct StencilMode: Equatable, Sendable {
    public var function: CompareFunction
    public var reference: Int32
    public var readMask: UInt32
    public var writeMask: UInt32
    public var fail: StencilOperation
    public var depthFail: StencilOperation
    public var pass: StencilOperation

    public init(function: CompareFunction, reference: Int32, readMask: UInt32 = 0xFF, writeMask: UInt32 = 0,
                fail: StencilOperation = .keep, depthFail: StencilOperation = .keep, pass: StencilOperation = .keep) {
        self.function = function; self.reference = reference; self.readMask = readMask; self.writeMask = writeMask
        self.fail = fail; self.depthFail = depthFail; self.pass = pass
    }

    /// Draw only where the stencil buffer holds `id` (the tile clipping mask).
    public static func equal(_ id: Int32) -> StencilMode {
        StencilMode(function: .equal, reference: id)
    }
}

/// Blending and the color write mask.
public struct ColorMode: Equatable, Sendable {
    /// Source and destination factors; nil disables blending.
    public var blend: Blend?
    public var mask: Mask
    /// GL's blend color, which the factor `.constantColor` reads (RGBA).
    public var constant: SIMD4<Float> = .zero

    public struct Blend: Equatable, Sendable {
        public var source: BlendFactor
        public var destination: BlendFactor
        public init(source: BlendFactor, destination: BlendFactor) { self.source = source; self.destination = destination }
    }

    public struct Mask: Equatable, Sendable {
        public var r, g, b, a: Bool
        public static let all = Mask(r: true, g: true, b: true, a: true)
        public static let none = Mask(r: false, g: false, b: false, a: false)
    }

    /// Premultiplied-alpha "over", how every layer is composited.
    public static let alphaBlended = ColorMode(blend: Blend(source: .one, destination: .oneMinusSourceAlpha), mask: .all)
    /// Colors add up (heatmap densities).
    public static let additive = ColorMode(blend: Blend(source: .one, destination: .one), mask: .all)
    public static let unblended = ColorMode(blend: nil, mask: .all)
    public static let disabled = ColorMode(blend: nil, mask: .none)

    public init(blend: Blend?, mask: Mask) { self.blend = blend; self.mask = mask }
}

/// Which faces face-culling removes, and which winding is the front.
public struct CullMode: Equatable, Sendable {
    public enum Face: Sendable { case front, back }
    public enum Winding: Sendable { case clockwise, counterClockwise }
    public var face: Face
    public var frontFace: Winding
    public init(face: Face = .back, frontFace: Winding = .counterClockwise) { self.face = face; self.frontFace = frontFace }
}

/// A scissor box in the framebuffer's pixels, GL's way up (rows counted from the bottom); `nil`
/// in `DrawModes.scissor` means the scissor test is off.
public struct ScissorBox: Equatable, Sendable {
    public var x, y, width, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "negative scissor size")
        self.x = x; self.y = y; self.width = width; self.height = height
    }
}

/// How a tile's drawing is kept inside its own square: a stencil test against the tile's mask, or,
/// where the tile is an axis-aligned rectangle on screen, a scissor box holding the same pixels.
public enum TileClip: Equatable, Sendable {
    case stencil(StencilMode)
    case scissor(ScissorBox)
}

/// All fixed-function state one draw call needs; draw code passes this and never toggles GL state.
public struct DrawModes: Equatable, Sendable {
    public var depth: DepthMode?
    public var stencil: StencilMode?
    public var scissor: ScissorBox?
    public var color: ColorMode
    /// Face culling; nil disables it.
    public var cull: CullMode?
    /// The width of `.lines` primitives in pixels. Part of every draw's modes, so a draw that
    /// widens lines (fill outlines: 2) does not leave the width set for the draws after it.
    public var lineWidth: Float

    public init(depth: DepthMode? = nil, stencil: StencilMode? = nil, scissor: ScissorBox? = nil, color: ColorMode = .alphaBlended,
                cull: CullMode? = nil, lineWidth: Float = 1) {
        self.depth = depth; self.stencil = stencil; self.scissor = scissor; self.color = color; self.cull = cull; self.lineWidth = lineWidth
    }

    /// Modes of a tile's draw clipped by `clip` (nil: not clipped).
    public init(clip: TileClip?, color: ColorMode = .alphaBlended, lineWidth: Float = 1) {
        self.init(color: color, lineWidth: lineWidth)
        switch clip {
        case .stencil(let s)?: stencil = s
        case .scissor(let box)?: scissor = box
        case nil: break
        }
    }
}

/// Remembers what GL state is set so each draw changes only what differs.
struct StateCache {
    private var depth: DepthMode?? = .none
    private var stencil: StencilMode?? = .none
    private var scissor: ScissorBox?? = .none
    private var color: ColorMode? = nil
    private var cull: CullMode?? = .none
    private var lineWidth: Float? = nil
    var program: GLuint = 0
    var vertexArray: GLuint = 0
    var textures = [GLuint](repeating: 0, count: 8)
    var activeTexture = 0

    mutating func invalidate() { self = StateCache() }

    mutating func apply(_ modes: DrawModes, _ gl: GLFunctions) {
        if depth != .some(modes.depth) {
            if let d = modes.depth {
                gl.Enable(GLenum(GL_DEPTH_TEST))
                gl.DepthFunc(d.function.glValue)
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
                gl.StencilFunc(s.function.glValue, s.reference, s.readMask)
                gl.StencilMask(s.writeMask)
                gl.StencilOp(s.fail.glValue, s.depthFail.glValue, s.pass.glValue)
            } else {
                gl.Disable(GLenum(GL_STENCIL_TEST))
            }
            stencil = .some(modes.stencil)
        }
        if scissor != .some(modes.scissor) {
            if let box = modes.scissor {
                gl.Enable(GLenum(GL_SCISSOR_TEST))
                gl.Scissor(GLint(box.x), GLint(box.y), GLsizei(box.width), GLsizei(box.height))
            } else {
                gl.Disable(GLenum(GL_SCISSOR_TEST))
            }
            scissor = .some(modes.scissor)
        }
        if color != modes.color {
            let c = modes.color
            if let b = c.blend {
                gl.Enable(GLenum(GL_BLEND))
                gl.BlendFunc(b.source.glValue, b.destination.glValue)
                if b.source == .constantColor || b.destination == .constantColor {
                    gl.BlendColor(c.constant.x, c.constant.y, c.constant.z, c.constant.w)
                }
            } else {
                gl.Disable(GLenum(GL_BLEND))
            }
            gl.ColorMask(GLboolean(c.mask.r ? 1 : 0), GLboolean(c.mask.g ? 1 : 0), GLboolean(c.mask.b ? 1 : 0), GLboolean(c.mask.a ? 1 : 0))
            color = c
        }
        if cull != .some(modes.cull) {
            if let c = modes.cull {
                gl.Enable(GLenum(GL_CULL_FACE))
                gl.CullFace(c.face == .back ? GLenum(GL_BACK) : GLenum(GL_FRONT))
                gl.FrontFace(c.frontFace == .counterClockwise ? GLenum(GL_CCW) : GLenum(GL_CW))
            } else {
                gl.Disable(GLenum(GL_CULL_FACE))
            }
            cull = .some(modes.cull)
        }
        if lineWidth != modes.lineWidth {
            gl.LineWidth(modes.lineWidth)
            lineWidth = modes.lineWidth
        }
    }
}
