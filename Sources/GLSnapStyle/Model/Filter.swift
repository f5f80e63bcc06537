/// A compiled layer filter: an expression filter, or a legacy filter evaluated directly.
public struct Filter: @unchecked Sendable {
    enum Kind {
        case expression(Expr)
        case legacy(LegacyFilter)
        case constant(Bool)
    }
    let kind: Kind

    /// A filter from its JSON (expression or legacy syntax); nil when it does not compile.
    public static func parse(_ json: JSON) -> Filter? {
        compile(json).0
    }

    /// Compiles a filter, detecting legacy vs expression syntax the way MapLibre does.
    static func compile(_ json: JSON) -> (Filter?, [ExpressionError]) {
        if case .bool(let b) = json { return (Filter(kind: .constant(b)), []) }
        if isExpressionFilter(json) {
            let (e, errors) = ExpressionCompiler.compile(json, expected: .boolean)
            guard let e else { return (nil, errors) }
            if let lit = e as? LiteralExpr, case .bool(let b) = lit.value { return (Filter(kind: .constant(b)), []) }
            return (Filter(kind: .expression(e)), [])
        }
        guard let legacy = LegacyFilter(json) else {
            // `any`/`all` mixing legacy and expression members: GL JS reads the whole as an
            // expression (a legacy `["==", "key", "value"]` then compares two strings).
            if isMixedCombination(json) {
                let (e, errors) = ExpressionCompiler.compile(json, expected: .boolean)
                if let e, errors.isEmpty { return (Filter(kind: .expression(e)), []) }
            }
            return (nil, [ExpressionError(key: "", message: "Invalid filter \(Value(json).jsonText).")])
        }
        return (Filter(kind: .legacy(legacy)), [])
    }

    /// An `any` or `all` of which some members are expression filters (and others are not).
    static func isMixedCombination(_ f: JSON) -> Bool {
        guard case .array(let a) = f, case .string(let op)? = a.first, op == "any" || op == "all" else { return false }
        return a.dropFirst().contains { isExpressionFilter($0) }
    }

    static func isExpressionFilter(_ f: JSON) -> Bool {
        if case .bool = f { return true }
        guard case .array(let a) = f, case .string(let op)? = a.first else { return false }
        switch op {
        case "has": return a.count >= 2 && a[1] != .string("$id") && a[1] != .string("$type")
        case "in":
            if a.count < 3 { return false }
            if case .string = a[1] { if case .array = a[2] { return true }; return false }
            return true
        case "!in", "!has", "none": return false
        case "==", "!=", ">", ">=", "<", "<=":
            if a.count != 3 { return true }
            if case .array = a[1] { return true }
            if case .array = a[2] { return true }
            return false
        case "any", "all":
            for sub in a.dropFirst() {
                if case .bool = sub { continue }
                if !isExpressionFilter(sub) { return false }
            }
            return true
        default: return true
        }
    }

    /// Whether a feature with this geometry type, id and properties passes, when that is known without
    /// an `EvaluationContext` (a legacy or constant filter); nil for an expression filter, which the
    /// caller evaluates with `evaluate(_:)`. Spares hot loops an existential box per feature.
    public func evaluateWithoutContext(type: GeometryType, id: () -> JSON?, property: (String) -> JSON?) -> Bool? {
        switch kind {
        case .constant(let b): return b
        case .legacy(let f): return f.evaluate(type: type, id: id, property: property)
        case .expression: return nil
        }
    }

    /// Whether the feature in `ctx` passes. Evaluation errors count as "does not pass".
    public func evaluate(_ ctx: EvaluationContext) -> Bool {
        switch kind {
        case .constant(let b): return b
        case .legacy(let f): return f.evaluate(ctx)
        case .expression(let e):
            if case .bool(let b)? = try? e.evaluate(ctx) { return b }
            return false
        }
    }
}

