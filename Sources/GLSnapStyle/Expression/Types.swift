import Foundation

/// `string`, `number`, `boolean`, `object`, `array`: the first argument of the asserted type wins.
final class AssertionExpr: Expr {
    let type: ExprType
    let args: [Expr]
    init(_ type: ExprType, _ args: [Expr]) { self.type = type; self.args = args }
    var children: [Expr] { args }
    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        for (i, a) in args.enumerated() {
            let v = try a.evaluate(ctx)
            if type.subtypeError(v.type) == nil { return v }
            if i == args.count - 1 {
                throw RuntimeError("Expected value to be of type \(type), but found \(v.type) instead.")
            }
        }
        return .null
    }

    static let names: [String: ExprType] = ["string": .string, "number": .number, "boolean": .boolean, "object": .object]

    static func parse(_ args: [JSON], _ ctx: ParsingContext) -> Expr? {
        guard args.count >= 2, case .string(let name) = args[0] else { return ctx.error("Expected at least one argument.") }
        var i = 1
        let type: ExprType
        if name == "array" {
            var item = ExprType.value
            var n: Int?
            if args.count > 2 {
                guard case .string(let t) = args[1], let it = names[t], t != "object" else {
                    return ctx.error("The item type argument of \"array\" must be one of string, number, boolean", 1)
                }
                item = it; i += 1
            }
            if args.count > 3 {
                if args[2] != .null {
                    guard case .number(let len) = args[2], len >= 0, len == len.rounded(.down), len < 1e9 else {
                        return ctx.error("The length argument to \"array\" must be a positive integer literal", 2)
                    }
                    n = Int(len)
                }
                i += 1
            }
            type = .array(item, n)
        } else {
            guard let t = names[name] else { return nil }
            type = t
        }
        var parsed: [Expr] = []
        while i < args.count {
            guard let p = ctx.parse(args[i], i, .value) else { return nil }
            parsed.append(p)
            i += 1
        }
        return AssertionExpr(type, parsed)
    }
}

/// `to-boolean`, `to-color`, `to-number`, `to-string` and the implicit conversions to color,
/// formatted, image and padding types.
final class CoercionExpr: Expr {
    let type: ExprType
    let args: [Expr]
    init(_ type: ExprType, _ args: [Expr]) { self.type = type; self.args = args }
    var children: [Expr] { args }

    static let names: [String: ExprType] = ["to-boolean": .boolean, "to-color": .color, "to-number": .number, "to-string": .string]

