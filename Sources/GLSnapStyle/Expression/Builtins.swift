import Foundation

/// A built-in operator's signature: fixed parameter types, or one repeated type.
enum Params {
    case fixed([ExprType])
    case varargs(ExprType)

    var description: String {
        switch self {
        case .fixed(let ts): return "(" + ts.map(\.description).joined(separator: ", ") + ")"
        case .varargs(let t): return "(\(t)...)"
        }
    }
}

typealias BuiltinFn = (EvaluationContext, [Expr]) throws -> Value

struct BuiltinDefinition {
    let type: ExprType
    let overloads: [(Params, BuiltinFn)]
}

enum Builtins {
    static func math1(_ f: @escaping (Double) -> Double) -> BuiltinDefinition {
        BuiltinDefinition(type: .number, overloads: [(.fixed([.number]), { ctx, a in .number(f(try a[0].evalNumber(ctx))) })])
    }
    static func math2(_ f: @escaping (Double, Double) -> Double) -> BuiltinDefinition {
        BuiltinDefinition(type: .number, overloads: [(.fixed([.number, .number]), { ctx, a in
            .number(f(try a[0].evalNumber(ctx), try a[1].evalNumber(ctx)))
        })])
    }
    static func fold(_ initial: Double, _ f: @escaping (Double, Double) -> Double) -> BuiltinDefinition {
        BuiltinDefinition(type: .number, overloads: [(.varargs(.number), { ctx, a in
            var acc = initial
            for e in a { acc = f(acc, try e.evalNumber(ctx)) }
            return .number(acc)
        })])
    }

    static func featureProperty(_ ctx: EvaluationContext, _ key: String) -> Value {
        guard let v = ctx.feature?.property(key) else { return .null }
        return Value(v)
    }

    static func rgba(_ ctx: EvaluationContext, _ a: [Expr]) throws -> Value {
        var c: [Double] = []
        for e in a { c.append(try e.evalNumber(ctx)) }
        if let message = validateRGBA(c) { throw RuntimeError(message) }
        let alpha = c.count > 3 ? c[3] : 1
        return .color(Color(straightR: c[0] / 255, g: c[1] / 255, b: c[2] / 255, a: alpha))
    }

    static let geometryNames = ["Unknown", "Point", "LineString", "Polygon"]

