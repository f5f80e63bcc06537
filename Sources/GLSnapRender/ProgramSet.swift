import GLSnapGL

/// A program with its typed uniforms (Generated/Programs.swift has one per shader: `LineProgram`).
protocol ShaderProgram {
    static var shader: ShaderID { get }
    var program: Program { get }
    /// Looks the uniforms' locations up, once.
    init(_ program: Program)
}

/// The compiled programs of one context, built on first use.
public final class ProgramSet {
    private let context: GLContext
    private var programs: [Key: Program] = [:]
    private var typed: [Key: any ShaderProgram] = [:]

    private struct Key: Hashable {
        var id: ShaderID
        var define: String?
        var overdraw: Bool
    }

    /// While set, programs are the overdraw inspector's variants (`OverdrawInspector`), compiled
    /// on first use; the others stay cached for frames without it.
    public var overdrawInspector = false

    public init(context: GLContext) { self.context = context }

    /// The program `id`, compiled with `#define <define>` after the version line when `define` is
    /// given (a variant: a shader's optional work is left out of the programs that do not need it).
    public func program(_ id: ShaderID, define: String? = nil) throws -> Program {
        let key = Key(id: id, define: define, overdraw: overdrawInspector)
        if let p = programs[key] { return p }
        let header = ShaderID.preamble + (define.map { "#define \($0)\n" } ?? "")
        let fragment = overdrawInspector ? OverdrawInspector.fragment(id.fragmentSource) : id.fragmentSource
        let p = try Program(context: context, name: define.map { "\(id.rawValue) (\($0))" } ?? id.rawValue,
                            vertex: header + id.vertexSource,
                            fragment: header + fragment,
                            attributes: id.attributes)
        programs[key] = p
        return p
    }

    /// The program `P` (variant `define`, as for `program(_:define:)`) with its uniforms.
    func program<P: ShaderProgram>(_ type: P.Type, define: String? = nil) throws -> P {
        let key = Key(id: P.shader, define: define, overdraw: overdrawInspector)
        if let p = typed[key] as? P { return p }
        let p = P(try program(P.shader, define: define))
        typed[key] = p
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
