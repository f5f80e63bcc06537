/// A layout or paint property's value: a constant, or a compiled expression (legacy functions and
/// token strings are compiled to expressions too).
public struct PropertyValue: @unchecked Sendable {
    enum Kind {
        case constant(Value)
        case expression(Expr)
    }
    let kind: Kind
    let defaultValue: Value
    let enumValues: [String]?

    /// True when the value does not depend on zoom.
    public let isZoomConstant: Bool
    /// True when the value does not depend on the feature (properties, id, geometry type, state).
    public let isFeatureConstant: Bool
    /// True when the value does not read `feature-state`.
    public let isStateConstant: Bool

    init(constant: Value, defaultValue: Value) {
        kind = .constant(constant)
        self.defaultValue = defaultValue
        enumValues = nil
        isZoomConstant = true
        isFeatureConstant = true
        isStateConstant = true
    }

    init(expression: Expr, info: PropertyTypeInfo) {
        // A constant NaN (`["sqrt", -1]` folded) stays an expression, so that it evaluates to the
        // default as every NaN result does.
        if let lit = expression as? LiteralExpr, lit.value != .null, !(lit.value.number?.isNaN ?? false) {
            kind = .constant(lit.value)
        } else {
            kind = .expression(expression)
        }
        defaultValue = info.defaultValue
        enumValues = info.enumValues
        isZoomConstant = ExprAnalysis.isGlobalConstant(expression, ["zoom"])
        isFeatureConstant = ExprAnalysis.isFeatureConstant(expression)
        isStateConstant = ExprAnalysis.isStateConstant(expression)
    }

    /// The constant value, when the property has one.
    public var constantValue: Value? {
        if case .constant(let v) = kind { return v }
        return nil
    }

    /// Compiles a property's JSON (constant, legacy function, token string or expression).
    static func compile(_ json: JSON, _ info: PropertyTypeInfo, globalState: [String: Value] = [:]) -> (PropertyValue?, [ExpressionError]) {
        var expr = json
        switch json {
        case .object(let o): expr = LegacyFunction.convert(o, info)
        case .array:
            if !LegacyFunction.isExpression(json) { expr = .array([.string("literal"), json]) }
        case .string(let s) where info.usesTokens: expr = LegacyFunction.tokenString(s)
        default: break
        }
        let (root, errors) = PropertyCompiler.compileExpression(expr, info)
        guard let root else { return (nil, errors) }
        ExprAnalysis.applyGlobalStateDefaults(root, globalState)
        return (PropertyValue(expression: root, info: info), [])
    }

    /// The stops' inputs of an `interpolate` the value is (`["interpolate", …, ["elevation"], 400, …]`
    /// gives [400, …]); nil for constants and other expressions. A color ramp drawn between its
    /// stops (`color-relief-color`) samples the expression there.
    public var interpolationStops: [Double]? {
        guard case .expression(let e) = kind, let curve = e as? InterpolateExpr else { return nil }
        return curve.labels
    }

    /// Evaluates the property. A runtime error, null or NaN yields the property's default, as MapLibre does.
    public func evaluate(_ ctx: EvaluationContext) -> Value {
        switch kind {
        case .constant(let v): return v
        case .expression(let e):
            guard let v = try? e.evaluate(ctx) else { return defaultValue }
            switch v {
            case .null: return defaultValue
            case .number(let n) where n.isNaN: return defaultValue
            case .string(let s) where enumValues != nil && !(enumValues ?? []).contains(s): return defaultValue
            default: return v
            }
        }
    }

    /// The value as a number (0 when it is not one).
    public func evaluateNumber(_ ctx: EvaluationContext) -> Double { evaluate(ctx).number ?? 0 }
    /// The value as a color (transparent black when it is not one).
    public func evaluateColor(_ ctx: EvaluationContext) -> Color { evaluate(ctx).color ?? .transparent }
    /// The value as a string (formatted text and images flattened to their text/name).
    public func evaluateString(_ ctx: EvaluationContext) -> String {
        let v = evaluate(ctx)
        if case .null = v { return "" }
        return v.stringified
    }
    /// The value as a boolean (false when it is not one).
    public func evaluateBool(_ ctx: EvaluationContext) -> Bool { evaluate(ctx).bool ?? false }
    /// The value as numbers (arrays and padding; a single number gives one element).
    public func evaluateNumbers(_ ctx: EvaluationContext) -> [Double] {
        switch evaluate(ctx) {
        case .array(let a): return a.compactMap(\.number)
        case .padding(let p): return p
        case .number(let n): return [n]
        default: return []
        }
    }
}