    static func parse(_ args: [JSON], _ ctx: ParsingContext) -> Expr? {
        guard args.count >= 2, case .string(let name) = args[0], let type = names[name] else { return ctx.error("Expected at least one argument.") }
        if (name == "to-boolean" || name == "to-string") && args.count != 2 { return ctx.error("Expected one argument.") }
        var parsed: [Expr] = []
        for i in 1..<args.count {
            guard let p = ctx.parse(args[i], i, .value) else { return nil }
            parsed.append(p)
        }
        return CoercionExpr(type, parsed)
    }

    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        switch type {
        case .boolean:
            switch try args[0].evaluate(ctx) {
            case .null: return .bool(false)
            case .bool(let b): return .bool(b)
            case .number(let n): return .bool(!(n == 0 || n.isNaN))
            case .string(let s): return .bool(!s.isEmpty)
            default: return .bool(true)
            }
        case .color:
            var last: Value = .null
            var problem: String?
            for a in args {
                let v = try a.evaluate(ctx)
                last = v
                problem = nil
                switch v {
                case .color: return v
                case .string(let s): if let c = Color.parse(s) { return .color(c) }
                case .array(let items):
                    if items.count < 3 || items.count > 4 {
                        problem = "Invalid rgba value \(v.jsonText): expected an array containing either three or four numeric values."
                    } else {
                        let nums = items.compactMap(\.number)
                        if nums.count != items.count { problem = "Invalid rgba value \(v.jsonText): expected an array containing either three or four numeric values." }
                        else if let m = validateRGBA(nums) { problem = m }
                        else { return .color(Color(straightR: nums[0] / 255, g: nums[1] / 255, b: nums[2] / 255, a: nums.count > 3 ? nums[3] : 1)) }
                    }
                default: break
                }
            }
            let shown: String
            if case .string(let s) = last { shown = s } else { shown = last.jsonText }
            throw RuntimeError(problem ?? "Could not parse color from value '\(shown)'")
        case .number:
            var last: Value = .null
            for a in args {
                let v = try a.evaluate(ctx)
                last = v
                if v == .null { return .number(0) }
                if let n = jsNumber(v), !n.isNaN { return .number(n) }
            }
            throw RuntimeError("Could not convert \(last.jsonText) to number.")
        case .formatted:
            let v = try args[0].evaluate(ctx)
            if case .formatted = v { return v }
            if case .image(let img) = v { return .formatted(Formatted(sections: [.init(text: "", image: img)])) }
            return .formatted(Formatted(sections: [.init(text: v.stringified)]))
        case .resolvedImage:
            let v = try args[0].evaluate(ctx)
            if case .image = v { return v }
            let name = v.stringified
            return .image(ResolvedImage(name: name, available: ctx.availableImages?.contains(name) ?? true, params: [:]))
        case .padding, .numberArray:
            let v = try args[0].evaluate(ctx)
            switch v {
            case .number(let n): return type == .padding ? .padding([n, n, n, n]) : .array([.number(n)])
            case .padding: return v
            case .array(let items):
                let nums = items.compactMap(\.number)
                if nums.count == items.count {
                    if type == .numberArray { return v }
                    switch nums.count {
                    case 1: return .padding([nums[0], nums[0], nums[0], nums[0]])
                    case 2: return .padding([nums[0], nums[1], nums[0], nums[1]])
                    case 3: return .padding([nums[0], nums[1], nums[2], nums[1]])
                    case 4: return .padding(nums)
                    default: break
                    }
                }
            default: break
            }
            throw RuntimeError("Could not parse \(type == .padding ? "padding" : "numberArray") from value '\(v.messageText)'")
        case .colorArray:
            let v = try args[0].evaluate(ctx)
            switch v {
            case .color: return .array([v])
            case .string(let s): if let c = Color.parse(s) { return .array([.color(c)]) }
            case .array(let items):
                var out: [Value] = []
                for item in items {
                    if case .color = item { out.append(item) } else if case .string(let s) = item, let c = Color.parse(s) { out.append(.color(c)) } else { break }
                }
                if out.count == items.count { return .array(out) }
            default: break
            }
            throw RuntimeError("Could not parse colorArray from value '\(v.messageText)'")
        case .variableAnchorOffsetCollection:
            return try args[0].evaluate(ctx)
        case .projectionDefinition:
            // A projection name, a [from, to, transition] triple, or an interpolated {from, to, transition}.
            let v = try args[0].evaluate(ctx)
            switch v {
            case .string: return v
            case .array(let a) where a.count == 3: return v
            case .object(let o) where o["from"] != nil && o["to"] != nil && o["transition"] != nil: return v
            default: throw RuntimeError("Could not parse projectionDefinition from value '\(v.messageText)'")
            }
        default:
            return .string(try args[0].evaluate(ctx).stringified)
        }
    }
}

/// JavaScript's `Number(v)` for the values expressions see.
func jsNumber(_ v: Value) -> Double? {
    switch v {
    case .null: return 0
    case .bool(let b): return b ? 1 : 0
    case .number(let n): return n
    case .string(let s):
        let t = s.trimmingCharacters(in: .whitespacesAndNewlines)
        if t.isEmpty { return 0 }
        if t == "Infinity" || t == "+Infinity" { return .infinity }
        if t == "-Infinity" { return -.infinity }
        if t.lowercased().hasPrefix("0x"), let n = UInt64(t.dropFirst(2), radix: 16) { return Double(n) }
        if t.contains(where: { $0.isLetter && $0 != "e" && $0 != "E" }) { return .nan }
        return Double(t) ?? .nan
    default: return .nan
    }
}