    static let definitions: [String: BuiltinDefinition] = [
        "error": BuiltinDefinition(type: .error, overloads: [(.fixed([.string]), { ctx, a in
            throw RuntimeError(try a[0].evalString(ctx))
        })]),
        "typeof": BuiltinDefinition(type: .string, overloads: [(.fixed([.value]), { ctx, a in
            .string(try a[0].evaluate(ctx).type.description)
        })]),
        "to-rgba": BuiltinDefinition(type: .array(.number, 4), overloads: [(.fixed([.color]), { ctx, a in
            guard case .color(let c) = try a[0].evaluate(ctx) else { throw RuntimeError("Expected a color.") }
            return .array(c.rgbaArray.map(Value.number))
        })]),
        "rgb": BuiltinDefinition(type: .color, overloads: [(.fixed([.number, .number, .number]), rgba)]),
        "rgba": BuiltinDefinition(type: .color, overloads: [(.fixed([.number, .number, .number, .number]), rgba)]),
        "has": BuiltinDefinition(type: .boolean, overloads: [
            (.fixed([.string]), { ctx, a in .bool(ctx.feature?.property(try a[0].evalString(ctx)) != nil) }),
            (.fixed([.string, .object]), { ctx, a in
                let k = try a[0].evalString(ctx)
                guard case .object(let o) = try a[1].evaluate(ctx) else { return .bool(false) }
                return .bool(o[k] != nil)
            }),
        ]),
        "get": BuiltinDefinition(type: .value, overloads: [
            (.fixed([.string]), { ctx, a in featureProperty(ctx, try a[0].evalString(ctx)) }),
            (.fixed([.string, .object]), { ctx, a in
                let k = try a[0].evalString(ctx)
                guard case .object(let o) = try a[1].evaluate(ctx) else { return .null }
                return o[k] ?? .null
            }),
        ]),
        "feature-state": BuiltinDefinition(type: .value, overloads: [(.fixed([.string]), { ctx, a in
            ctx.featureState[try a[0].evalString(ctx)].map(Value.init) ?? .null
        })]),
        "properties": BuiltinDefinition(type: .object, overloads: [(.fixed([]), { ctx, _ in
            .object((ctx.feature?.properties ?? [:]).mapValues(Value.init))
        })]),
        "geometry-type": BuiltinDefinition(type: .string, overloads: [(.fixed([]), { ctx, _ in
            guard let f = ctx.feature else { return .null }
            if let g = f as? GeometryTypeNaming { return .string(g.geometryTypeName) }
            if f.geometryType == .unknown { return .null }
            return .string(geometryNames[Int(f.geometryType.rawValue)])
        })]),
        "id": BuiltinDefinition(type: .value, overloads: [(.fixed([]), { ctx, _ in
            ctx.feature?.featureID.map(Value.init) ?? .null
        })]),
        "zoom": BuiltinDefinition(type: .number, overloads: [(.fixed([]), { ctx, _ in .number(ctx.zoom) })]),
        "heatmap-density": BuiltinDefinition(type: .number, overloads: [(.fixed([]), { ctx, _ in .number(ctx.heatmapDensity ?? 0) })]),
        "elevation": BuiltinDefinition(type: .number, overloads: [(.fixed([]), { ctx, _ in .number(ctx.elevation ?? 0) })]),
        "line-progress": BuiltinDefinition(type: .number, overloads: [(.fixed([]), { ctx, _ in .number(ctx.lineProgress ?? 0) })]),
        // Of any type, as in MapLibre (a reduce by `any` folds booleans, by `+` numbers).
        "accumulated": BuiltinDefinition(type: .value, overloads: [(.fixed([]), { ctx, _ in
            ctx.accumulated.map(Value.init) ?? .null
        })]),
        "+": fold(0, +),
        "*": fold(1, *),
        "-": BuiltinDefinition(type: .number, overloads: [
            (.fixed([.number, .number]), { ctx, a in .number(try a[0].evalNumber(ctx) - a[1].evalNumber(ctx)) }),
            (.fixed([.number]), { ctx, a in .number(-(try a[0].evalNumber(ctx))) }),
        ]),
        "/": math2(/),
        "%": math2 { $0.truncatingRemainder(dividingBy: $1) },
        "ln2": BuiltinDefinition(type: .number, overloads: [(.fixed([]), { _, _ in .number(M_LN2) })]),
        "pi": BuiltinDefinition(type: .number, overloads: [(.fixed([]), { _, _ in .number(Double.pi) })]),
        "e": BuiltinDefinition(type: .number, overloads: [(.fixed([]), { _, _ in .number(M_E) })]),
        "^": math2(pow),
        "sqrt": math1(sqrt),
        "log10": math1(log10),
        "ln": math1(log),
        "log2": math1(log2),
        "sin": math1(sin),
        "cos": math1(cos),
        "tan": math1(tan),
        "asin": math1(asin),
        "acos": math1(acos),
        "atan": math1(atan),
        "min": fold(.infinity) { x, y in (x.isNaN || y.isNaN) ? .nan : Swift.min(x, y) },
        "max": fold(-.infinity) { x, y in (x.isNaN || y.isNaN) ? .nan : Swift.max(x, y) },
        "abs": math1(abs),
        "round": math1 { $0 < 0 ? -(-$0 + 0.5).rounded(.down) : ($0 + 0.5).rounded(.down) },
        "floor": math1 { $0.rounded(.down) },
        "ceil": math1 { $0.rounded(.up) },
        "!": BuiltinDefinition(type: .boolean, overloads: [(.fixed([.boolean]), { ctx, a in .bool(!(try a[0].evalBool(ctx))) })]),
        "is-supported-script": BuiltinDefinition(type: .boolean, overloads: [(.fixed([.string]), { ctx, a in
            guard ctx.checksScripts else { return .bool(true) }
            return .bool(ScriptDetection.isSupported(try a[0].evalString(ctx), rightToLeft: true))
        })]),
        "upcase": BuiltinDefinition(type: .string, overloads: [(.fixed([.string]), { ctx, a in .string(try a[0].evalString(ctx).uppercased()) })]),
        "downcase": BuiltinDefinition(type: .string, overloads: [(.fixed([.string]), { ctx, a in .string(try a[0].evalString(ctx).lowercased()) })]),
        "concat": BuiltinDefinition(type: .string, overloads: [(.varargs(.value), { ctx, a in
            var s = ""
            for e in a { s += try e.evaluate(ctx).stringified }
            return .string(s)
        })]),
        "resolved-locale": BuiltinDefinition(type: .string, overloads: [(.fixed([.collator]), { ctx, a in
            guard case .collator(let c) = try a[0].evaluate(ctx) else { return .string("en") }
            return .string(c.locale ?? "en")
        })]),
        "split": BuiltinDefinition(type: .array(.string, nil), overloads: [(.fixed([.string, .string]), { ctx, a in
            let s = try a[0].evalString(ctx), sep = try a[1].evalString(ctx)
            if sep.isEmpty { return .array(s.map { .string(String($0)) }) }
            return .array(s.components(separatedBy: sep).map(Value.string))
        })]),
        "join": BuiltinDefinition(type: .string, overloads: [(.fixed([.array(.string, nil), .string]), { ctx, a in
            guard case .array(let items) = try a[0].evaluate(ctx) else { return .string("") }
            return .string(items.map(\.stringified).joined(separator: try a[1].evalString(ctx)))
        })]),
    ]

