internal import CMesa

/// How a texture's texels are stored.
public enum PixelFormat: Sendable {
    /// 4 bytes a pixel, premultiplied colors.
    case rgba8
    /// 1 byte a pixel (glyph SDFs, dash patterns), read as red.
    case r8
    /// 4 half floats a pixel (heatmap densities, which add up past 1). Render targets only.
    case rgba16f

    var internalFormat: GLint {
        switch self {
        case .rgba8: return GL_RGBA8
        case .r8: return GL_R8
        case .rgba16f: return GL_RGBA16F
        }
    }
    var format: GLenum { self == .r8 ? GLenum(GL_RED) : GLenum(GL_RGBA) }
    var type: GLenum { self == .rgba16f ? GLenum(GL_HALF_FLOAT) : GLenum(GL_UNSIGNED_BYTE) }
}

/// How a texture is sampled: the texel filters and what lies past its edges.
public struct SamplerState: Equatable, Sendable {
    public enum Filter: Sendable { case nearest, linear }
    public enum Wrap: Sendable { case clampToEdge, `repeat` }

    /// Drawn smaller than its size.
    public var minify: Filter
    /// Drawn larger than its size.
    public var magnify: Filter
    /// How mipmap levels are chosen when minified; nil: no mipmaps (level 0 only).
    public var mipmap: Filter?
    /// Along x (s) and y (t).
    public var wrapS: Wrap
    public var wrapT: Wrap

    public init(minify: Filter, magnify: Filter, mipmap: Filter? = nil, wrapS: Wrap = .clampToEdge, wrapT: Wrap = .clampToEdge) {
        self.minify = minify; self.magnify = magnify; self.mipmap = mipmap; self.wrapS = wrapS; self.wrapT = wrapT
    }

    /// `filter` both ways, no mipmaps, clamped.
    public init(filter: Filter) { self.init(minify: filter, magnify: filter) }

    public static let linear = SamplerState(filter: .linear)
    public static let nearest = SamplerState(filter: .nearest)

    var glMinify: GLint {
        switch (minify, mipmap) {
        case (.nearest, nil): return GL_NEAREST
        case (.linear, nil): return GL_LINEAR
        case (.nearest, .nearest?): return GL_NEAREST_MIPMAP_NEAREST
        case (.linear, .nearest?): return GL_LINEAR_MIPMAP_NEAREST
        case (.nearest, .linear?): return GL_NEAREST_MIPMAP_LINEAR
        case (.linear, .linear?): return GL_LINEAR_MIPMAP_LINEAR
        }
    }
    var glMagnify: GLint { magnify == .linear ? GL_LINEAR : GL_NEAREST }
    static func glWrap(_ w: Wrap) -> GLint { w == .repeat ? GL_REPEAT : GL_CLAMP_TO_EDGE }
}

/// A 2D texture (sprite atlas, glyph atlas, raster tile, pattern, render target color) with the
/// sampler state it was last given.
public final class Texture {
    let id: GLuint
    public let width: Int
    public let height: Int
    /// How texels are stored (a render target's: what it was made with).
    public let format: PixelFormat
    /// How it is sampled now; `GLContext.bind(_:unit:sampler:)` changes it.
    public internal(set) var sampler: SamplerState
    private let context: GLContext

    /// Allocates the texture, filled from `pixels` when given (`format`'s bytes per pixel, rows
    /// top first as uploaded), else empty (to render into). It stays bound on the active unit.
    public init(context: GLContext, width: Int, height: Int, format: PixelFormat = .rgba8, pixels: [UInt8]?,
                sampler: SamplerState = .linear) {
        self.context = context
        self.width = width
        self.height = height
        self.format = format
        self.sampler = sampler
        let gl = context.gl
        var t: GLuint = 0
        gl.GenTextures(1, &t)
        id = t
        gl.BindTexture(GLenum(GL_TEXTURE_2D), id)
        context.state.textures[context.state.activeTexture] = id
        let target = GLenum(GL_TEXTURE_2D)
        if let pixels {
            context.timingUpload {
                pixels.withUnsafeBytes {
                    gl.TexImage2D(target, 0, format.internalFormat, GLsizei(width), GLsizei(height), 0, format.format, format.type, $0.baseAddress)
                }
            }
        } else {
            gl.TexImage2D(target, 0, format.internalFormat, GLsizei(width), GLsizei(height), 0, format.format, format.type, nil)
        }
        gl.TexParameteri(target, GLenum(GL_TEXTURE_MIN_FILTER), sampler.glMinify)
        gl.TexParameteri(target, GLenum(GL_TEXTURE_MAG_FILTER), sampler.glMagnify)
        gl.TexParameteri(target, GLenum(GL_TEXTURE_WRAP_S), SamplerState.glWrap(sampler.wrapS))
        gl.TexParameteri(target, GLenum(GL_TEXTURE_WRAP_T), SamplerState.glWrap(sampler.wrapT))
    }

    /// Fills the mipmap levels from level 0 (for a `SamplerState.mipmap` filter). Binds the
    /// texture on the active unit.
    public func generateMipmaps() {
        context.bindOnActiveUnit(self)
        context.gl.GenerateMipmap(GLenum(GL_TEXTURE_2D))
    }

    /// Sets the GL parameters that differ from `sampler`; the texture is bound on the active unit.
    func apply(_ new: SamplerState) {
        guard new != sampler else { return }
        let gl = context.gl, target = GLenum(GL_TEXTURE_2D)
        if new.magnify != sampler.magnify { gl.TexParameteri(target, GLenum(GL_TEXTURE_MAG_FILTER), new.glMagnify) }
        if new.minify != sampler.minify || new.mipmap != sampler.mipmap {
            gl.TexParameteri(target, GLenum(GL_TEXTURE_MIN_FILTER), new.glMinify)
        }
        if new.wrapS != sampler.wrapS { gl.TexParameteri(target, GLenum(GL_TEXTURE_WRAP_S), SamplerState.glWrap(new.wrapS)) }
        if new.wrapT != sampler.wrapT { gl.TexParameteri(target, GLenum(GL_TEXTURE_WRAP_T), SamplerState.glWrap(new.wrapT)) }
        sampler = new
    }

    /// The sampler state GL holds for the texture, read back (binds it on the active unit; for tests).
    func queriedSampler() -> SamplerState? {
        context.bindOnActiveUnit(self)
        var v: [GLint] = [0, 0, 0, 0]
        let names = [GL_TEXTURE_MIN_FILTER, GL_TEXTURE_MAG_FILTER, GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T]
        for (i, n) in names.enumerated() { context.gl.GetTexParameteriv(GLenum(GL_TEXTURE_2D), GLenum(n), &v[i]) }
        let filters: [SamplerState.Filter] = [.nearest, .linear]
        let mipmaps: [SamplerState.Filter?] = [nil, .nearest, .linear]
        let wraps: [SamplerState.Wrap] = [.clampToEdge, .repeat]
        for minify in filters { for magnify in filters { for mipmap in mipmaps { for s in wraps { for t in wraps {
            let state = SamplerState(minify: minify, magnify: magnify, mipmap: mipmap, wrapS: s, wrapT: t)
            if [state.glMinify, state.glMagnify, SamplerState.glWrap(s), SamplerState.glWrap(t)] == v { return state }
        } } } } }
        return nil
    }

    deinit {
        var t = id
        for i in context.state.textures.indices where context.state.textures[i] == id { context.state.textures[i] = 0 }
        context.gl.DeleteTextures(1, &t)
    }
}
