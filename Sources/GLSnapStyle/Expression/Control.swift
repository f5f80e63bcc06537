import Foundation

/// `case`, `match`, `coalesce`, `all`, `any`, `let`/`var` and `literal`.
enum ControlParsers {
    static func literal(_ args: [JSON], _ ctx: ParsingContext) -> Expr? {
        guard args.count == 2 else {
            return ctx.error("'literal' expression requires exactly one argument, but found \(args.count - 1) instead.")
        }
        let value = Value(args[1])
        var type = value.type
        if case .array(_, let n) = type, n == 0, let expected = ctx.expectedType, case .array(_, let en) = expected, en == nil || en == 0 {
            type = expected
        }
        return LiteralExpr(type, value)
    }

    static func letExpr(_ args: [JSON], _ ctx: ParsingContext) -> Expr? {
        guard args.count >= 4 else { return ctx.error("Expected at least 3 arguments, but found \(args.count - 1) instead.") }
        var bindings: [(String, Expr)] = []
        var i = 1
        while i < args.count - 1 {
            guard case .string(let name) = args[i] else { return ctx.error("Expected string, but found \(jsTypeName(args[i])) instead.", i) }
            if name.unicodeScalars.contains(where: { !(CharacterSet.alphanumerics.contains($0) && $0.isASCII) && $0 != "_" }) {
                return ctx.error("Variable names must contain only alphanumeric characters or '_'.", i)
            }
            guard let value = ctx.parse(args[i + 1], i + 1) else { return nil }
            bindings.append((name, value))
            i += 2
        }
        guard let body = ctx.parse(args[args.count - 1], args.count - 1, ctx.expectedType, bindings: bindings) else { return nil }
        return LetExpr(bindings, body)
    }

    static func varExpr(_ args: [JSON], _ ctx: ParsingContext) -> Expr? {
        guard args.count == 2, case .string(let name) = args[1] else {
            return ctx.error("'var' expression requires exactly one string literal argument.")
        }
        guard let bound = ctx.lookup(name) else {
            return ctx.error("Unknown variable \"\(name)\". Make sure \"\(name)\" has been bound in an enclosing \"let\" expression before using it.", 1)
        }
        return VarExpr(name, bound)
    }

    static func outputType(_ ctx: ParsingContext) -> ExprType? {
        if let t = ctx.expectedType, t != .value { return t }
        return nil
    }

    static func caseExpr(_ args: [JSON], _ ctx: ParsingContext) -> Expr? {
        guard args.count >= 4 else { return ctx.error("Expected at least 3 arguments, but found only \(args.count - 1).") }
        guard args.count % 2 == 0 else { return ctx.error("Expected an odd number of arguments.") }
        var out = outputType(ctx)
        var branches: [(Expr, Expr)] = []
        var i = 1
        while i < args.count - 1 {
            guard let test = ctx.parse(args[i], i, .boolean) else { return nil }
            guard let result = ctx.parse(args[i + 1], i + 1, out) else { return nil }
            out = out ?? result.type
            branches.append((test, result))
            i += 2
        }
        guard let otherwise = ctx.parse(args[args.count - 1], args.count - 1, out), let type = out else { return nil }
        return CaseExpr(type, branches, otherwise)
    }

    static func matchExpr(_ args: [JSON], _ ctx: ParsingContext) -> Expr? {
        guard args.count >= 5 else { return ctx.error("Expected at least 4 arguments, but found only \(args.count - 1).") }
        guard args.count % 2 == 1 else { return ctx.error("Expected an even number of arguments.") }
        var inputType: ExprType?
        var out = outputType(ctx)
        var numberCases: [Double: Int] = [:]
        var stringCases: [String: Int] = [:]
        var outputs: [Expr] = []
        var i = 2
        while i < args.count - 1 {
            var labels: [JSON]
            if case .array(let a) = args[i] { labels = a } else { labels = [args[i]] }
            let labelContext = ctx.concat(i)
            if labels.isEmpty { return labelContext.error("Expected at least one branch label.") }
            for label in labels {
                switch label {
                case .number(let n):
                    if abs(n) > 9007199254740991 { return labelContext.error("Branch labels must be integers no larger than 9007199254740991.") }
                    if n.rounded(.down) != n { return labelContext.error("Numeric branch labels must be integer values.") }
                    if inputType == nil { inputType = .number } else if labelContext.checkSubtype(inputType ?? .number, .number) { return nil }
                    if numberCases[n] != nil { return labelContext.error("Branch labels must be unique.") }
                    numberCases[n] = outputs.count
                case .string(let s):
                    if inputType == nil { inputType = .string } else if labelContext.checkSubtype(inputType ?? .string, .string) { return nil }
                    if stringCases[s] != nil { return labelContext.error("Branch labels must be unique.") }
                    stringCases[s] = outputs.count
                default:
                    return labelContext.error("Branch labels must be numbers or strings.")
                }
            }
            guard let result = ctx.parse(args[i + 1], i + 1, out) else { return nil }
            out = out ?? result.type
            outputs.append(result)
            i += 2
        }
        guard let input = ctx.parse(args[1], 1, .value) else { return nil }
        guard let otherwise = ctx.parse(args[args.count - 1], args.count - 1, out), let type = out else { return nil }
        if input.type != .value, let it = inputType, ctx.concat(1).checkSubtype(it, input.type) { return nil }
        return MatchExpr(type, input, numberCases, stringCases, outputs, otherwise)
    }

