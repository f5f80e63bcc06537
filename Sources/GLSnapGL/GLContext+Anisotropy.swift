internal import CMesa

extension GLContext {
    /// GL_MAX_TEXTURE_MAX_ANISOTROPY (core in GL 4.6, ARB/EXT_texture_filter_anisotropic before);
    /// 1 where the driver refuses the enum.
    static func queryMaxAnisotropy(_ gl: GLFunctions) -> Float {
        while gl.GetError() != GLenum(GL_NO_ERROR) {}
        var value: Float = 0
        gl.GetFloatv(GLenum(GL_MAX_TEXTURE_MAX_ANISOTROPY), &value)
        let refused = gl.GetError() != GLenum(GL_NO_ERROR)
        while gl.GetError() != GLenum(GL_NO_ERROR) {}
        return refused || !(value >= 1) ? 1 : value
    }
}
