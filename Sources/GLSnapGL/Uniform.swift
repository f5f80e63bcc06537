internal import CMesa

// One type per GLSL uniform type. Each holds its location, looked up once when the program's
// uniforms are made (tools/gen-shaders.py writes a struct of them per program), and the GL
// setter, so setting one per draw is a call through a pointer: no name lookup. A uniform the
// linker left out (unused in this variant) has location -1, which GL ignores.

/// The GLSL type of a uniform, as the generated tables and `Program.activeUniforms` name it.
public enum UniformType: String, Sendable, CaseIterable {
    case float, vec2, vec3, vec4, int, bool, mat4, sampler2D

    init?(gl: GLenum) {
        switch Int32(gl) {
        case GL_FLOAT: self = .float
        case GL_FLOAT_VEC2: self = .vec2
        case GL_FLOAT_VEC3: self = .vec3
        case GL_FLOAT_VEC4: self = .vec4
        case GL_INT: self = .int
        case GL_BOOL: self = .bool
        case GL_FLOAT_MAT4: self = .mat4
        case GL_SAMPLER_2D: self = .sampler2D
        default: return nil
        }
    }
}

/// `uniform float`.
public struct UniformFloat {
    let location: GLint
    let set1: PFNGLUNIFORM1FPROC
    public init(_ program: Program, _ name: String) { location = program.location(name); set1 = program.context.gl.Uniform1f }
    public func set(_ v: Float) { set1(location, v) }
}

/// `uniform vec2`.
public struct UniformVec2 {
    let location: GLint
    let set2: PFNGLUNIFORM2FPROC
    public init(_ program: Program, _ name: String) { location = program.location(name); set2 = program.context.gl.Uniform2f }
    public func set(_ x: Float, _ y: Float) { set2(location, x, y) }
}

/// `uniform vec3`.
public struct UniformVec3 {
    let location: GLint
    let set3: PFNGLUNIFORM3FPROC
    public init(_ program: Program, _ name: String) { location = program.location(name); set3 = program.context.gl.Uniform3f }
    public func set(_ x: Float, _ y: Float, _ z: Float) { set3(location, x, y, z) }
}

/// `uniform vec4`.
public struct UniformVec4 {
    let location: GLint
    let set4: PFNGLUNIFORM4FPROC
    public init(_ program: Program, _ name: String) { location = program.location(name); set4 = program.context.gl.Uniform4f }
    public func set(_ x: Float, _ y: Float, _ z: Float, _ w: Float) { set4(location, x, y, z, w) }
}

/// `uniform int`.
public struct UniformInt {
    let location: GLint
    let set1: PFNGLUNIFORM1IPROC
    public init(_ program: Program, _ name: String) { location = program.location(name); set1 = program.context.gl.Uniform1i }
    public func set(_ v: Int32) { set1(location, v) }
}

/// `uniform bool`.
public struct UniformBool {
    let location: GLint
    let set1: PFNGLUNIFORM1IPROC
    public init(_ program: Program, _ name: String) { location = program.location(name); set1 = program.context.gl.Uniform1i }
    public func set(_ v: Bool) { set1(location, v ? 1 : 0) }
}

/// `uniform sampler2D`: the texture unit it samples.
public struct UniformSampler {
    let location: GLint
    let set1: PFNGLUNIFORM1IPROC
    public init(_ program: Program, _ name: String) { location = program.location(name); set1 = program.context.gl.Uniform1i }
    /// Samples the texture bound on `unit` (`GLContext.bind(_:unit:)`).
    public func set(unit: Int) { set1(location, GLint(unit)) }
}

/// `uniform mat4`: 16 floats, column by column.
public struct UniformMat4 {
    let location: GLint
    let setMatrix: PFNGLUNIFORMMATRIX4FVPROC
    public init(_ program: Program, _ name: String) { location = program.location(name); setMatrix = program.context.gl.UniformMatrix4fv }
    public func set(_ m: [Float]) {
        precondition(m.count == 16, "a mat4 takes 16 floats, not \(m.count)")
        m.withUnsafeBufferPointer { setMatrix(location, 1, GLboolean(0), $0.baseAddress) }
    }
}

/// `uniform float NAME[N]`.
public struct UniformFloatArray {
    let location: GLint
    let setArray: PFNGLUNIFORM1FVPROC
    public init(_ program: Program, _ name: String) { location = program.location(name); setArray = program.context.gl.Uniform1fv }
    /// Sets the first `values.count` elements.
    public func set(_ values: [Float]) {
        values.withUnsafeBufferPointer { setArray(location, GLsizei(values.count), $0.baseAddress) }
    }
}

/// `uniform vec4 NAME[N]`.
public struct UniformVec4Array {
    let location: GLint
    let setArray: PFNGLUNIFORM4FVPROC
    public init(_ program: Program, _ name: String) { location = program.location(name); setArray = program.context.gl.Uniform4fv }
    /// Sets the first `values.count / 4` elements from x, y, z, w of each in turn.
    public func set(_ values: [Float]) {
        precondition(values.count % 4 == 0, "vec4 values come in fours, not \(values.count)")
        values.withUnsafeBufferPointer { setArray(location, GLsizei(values.count / 4), $0.baseAddress) }
    }
}
