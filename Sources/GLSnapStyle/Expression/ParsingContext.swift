/// One compile error of an expression: where (a key like `[2][1]`) and what.
public struct ExpressionError: Error, Sendable, Equatable, CustomStringConvertible {
    public let key: String
    public let message: String
    public var description: String { key.isEmpty ? message : "\(key): \(message)" }
}

final class ErrorSink {
    var errors: [ExpressionError] = []
}

/// How a parsed argument is reconciled with the type its parent expects.
enum TypeAnnotation { case assert, coerce, omit }

/// Compiles JSON into expression nodes, checking types and recording errors with key paths.
final class ParsingContext {
    let path: [Int]
    let expectedType: ExprType?
    let scope: [(String, Expr)]
    let sink: ErrorSink

    init(path: [Int] = [], expectedType: ExprType? = nil, scope: [(String, Expr)] = [], sink: ErrorSink = ErrorSink()) {
        self.path = path; self.expectedType = expectedType; self.scope = scope; self.sink = sink
    }

    var key: String { path.map { "[\($0)]" }.joined() }
    var errors: [ExpressionError] { sink.errors }

    func lookup(_ name: String) -> Expr? {
        for (n, e) in scope.reversed() where n == name { return e }
        return nil
    }

    /// A child context for argument `index`.
    func concat(_ index: Int?, _ expected: ExprType? = nil, _ bindings: [(String, Expr)] = []) -> ParsingContext {
        ParsingContext(path: index.map { path + [$0] } ?? path, expectedType: expected, scope: scope + bindings, sink: sink)
    }

    /// Records an error at this context's key, extended by `indices`. Returns nil for `return ctx.error(...)`.
    @discardableResult
    func error(_ message: String, _ indices: Int...) -> Expr? {
        let k = (path + indices).map { "[\($0)]" }.joined()
        sink.errors.append(ExpressionError(key: k, message: message))
        return nil
    }

    /// Records an error when `t` is not a subtype of `expected`; returns true when it failed.
    @discardableResult
    func checkSubtype(_ expected: ExprType, _ t: ExprType) -> Bool {
        if let message = expected.subtypeError(t) { error(message); return true }
        return false
    }

    /// Parses argument `index` of the current expression.
    func parse(_ json: JSON, _ index: Int?, _ expected: ExprType? = nil, bindings: [(String, Expr)] = [],
               annotation: TypeAnnotation? = nil) -> Expr? {
        concat(index, expected, bindings).parseHere(json, annotation: annotation)
    }

    func parseHere(_ json: JSON, annotation: TypeAnnotation? = nil) -> Expr? {
        let expr: [JSON]
        switch json {
        case .null, .bool, .number, .string: expr = [.string("literal"), json]
        case .array(let a): expr = a
        case .object: return error("Bare objects invalid. Use [\"literal\", {...}] instead.")
        }
        guard let first = expr.first else {
            return error("Expected an array with at least one element. If you wanted a literal array, use [\"literal\", []].")
        }
        guard case .string(let op) = first else {
            return error("Expression name must be a string, but found \(jsTypeName(first)) instead. If you wanted a literal array, use [\"literal\", [...]].", 0)
        }
        guard let parser = ExpressionRegistry.parsers[op] else {
            return error("Unknown expression \"\(op)\". If you wanted a literal array, use [\"literal\", [...]].", 0)
        }
        guard var parsed = parser(expr, self) else { return nil }
        if let expected = expectedType {
            let actual = parsed.type
            let kind = expected.kind
            if ["string", "number", "boolean", "object", "array"].contains(kind) && actual == .value {
                switch annotation ?? .assert {
                case .assert: parsed = AssertionExpr(expected, [parsed])
                case .coerce: parsed = CoercionExpr(expected, [parsed])
                case .omit: break
                }
            } else if ["color", "formatted", "resolvedImage"].contains(kind) && (actual == .value || actual == .string) {
                if (annotation ?? .coerce) != .omit { parsed = CoercionExpr(expected, [parsed]) }
            } else if kind == "padding" && (actual == .value || actual == .number || actual.isArray) {
                if (annotation ?? .coerce) != .omit { parsed = CoercionExpr(expected, [parsed]) }
            } else if kind == "numberArray" && (actual == .value || actual == .number || actual.isArray) {
                if (annotation ?? .coerce) != .omit { parsed = CoercionExpr(expected, [parsed]) }
            } else if kind == "colorArray" && (actual == .value || actual == .color || actual == .string || actual.isArray) {
                if (annotation ?? .coerce) != .omit { parsed = CoercionExpr(expected, [parsed]) }
            } else if kind == "projectionDefinition" && (actual == .value || actual == .string || actual.isArray) {
                if (annotation ?? .coerce) != .omit { parsed = CoercionExpr(expected, [parsed]) }
            } else if kind == "variableAnchorOffsetCollection" && (actual == .value || actual.isArray) {
                if (annotation ?? .coerce) != .omit { parsed = CoercionExpr(expected, [parsed]) }
            } else if checkSubtype(expected, actual) {
                return nil
            }
        }
        if !(parsed is LiteralExpr), parsed.type != .resolvedImage, ExprAnalysis.isConstant(parsed) {
            do {
                parsed = LiteralExpr(parsed.type, try parsed.evaluate(EvaluationContext(zoom: 0)))
            } catch let e as RuntimeError {
                return error(e.message)
            } catch {
                return self.error("\(error)")
            }
        }
        return parsed
    }
}

func jsTypeName(_ j: JSON) -> String {
    switch j {
    case .null, .object, .array: return "object"
    case .bool: return "boolean"
    case .number: return "number"
    case .string: return "string"
    }
}

enum ExpressionCompiler {
    /// Compiles `json` expecting `type` (nil: any). Returns the root, or nil and the errors.
    static func compile(_ json: JSON, expected: ExprType?, annotation: TypeAnnotation? = nil) -> (Expr?, [ExpressionError]) {
        let ctx = ParsingContext(expectedType: expected)
        if let e = ctx.parseHere(json, annotation: annotation), ctx.errors.isEmpty { return (e, []) }
        return (nil, ctx.errors.isEmpty ? [ExpressionError(key: "", message: "Invalid expression.")] : ctx.errors)
    }
}
