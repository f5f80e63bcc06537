import GLSnapGL

/// The compiled programs of one context, built on first use.
public final class ProgramSet {
    private let context: GLContext
    private var programs: [ShaderID: Program] = [:]

    public init(context: GLContext) { self.context = context }

    public func program(_ id: ShaderID) throws -> Program {
        if let p = programs[id] { return p }
        let p = try Program(context: context, name: id.rawValue,
                            vertex: ShaderID.preamble + id.vertexSource,
                            fragment: ShaderID.preamble + id.fragmentSource,
                            attributes: id.attributes)
        programs[id] = p
        return p
    }

    /// The location a program's attribute is bound to.
    public static func location(_ attribute: String, in id: ShaderID) -> UInt32 {
        guard let i = id.attributes.firstIndex(of: attribute) else {
            preconditionFailure("program \(id.rawValue) has no attribute \(attribute)")
        }
        return UInt32(i)
    }
}
