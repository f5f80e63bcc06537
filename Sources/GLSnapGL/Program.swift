internal import CMesa

/// A primitive a draw makes from its indices or vertices.
public enum Primitive: Sendable {
    case triangles, lines
    /// Points sized by the vertex shader's `gl_PointSize` (custom layers).
    case points

    var glValue: GLenum {
        switch self {
        case .triangles: GLenum(GL_TRIANGLES)
        case .lines: GLenum(GL_LINES)
        case .points: GLenum(GL_POINTS)
        }
    }
}

/// A uniform the linker kept, as GL reports it.
public struct ActiveUniform: Equatable, Sendable {
    /// The name in the source (an array's without "[0]").
    public var name: String
    public var type: UniformType
    /// Elements: 1, or an array's length.
    public var count: Int
}

/// A linked shader program. Its uniforms are set through the typed uniforms made from it
/// (`UniformFloat(program, "u_ratio")`, generated per program), their locations looked up once.
public final class Program {
    let id: GLuint
    public let name: String
    let context: GLContext

    /// Compiles and links; attributes are bound to the locations given, in order.
    public init(context: GLContext, name: String, vertex: String, fragment: String, attributes: [String]) throws {
        let gl = context.gl
        self.context = context
        self.name = name
        let vs = try Program.compile(gl, GLenum(GL_VERTEX_SHADER), vertex, name: name, stage: "compile (vertex)")
        defer { gl.DeleteShader(vs) }
        let fs = try Program.compile(gl, GLenum(GL_FRAGMENT_SHADER), fragment, name: name, stage: "compile (fragment)")
        defer { gl.DeleteShader(fs) }
        id = gl.CreateProgram()
        gl.AttachShader(id, vs)
        gl.AttachShader(id, fs)
        for (i, a) in attributes.enumerated() { gl.BindAttribLocation(id, GLuint(i), a) }
        gl.LinkProgram(id)
        var ok: GLint = 0
        gl.GetProgramiv(id, GLenum(GL_LINK_STATUS), &ok)
        if ok == 0 {
            let log = Program.log(length: { gl.GetProgramiv(id, GLenum(GL_INFO_LOG_LENGTH), $0) },
                                  read: { gl.GetProgramInfoLog(id, $0, nil, $1) })
            gl.DeleteProgram(id)
            throw GLError.shader(program: name, stage: "link", log: log)
        }
    }

    deinit { context.gl.DeleteProgram(id) }

    private static func compile(_ gl: GLFunctions, _ type: GLenum, _ source: String, name: String, stage: String) throws -> GLuint {
        let shader = gl.CreateShader(type)
        source.withCString { ptr in
            var p: UnsafePointer<GLchar>? = ptr
            gl.ShaderSource(shader, 1, &p, nil)
        }
        gl.CompileShader(shader)
        var ok: GLint = 0
        gl.GetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &ok)
        if ok == 0 {
            let log = Program.log(length: { gl.GetShaderiv(shader, GLenum(GL_INFO_LOG_LENGTH), $0) },
                                  read: { gl.GetShaderInfoLog(shader, $0, nil, $1) })
            gl.DeleteShader(shader)
            throw GLError.shader(program: name, stage: stage, log: log)
        }
        return shader
    }

    private static func log(length: (UnsafeMutablePointer<GLint>) -> Void,
                            read: (GLsizei, UnsafeMutablePointer<GLchar>) -> Void) -> String {
        var n: GLint = 0
        length(&n)
        guard n > 1 else { return "(no log)" }
        var buf = [GLchar](repeating: 0, count: Int(n))
        read(n, &buf)
        return String(decoding: buf.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The location of a uniform (-1 when the program does not use it).
    func location(_ uniform: String) -> GLint {
        context.gl.GetUniformLocation(id, uniform)
    }

    /// The uniforms the linker kept, by name (a type GLSnapGL has no `Uniform…` for is left out).
    public var activeUniforms: [ActiveUniform] {
        let gl = context.gl
        var n: GLint = 0, longest: GLint = 0
        gl.GetProgramiv(id, GLenum(GL_ACTIVE_UNIFORMS), &n)
        gl.GetProgramiv(id, GLenum(GL_ACTIVE_UNIFORM_MAX_LENGTH), &longest)
        var out: [ActiveUniform] = []
        for i in 0..<max(0, n) {
            var buf = [GLchar](repeating: 0, count: Int(max(1, longest)))
            var length: GLsizei = 0, size: GLint = 0, type: GLenum = 0
            gl.GetActiveUniform(id, GLuint(i), GLsizei(buf.count), &length, &size, &type, &buf)
            var name = String(decoding: buf.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if name.hasSuffix("[0]") { name.removeLast(3) }
            guard let t = UniformType(gl: type) else { continue }
            out.append(ActiveUniform(name: name, type: t, count: Int(size)))
        }
        return out.sorted { $0.name < $1.name }
    }

    /// Draws `count` indices of `indices` (all when nil) from index `first` as `primitive`s with
    /// this program and `modes`, from the attributes set on the context.
    public func draw(_ primitive: Primitive = .triangles, indices: IndexBuffer, first: Int = 0, count: Int? = nil, modes: DrawModes) {
        let n = count ?? indices.count - first
        precondition(first >= 0 && n >= 0 && first + n <= indices.count, "\(first)+\(n) indices of \(indices.count)")
        context.use(self)
        context.apply(modes)
        let gl = context.gl
        gl.BindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), indices.id)
        gl.DrawElements(primitive.glValue, GLsizei(n), GLenum(GL_UNSIGNED_INT), UnsafeRawPointer(bitPattern: first * 4))
    }

    /// Draws `vertexCount` vertices in order (no index buffer) as `primitive`s with `modes`.
    public func draw(_ primitive: Primitive = .triangles, vertexCount: Int, modes: DrawModes) {
        context.use(self)
        context.apply(modes)
        context.gl.DrawArrays(primitive.glValue, 0, GLsizei(vertexCount))
    }
}
