import CMesa

/// A linked shader program with its uniform locations looked up once.
public final class Program {
    public let id: GLuint
    public let name: String
    private let context: GLContext
    private var uniformLocations: [String: GLint] = [:]

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

    /// The location of a uniform (-1 when the program does not use it), cached.
    public func location(_ uniform: String) -> GLint {
        if let l = uniformLocations[uniform] { return l }
        let l = context.gl.GetUniformLocation(id, uniform)
        uniformLocations[uniform] = l
        return l
    }
}