/// The pre-expression filter syntax (`["==", "class", "street"]`, `["in", "$type", ...]`, ...).
indirect enum LegacyFilter {
    enum Key { case property(String), type, id }
    case compare(ComparisonExpr.Op, Key, JSON)
    case isIn(Key, [JSON], negated: Bool)
    case has(Key, negated: Bool)
    /// `$type` compared with `==`, `!=`, `in` or `!in`: bit n of `mask` set for the geometry type of
    /// raw value n that matches (no string built and compared per feature).
    case typeIn(mask: UInt8, negated: Bool)
    case all([LegacyFilter]), any([LegacyFilter]), none([LegacyFilter])
    case constant(Bool)

    init?(_ json: JSON) {
        guard case .array(let a) = json, case .string(let op)? = a.first else {
            if case .bool(let b) = json { self = .constant(b); return }
            return nil
        }
        func key(_ j: JSON) -> Key? {
            guard case .string(let s) = j else { return nil }
            return s == "$type" ? .type : (s == "$id" ? .id : .property(s))
        }
        func typeMask(_ values: ArraySlice<JSON>) -> UInt8 {
            var mask: UInt8 = 0
            for v in values {
                if case .string(let name) = v, let i = LegacyFilter.typeNames.firstIndex(of: name) { mask |= 1 << UInt8(i) }
            }
            return mask
        }
        if a.count >= 2, case .type? = key(a[1]) {
            if (op == "==" || op == "!=") && a.count == 3 {
                self = .typeIn(mask: typeMask(a[2...2]), negated: op == "!="); return
            }
            if op == "in" || op == "!in" {
                self = .typeIn(mask: typeMask(a[2...]), negated: op == "!in"); return
            }
        }
        switch op {
        case "==", "!=", "<", "<=", ">", ">=":
            guard a.count == 3, let k = key(a[1]), let cop = ComparisonExpr.Op(rawValue: op) else { return nil }
            self = .compare(cop, k, a[2])
        case "in", "!in":
            guard a.count >= 2, let k = key(a[1]) else { return nil }
            self = .isIn(k, Array(a.dropFirst(2)), negated: op == "!in")
        case "has", "!has":
            guard a.count == 2, let k = key(a[1]) else { return nil }
            self = .has(k, negated: op == "!has")
        case "all", "any", "none":
            var subs: [LegacyFilter] = []
            for s in a.dropFirst() { guard let f = LegacyFilter(s) else { return nil }; subs.append(f) }
            self = op == "all" ? .all(subs) : (op == "any" ? .any(subs) : .none(subs))
        default: return nil
        }
    }

    static let typeNames = ["Unknown", "Point", "LineString", "Polygon"]

    func evaluate(_ ctx: EvaluationContext) -> Bool {
        let f = ctx.feature
        return evaluate(type: f?.geometryType, id: { f?.featureID }, property: { f?.property($0) })
    }

    /// Legacy filters read only the feature: its geometry type (nil when there is no feature), id and
    /// properties, read here through closures so a caller needs no existential box per feature.
    func evaluate(type: GeometryType?, id: () -> JSON?, property: (String) -> JSON?) -> Bool {
        func lookup(_ k: Key) -> JSON? {
            guard let type else { return nil }
            switch k {
            case .property(let p): return property(p)
            case .id: return id()
            case .type: return .string(LegacyFilter.typeNames[Int(type.rawValue)])
            }
        }
        switch self {
        case .constant(let b): return b
        case .compare(let op, let k, let v):
            let actual = lookup(k)
            switch op {
            case .eq: return actual == v
            case .ne: return actual != v
            default:
                guard let actual else { return false }
                return ComparisonExpr.compare(op, Value(actual), Value(v))
            }
        case .isIn(let k, let values, let negated):
            let actual = lookup(k)
            let found = actual.map { values.contains($0) } ?? false
            return found != negated
        case .typeIn(let mask, let negated):
            // No feature: not found, as a missing `$type` equals no value.
            let found = type.map { mask & (1 << ($0.rawValue & 7)) != 0 } ?? false
            return found != negated
        case .has(let k, let negated):
            let present: Bool
            switch k {
            case .type: present = type != nil
            case .id: present = type != nil && id() != nil
            case .property(let p): present = type != nil && property(p) != nil
            }
            return present != negated
        case .all(let fs): return fs.allSatisfy { $0.evaluate(type: type, id: id, property: property) }
        case .any(let fs): return fs.contains { $0.evaluate(type: type, id: id, property: property) }
        case .none(let fs): return !fs.contains { $0.evaluate(type: type, id: id, property: property) }
        }
    }
}
