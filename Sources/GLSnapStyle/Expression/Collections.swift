import Foundation

/// A generic node for the array/string operators whose evaluation is a closure over evaluated args.
final class FnExpr: Expr {
    let type: ExprType
    let args: [Expr]
    let fn: (EvaluationContext, [Expr]) throws -> Value
    init(_ type: ExprType, _ args: [Expr], _ fn: @escaping (EvaluationContext, [Expr]) throws -> Value) {
        self.type = type; self.args = args; self.fn = fn
    }
    func evaluate(_ ctx: EvaluationContext) throws -> Value { try fn(ctx, args) }
    var children: [Expr] { args }
}

enum CollectionParsers {
    static func at(_ args: [JSON], _ ctx: ParsingContext) -> Expr? {
        guard args.count == 3 else { return ctx.error("Expected 2 arguments, but found \(args.count - 1) instead.") }
        guard let index = ctx.parse(args[1], 1, .number),
              let input = ctx.parse(args[2], 2, .array(ctx.expectedType ?? .value, nil)) else { return nil }
        guard case .array(let item, _) = input.type else { return nil }
        return FnExpr(item, [index, input]) { c, a in
            let i = try a[0].evalNumber(c)
            guard case .array(let arr) = try a[1].evaluate(c) else { return .null }
            if i < 0 { throw RuntimeError("Array index out of bounds: \(formatNumber(i)) < 0.") }
            if i >= Double(arr.count) { throw RuntimeError("Array index out of bounds: \(formatNumber(i)) > \(arr.count - 1).") }
            if i != i.rounded(.down) { throw RuntimeError("Array index must be an integer, but found \(formatNumber(i)) instead.") }
            return arr[Int(i)]
        }
    }

    static func isIn(_ args: [JSON], _ ctx: ParsingContext) -> Expr? {
        guard args.count == 3 else { return ctx.error("Expected 2 arguments, but found \(args.count - 1) instead.") }
        guard let needle = ctx.parse(args[1], 1, .value), let haystack = ctx.parse(args[2], 2, .value) else { return nil }
        guard ["boolean", "string", "number", "null", "value"].contains(needle.type.kind) else {
            return ctx.error("Expected first argument to be of type boolean, string, number or null, but found \(needle.type) instead")
        }
        guard ["string", "array", "value"].contains(haystack.type.kind) else {
            return ctx.error("Expected second argument to be of type array or string, but found \(haystack.type) instead")
        }
        return FnExpr(.boolean, [needle, haystack]) { c, a in
            let n = try a[0].evaluate(c), h = try a[1].evaluate(c)
            guard ["boolean", "string", "number", "null"].contains(n.type.kind) else {
                throw RuntimeError("Expected first argument to be of type boolean, string, number or null, but found \(n.type) instead.")
            }
            switch h {
            case .null: return .bool(false)
            case .array(let items): return .bool(items.contains(n))
            case .string(let s):
                // As the reference: an empty haystack holds nothing; other needles are searched as text.
                if s.isEmpty { return .bool(false) }
                let ns = n == .null ? "null" : n.stringified
                return .bool(ns.isEmpty || s.contains(ns))
            default:
                throw RuntimeError("Expected second argument to be of type array or string, but found \(h.type) instead.")
            }
        }
    }

    static func indexOf(_ args: [JSON], _ ctx: ParsingContext) -> Expr? {
        guard args.count == 3 || args.count == 4 else { return ctx.error("Expected 2 or 3 arguments, but found \(args.count - 1) instead.") }
        guard let needle = ctx.parse(args[1], 1, .value), let haystack = ctx.parse(args[2], 2, .value) else { return nil }
        guard ["boolean", "string", "number", "null", "value"].contains(needle.type.kind) else {
            return ctx.error("Expected first argument to be of type boolean, string, number or null, but found \(needle.type) instead")
        }
        guard ["string", "array", "value"].contains(haystack.type.kind) else {
            return ctx.error("Expected second argument to be of type array or string, but found \(haystack.type) instead")
        }
        var parsed = [needle, haystack]
        if args.count == 4 {
            guard let from = ctx.parse(args[3], 3, .number) else { return nil }
            parsed.append(from)
        }
        return FnExpr(.number, parsed) { c, a in
            let n = try a[0].evaluate(c), h = try a[1].evaluate(c)
            guard ["boolean", "string", "number", "null"].contains(n.type.kind) else {
                throw RuntimeError("Expected first argument to be of type boolean, string, number or null, but found \(n.type) instead.")
            }
            var from = 0, fromValue = 0.0
            if a.count > 2 {
                let f = try a[2].evalNumber(c)
                guard f == f.rounded(.down), f.isFinite else { throw RuntimeError("Expected third argument to be an integer, but found \(formatNumber(f)) instead.") }
                fromValue = min(max(f, -1e15), 1e15)
                from = Int(max(fromValue, 0))
            }
            switch h {
            case .array(let items):
                // A negative start counts from the end, as JavaScript's Array.indexOf does.
                if fromValue < 0 { from = max(items.count + Int(fromValue), 0) }
                guard from < items.count else { return .number(-1) }
                return .number(Double(items[from...].firstIndex(of: n) ?? -1))
            case .string(let s):
                let hs = Array(s.unicodeScalars), ns = Array((n == .null ? "null" : n.stringified).unicodeScalars)
                if from > hs.count { return .number(ns.isEmpty ? Double(hs.count) : -1) }
                if ns.isEmpty { return .number(Double(from)) }
                var i = from
                while i + ns.count <= hs.count {
                    if Array(hs[i..<(i + ns.count)]) == ns { return .number(Double(i)) }
                    i += 1
                }
                return .number(-1)
            default:
                throw RuntimeError("Expected second argument to be of type array or string, but found \(h.type) instead.")
            }
        }
    }

