import CMesa

/// A vertex or index buffer on the GPU, filled once.
public final class Buffer {
    public let id: GLuint
    public let target: GLenum
    public let byteCount: Int
    private let context: GLContext

    public init<T>(context: GLContext, target: GLenum, data: [T]) {
        self.context = context
        self.target = target
        var b: GLuint = 0
        context.gl.GenBuffers(1, &b)
        id = b
        byteCount = data.count * MemoryLayout<T>.stride
        // An index buffer binding belongs to the bound vertex array: fill it with none bound,
        // then restore the one that was.
        let vertexArray = context.state.vertexArray
        let isIndex = target == GLenum(GL_ELEMENT_ARRAY_BUFFER)
        if isIndex, vertexArray != 0 { context.gl.BindVertexArray(0) }
        context.gl.BindBuffer(target, id)
        context.timingUpload {
            data.withUnsafeBytes { context.gl.BufferData(target, GLsizeiptr($0.count), $0.baseAddress, GLenum(GL_STATIC_DRAW)) }
        }
        context.gl.BindBuffer(target, 0)
        if isIndex, vertexArray != 0 { context.gl.BindVertexArray(vertexArray) }
    }

    deinit {
        var b = id
        context.gl.DeleteBuffers(1, &b)
    }
}

/// How one attribute reads from a vertex buffer.
public struct VertexAttribute: Sendable {
    public var location: GLuint
    public var components: GLint
    public var type: GLenum
    /// Integer attributes reach the shader as floats unless `integer` (then VertexAttribIPointer).
    public var normalized: Bool
    public var integer: Bool
    public var stride: Int
    public var offset: Int

    public init(location: GLuint, components: GLint, type: GLenum, normalized: Bool = false, integer: Bool = false, stride: Int, offset: Int) {
        self.location = location; self.components = components; self.type = type
        self.normalized = normalized; self.integer = integer; self.stride = stride; self.offset = offset
    }
}

/// A vertex array object: which buffers feed which attributes, plus the index buffer.
public final class VertexArray {
    public let id: GLuint
    private let context: GLContext
    /// Kept alive as long as the vertex array uses them.
    private let buffers: [Buffer]

    public init(context: GLContext, attributes: [(Buffer, VertexAttribute)], indices: Buffer?) {
        self.context = context
        let gl = context.gl
        var v: GLuint = 0
        gl.GenVertexArrays(1, &v)
        id = v
        gl.BindVertexArray(id)
        context.state.vertexArray = id
        for (buffer, a) in attributes {
            gl.BindBuffer(buffer.target, buffer.id)
            gl.EnableVertexAttribArray(a.location)
            let offset = UnsafeRawPointer(bitPattern: a.offset)
            if a.integer {
                gl.VertexAttribIPointer(a.location, a.components, a.type, GLsizei(a.stride), offset)
            } else {
                gl.VertexAttribPointer(a.location, a.components, a.type, GLboolean(a.normalized ? 1 : 0), GLsizei(a.stride), offset)
            }
        }
        if let indices { gl.BindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), indices.id) }
        gl.BindBuffer(GLenum(GL_ARRAY_BUFFER), 0)
        buffers = attributes.map { $0.0 } + (indices.map { [$0] } ?? [])
    }

    deinit {
        var v = id
        if context.state.vertexArray == id { context.state.vertexArray = 0 }
        context.gl.DeleteVertexArrays(1, &v)
    }
}