/// `==`, `!=`, `<`, `<=`, `>`, `>=` with an optional collator.
final class ComparisonExpr: Expr {
    enum Op: String { case eq = "==", ne = "!=", lt = "<", le = "<=", gt = ">", ge = ">=" }
    let op: Op
    let lhs: Expr, rhs: Expr
    let collator: Expr?
    let hasUntyped: Bool
    init(_ op: Op, _ lhs: Expr, _ rhs: Expr, _ collator: Expr?) {
        self.op = op; self.lhs = lhs; self.rhs = rhs; self.collator = collator
        hasUntyped = lhs.type == .value || rhs.type == .value
    }
    var type: ExprType { .boolean }
    var children: [Expr] { [lhs, rhs] + (collator.map { [$0] } ?? []) }
    var isOrder: Bool { op != .eq && op != .ne }

    static func comparable(_ op: Op, _ t: ExprType) -> Bool {
        if op == .eq || op == .ne { return [.boolean, .string, .number, .null, .value].contains(t) }
        return [.string, .number, .value].contains(t)
    }

    static func parse(_ args: [JSON], _ ctx: ParsingContext) -> Expr? {
        guard case .string(let name) = args[0], let op = Op(rawValue: name) else { return nil }
        guard args.count == 3 || args.count == 4 else { return ctx.error("Expected two or three arguments.") }
        guard var lhs = ctx.parse(args[1], 1, .value) else { return nil }
        guard comparable(op, lhs.type) else {
            return ctx.concat(1).error("\"\(name)\" comparisons are not supported for type '\(lhs.type)'.")
        }
        guard var rhs = ctx.parse(args[2], 2, .value) else { return nil }
        guard comparable(op, rhs.type) else {
            return ctx.concat(2).error("\"\(name)\" comparisons are not supported for type '\(rhs.type)'.")
        }
        if lhs.type.kind != rhs.type.kind && lhs.type != .value && rhs.type != .value {
            return ctx.error("Cannot compare types '\(lhs.type)' and '\(rhs.type)'.")
        }
        if op != .eq && op != .ne {
            if lhs.type == .value && rhs.type != .value { lhs = AssertionExpr(rhs.type, [lhs]) }
            else if rhs.type == .value && lhs.type != .value { rhs = AssertionExpr(lhs.type, [rhs]) }
        }
        var collator: Expr?
        if args.count == 4 {
            if lhs.type != .string && rhs.type != .string && lhs.type != .value && rhs.type != .value {
                return ctx.error("Cannot use collator to compare non-string types.")
            }
            guard let c = ctx.parse(args[3], 3, .collator) else { return nil }
            collator = c
        }
        return ComparisonExpr(op, lhs, rhs, collator)
    }

    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        let a = try lhs.evaluate(ctx), b = try rhs.evaluate(ctx)
        if isOrder && hasUntyped {
            let ta = a.type.kind, tb = b.type.kind
            if ta != tb || !(ta == "string" || ta == "number") {
                throw RuntimeError("Expected arguments for \"\(op.rawValue)\" to be (string, string) or (number, number), but found (\(ta), \(tb)) instead.")
            }
        }
        if let collator, case .string(let x) = a, case .string(let y) = b,
           case .collator(let c) = try collator.evaluate(ctx) {
            let r = c.compare(x, y)
            switch op {
            case .eq: return .bool(r == 0)
            case .ne: return .bool(r != 0)
            case .lt: return .bool(r < 0)
            case .le: return .bool(r <= 0)
            case .gt: return .bool(r > 0)
            case .ge: return .bool(r >= 0)
            }
        }
        return .bool(ComparisonExpr.compare(op, a, b))
    }

    static func compare(_ op: Op, _ a: Value, _ b: Value) -> Bool {
        switch op {
        case .eq: return a == b
        case .ne: return a != b
        default: break
        }
        switch (a, b) {
        case (.number(let x), .number(let y)):
            switch op { case .lt: return x < y; case .le: return x <= y; case .gt: return x > y; default: return x >= y }
        case (.string(let x), .string(let y)):
            let xs = Array(x.utf16), ys = Array(y.utf16)
            switch op {
            case .lt: return xs.lexicographicallyPrecedes(ys)
            case .le: return !ys.lexicographicallyPrecedes(xs)
            case .gt: return ys.lexicographicallyPrecedes(xs)
            default: return !xs.lexicographicallyPrecedes(ys)
            }
        default: return false
        }
    }
}