    static func slice(_ args: [JSON], _ ctx: ParsingContext) -> Expr? {
        guard args.count == 3 || args.count == 4 else { return ctx.error("Expected 2 or 3 arguments, but found \(args.count - 1) instead.") }
        guard let input = ctx.parse(args[1], 1, .value), let begin = ctx.parse(args[2], 2, .number) else { return nil }
        guard ["string", "array", "value"].contains(input.type.kind) else {
            return ctx.error("Expected first argument to be of type array or string, but found \(input.type) instead")
        }
        var parsed = [input, begin]
        if args.count == 4 {
            guard let end = ctx.parse(args[3], 3, .number) else { return nil }
            parsed.append(end)
        }
        return FnExpr(input.type, parsed) { c, a in
            let v = try a[0].evaluate(c)
            let b = try a[1].evalNumber(c)
            let e: Double? = a.count > 2 ? try a[2].evalNumber(c) : nil
            func range(_ n: Int) -> Range<Int> {
                func clampIndex(_ x: Double) -> Int {
                    let t = x.rounded(.towardZero)
                    if t < 0 { return max(n + Int(max(t, -1e15)), 0) }
                    return min(Int(min(t, 1e15)), n)
                }
                let lo = clampIndex(b), hi = e.map(clampIndex) ?? n
                return lo..<max(lo, hi)
            }
            switch v {
            case .array(let items): return .array(Array(items[range(items.count)]))
            case .string(let s):
                let u = Array(s.unicodeScalars)
                var out = String.UnicodeScalarView()
                out.append(contentsOf: u[range(u.count)])
                return .string(String(out))
            default:
                throw RuntimeError("Expected first argument to be of type array or string, but found \(v.type) instead.")
            }
        }
    }

    static func length(_ args: [JSON], _ ctx: ParsingContext) -> Expr? {
        guard args.count == 2 else { return ctx.error("Expected 1 argument, but found \(args.count - 1) instead.") }
        guard let input = ctx.parse(args[1], 1) else { return nil }
        guard ["string", "array", "value"].contains(input.type.kind) else {
            return ctx.error("Expected argument of type string or array, but found \(input.type) instead.")
        }
        return FnExpr(.number, [input]) { c, a in
            let v = try a[0].evaluate(c)
            switch v {
            case .string(let s): return .number(Double(s.unicodeScalars.count))
            case .array(let items): return .number(Double(items.count))
            default: throw RuntimeError("Expected value to be of type string or array, but found \(v.type) instead.")
            }
        }
    }
}

/// `semiliteral`: a literal array whose items may be expressions (`["semiliteral", [["get", "x"], 2]]`);
/// any other argument is a plain literal.
final class SemiliteralExpr: Expr {
    let type: ExprType
    let items: [Expr]
    init(_ type: ExprType, _ items: [Expr]) { self.type = type; self.items = items }
    var children: [Expr] { items }
    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        var out: [Value] = []
        out.reserveCapacity(items.count)
        for e in items { out.append(try e.evaluate(ctx)) }
        return .array(out)
    }

    static func parse(_ args: [JSON], _ ctx: ParsingContext) -> Expr? {
        guard args.count == 2 else {
            return ctx.error("'semiliteral' expression requires exactly one argument, but found \(args.count - 1) instead.")
        }
        guard case .array(let a) = args[1] else { return ControlParsers.literal(args, ctx) }
        var items: [Expr] = []
        var item: ExprType?
        for (i, j) in a.enumerated() {
            guard let e = ctx.concat(1).parse(j, i) else { return nil }
            if item == nil { item = e.type } else if item != e.type { item = .value }
            items.append(e)
        }
        return SemiliteralExpr(.array(item ?? .value, items.count), items)
    }
}