    /// Overload resolution as the reference implementation does it: the first signature whose
    /// arguments parse and type-check wins; otherwise the errors of the only candidate, or a summary.
    static func parse(_ args: [JSON], _ context: ParsingContext) -> Expr? {
        guard case .string(let op) = args[0], let def = definitions[op] else { return nil }
        let argCount = args.count - 1
        let candidates = def.overloads.filter { params, _ in
            if case .fixed(let ts) = params { return ts.count == argCount }
            return true
        }
        var lastContext: ParsingContext?
        for (params, fn) in candidates {
            let sig = ParsingContext(path: context.path, expectedType: nil, scope: context.scope, sink: ErrorSink())
            lastContext = sig
            var parsed: [Expr] = []
            var failed = false
            for i in 1..<max(args.count, 1) {
                let expected: ExprType
                switch params {
                case .fixed(let ts): expected = ts[i - 1]
                case .varargs(let t): expected = t
                }
                guard let p = sig.parse(args[i], i, expected) else { failed = true; break }
                parsed.append(p)
            }
            if failed { continue }
            for (i, p) in parsed.enumerated() {
                let expected: ExprType
                switch params {
                case .fixed(let ts): expected = ts[i]
                case .varargs(let t): expected = t
                }
                sig.concat(i + 1).checkSubtype(expected, p.type)
            }
            if sig.errors.isEmpty { return CallExpr(op, def.type, parsed, fn) }
        }
        if candidates.count == 1, let sig = lastContext {
            context.sink.errors.append(contentsOf: sig.errors)
        } else {
            let shown = candidates.isEmpty ? def.overloads : candidates
            let signatures = shown.map { $0.0.description }.joined(separator: " | ")
            var actual: [String] = []
            for i in 1..<max(args.count, 1) {
                guard let p = context.parse(args[i], i) else { return nil }
                actual.append(p.type.description)
            }
            context.error("Expected arguments of type \(signatures), but found (\(actual.joined(separator: ", "))) instead.")
        }
        return nil
    }
}

/// Lets a feature report a precise geometry name ("MultiPoint", ...) for `geometry-type`.
protocol GeometryTypeNaming { var geometryTypeName: String { get } }

func validateRGBA(_ c: [Double]) -> String? {
    let text = "[" + c.map(formatNumber).joined(separator: ", ") + "]"
    guard c.count >= 3, c.prefix(3).allSatisfy({ $0 >= 0 && $0 <= 255 }) else {
        return "Invalid rgba value \(text): 'r', 'g', and 'b' must be between 0 and 255."
    }
    if c.count > 3, !(c[3] >= 0 && c[3] <= 1) {
        return "Invalid rgba value \(text): 'a' must be between 0 and 1."
    }
    return nil
}