    static func coalesce(_ args: [JSON], _ ctx: ParsingContext) -> Expr? {
        guard args.count >= 2 else { return ctx.error("Expectected at least one argument.") }
        var out = outputType(ctx)
        let needsAnnotation = out != nil
        var parsed: [Expr] = []
        for a in args.dropFirst() {
            guard let p = ctx.parse(a, 1 + parsed.count, out, annotation: .omit) else { return nil }
            out = out ?? p.type
            parsed.append(p)
        }
        guard let type = out else { return nil }
        return CoalesceExpr(needsAnnotation ? .value : type, parsed)
    }

    static func logical(_ args: [JSON], _ ctx: ParsingContext) -> Expr? {
        let isAll = args[0] == .string("all")
        var parsed: [Expr] = []
        for (i, a) in args.enumerated().dropFirst() {
            guard let p = ctx.parse(a, i, .boolean) else { return nil }
            parsed.append(p)
        }
        return LogicalExpr(isAll, parsed)
    }
}

final class CaseExpr: Expr {
    let type: ExprType
    let branches: [(Expr, Expr)]
    let otherwise: Expr
    init(_ type: ExprType, _ branches: [(Expr, Expr)], _ otherwise: Expr) { self.type = type; self.branches = branches; self.otherwise = otherwise }
    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        for (test, result) in branches where try test.evalBool(ctx) { return try result.evaluate(ctx) }
        return try otherwise.evaluate(ctx)
    }
    var children: [Expr] { branches.flatMap { [$0.0, $0.1] } + [otherwise] }
}

final class MatchExpr: Expr {
    let type: ExprType
    let input: Expr
    let numberCases: [Double: Int]
    let stringCases: [String: Int]
    let outputs: [Expr]
    let otherwise: Expr
    init(_ type: ExprType, _ input: Expr, _ n: [Double: Int], _ s: [String: Int], _ outputs: [Expr], _ otherwise: Expr) {
        self.type = type; self.input = input; numberCases = n; stringCases = s; self.outputs = outputs; self.otherwise = otherwise
    }
    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        let v = try input.evaluate(ctx)
        let index: Int?
        switch v {
        case .number(let n): index = numberCases[n]
        case .string(let s): index = stringCases[s]
        default: index = nil
        }
        if let index { return try outputs[index].evaluate(ctx) }
        return try otherwise.evaluate(ctx)
    }
    var children: [Expr] { [input] + outputs + [otherwise] }
}

final class CoalesceExpr: Expr {
    let type: ExprType
    let args: [Expr]
    init(_ type: ExprType, _ args: [Expr]) { self.type = type; self.args = args }
    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        var requestedImage: String?
        for (i, a) in args.enumerated() {
            var result = try a.evaluate(ctx)
            if case .image(let img) = result, !img.available {
                if requestedImage == nil { requestedImage = img.name }
                result = .null
                if i == args.count - 1, let name = requestedImage { result = .string(name) }
            }
            if result != .null { return result }
        }
        return .null
    }
    var children: [Expr] { args }
}

final class LogicalExpr: Expr {
    let isAll: Bool
    let args: [Expr]
    init(_ isAll: Bool, _ args: [Expr]) { self.isAll = isAll; self.args = args }
    var type: ExprType { .boolean }
    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        for a in args where try a.evalBool(ctx) != isAll { return .bool(!isAll) }
        return .bool(isAll)
    }
    var children: [Expr] { args }
}
