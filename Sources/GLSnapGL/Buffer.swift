internal import CMesa

/// Creates a GL buffer for `target` filled with `data` (its upload time counted), leaving no
/// buffer bound. An index buffer binding belongs to the bound vertex array: it is filled with none
/// bound, then the one that was is bound again.
private func makeBuffer<T>(_ context: GLContext, _ target: GLenum, _ data: [T]) -> GLuint {
    let gl = context.gl
    var b: GLuint = 0
    gl.GenBuffers(1, &b)
    let vertexArray = context.state.vertexArray
    let isIndex = target == GLenum(GL_ELEMENT_ARRAY_BUFFER)
    if isIndex, vertexArray != 0 { gl.BindVertexArray(0) }
    gl.BindBuffer(target, b)
    context.timingUpload {
        data.withUnsafeBytes { gl.BufferData(target, GLsizeiptr($0.count), $0.baseAddress, GLenum(GL_STATIC_DRAW)) }
    }
    gl.BindBuffer(target, 0)
    if isIndex, vertexArray != 0 { gl.BindVertexArray(vertexArray) }
    return b
}

/// Per-vertex data on the GPU (positions, paint values), filled once.
public final class VertexBuffer {
    let id: GLuint
    /// The size of the data uploaded.
    public let byteCount: Int
    private let context: GLContext

    /// Uploads `data` (plain values: floats, shorts, bytes) as it lies in memory.
    public init<T>(context: GLContext, data: [T]) {
        self.context = context
        byteCount = data.count * MemoryLayout<T>.stride
        id = makeBuffer(context, GLenum(GL_ARRAY_BUFFER), data)
    }

    deinit {
        var b = id
        context.gl.DeleteBuffers(1, &b)
    }
}

/// Triangle or line indices (32-bit) on the GPU, filled once; `Program.draw` draws them.
public final class IndexBuffer {
    let id: GLuint
    /// The number of indices.
    public let count: Int
    private let context: GLContext

    /// Uploads `indices` (each below the vertex count of the attributes it is drawn with).
    public init(context: GLContext, indices: [UInt32]) {
        self.context = context
        count = indices.count
        id = makeBuffer(context, GLenum(GL_ELEMENT_ARRAY_BUFFER), indices)
    }

    deinit {
        var b = id
        context.gl.DeleteBuffers(1, &b)
    }
}

/// The type of one component of a vertex attribute in its buffer.
public enum AttributeType: Sendable {
    case float, int16, uint8

    var glValue: GLenum {
        switch self {
        case .float: return GLenum(GL_FLOAT)
        case .int16: return GLenum(GL_SHORT)
        case .uint8: return GLenum(GL_UNSIGNED_BYTE)
        }
    }
}

/// How one attribute reads from a vertex buffer.
public struct VertexAttribute: Sendable {
    public var location: UInt32
    public var components: Int
    public var type: AttributeType
    /// Integer attributes reach the shader as floats (scaled to 0...1 or -1...1 when `normalized`)
    /// unless `integer` (then VertexAttribIPointer).
    public var normalized: Bool
    public var integer: Bool
    /// Bytes from one vertex to the next; 0: tightly packed.
    public var stride: Int
    /// Bytes from the start of the buffer to the first value.
    public var offset: Int

    public init(location: UInt32, components: Int, type: AttributeType, normalized: Bool = false, integer: Bool = false,
                stride: Int = 0, offset: Int = 0) {
        self.location = location; self.components = components; self.type = type
        self.normalized = normalized; self.integer = integer; self.stride = stride; self.offset = offset
    }
}

extension GLContext {
    /// Points attribute `a.location` of the bound vertex array at `buffer`.
    public func setAttribute(_ a: VertexAttribute, _ buffer: VertexBuffer) {
        gl.BindBuffer(GLenum(GL_ARRAY_BUFFER), buffer.id)
        gl.EnableVertexAttribArray(a.location)
        let offset = UnsafeRawPointer(bitPattern: a.offset)
        if a.integer {
            gl.VertexAttribIPointer(a.location, GLint(a.components), a.type.glValue, GLsizei(a.stride), offset)
        } else {
            gl.VertexAttribPointer(a.location, GLint(a.components), a.type.glValue, GLboolean(a.normalized ? 1 : 0),
                                   GLsizei(a.stride), offset)
        }
    }

    /// Gives attribute `location` one value for every vertex (1, 2 or 4 floats; other counts set
    /// the first float alone) instead of reading a buffer.
    public func setAttribute(_ location: UInt32, constant v: [Float]) {
        gl.DisableVertexAttribArray(location)
        switch v.count {
        case 4: gl.VertexAttrib4f(location, v[0], v[1], v[2], v[3])
        case 2: gl.VertexAttrib2f(location, v[0], v[1])
        default: gl.VertexAttrib1f(location, v.first ?? 0)
        }
    }

    /// Stops attribute `location` reading a buffer; the shader sees its last constant value.
    public func disableAttribute(_ location: UInt32) {
        gl.DisableVertexAttribArray(location)
    }
}

/// A vertex array object: which buffers feed which attributes, plus the index buffer.
public final class VertexArray {
    let id: GLuint
    private let context: GLContext
    /// Kept alive as long as the vertex array uses them.
    private let buffers: [VertexBuffer]
    private let indices: IndexBuffer?

    /// Records `attributes` (none: a vertex array whose attributes are set per draw) and `indices`.
    public init(context: GLContext, attributes: [(VertexBuffer, VertexAttribute)], indices: IndexBuffer?) {
        self.context = context
        let gl = context.gl
        var v: GLuint = 0
        gl.GenVertexArrays(1, &v)
        id = v
        gl.BindVertexArray(id)
        context.state.vertexArray = id
        for (buffer, a) in attributes { context.setAttribute(a, buffer) }
        if let indices { gl.BindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), indices.id) }
        gl.BindBuffer(GLenum(GL_ARRAY_BUFFER), 0)
        buffers = attributes.map { $0.0 }
        self.indices = indices
    }

    deinit {
        var v = id
        if context.state.vertexArray == id { context.state.vertexArray = 0 }
        context.gl.DeleteVertexArrays(1, &v)
    }
}
