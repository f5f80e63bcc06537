/// What an expression is evaluated against: zoom, the feature, its state and a few globals.
public struct EvaluationContext {
    public var zoom: Double
    /// Whether `is-supported-script` judges scripts (as MapLibre does when its RTL support is
    /// loaded: glsnap shapes and reorders right-to-left text). False (the default, as in the
    /// style-spec expression tests, which give no such context): every string is supported.
    public var checksScripts = false
    public var feature: (any FeatureContext)?
    public var featureState: [String: JSON]
    /// For `heatmap-color`.
    public var heatmapDensity: Double?
    /// For `line-gradient`.
    public var lineProgress: Double?
    /// For `color-relief-color`: meters.
    public var elevation: Double?
    /// Values for `global-state`.
    public var globalState: [String: JSON]
    /// Image names the style holds, for `image` availability; nil means every image counts as available.
    public var availableImages: Set<String>?
    /// The tile being evaluated, for `within` and `distance`.
    public var canonicalID: CanonicalTileID?
    /// The coordinate extent of `FeatureContext.tileGeometry()` (4096 in most vector tiles).
    public var geometryExtent: Double
    /// For `accumulated` in a clustered source's `clusterProperties` reduce: the value folded so far.
    public var accumulated: JSON? = nil

    public init(zoom: Double, feature: (any FeatureContext)? = nil) {
        self.zoom = zoom
        self.feature = feature
        self.featureState = [:]
        self.heatmapDensity = nil
        self.lineProgress = nil
        self.elevation = nil
        self.globalState = [:]
        self.availableImages = nil
        self.canonicalID = nil
        self.geometryExtent = 8192
    }
}

/// An error raised while evaluating an expression (a failed assertion, a bad conversion, ...).
struct RuntimeError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// A compiled expression node. Nodes are built once and evaluated many times.
protocol Expr: AnyObject {
    var type: ExprType { get }
    func evaluate(_ ctx: EvaluationContext) throws -> Value
    /// Child expressions, for static analysis (constness, zoom curve search).
    var children: [Expr] { get }
}

extension Expr {
    func evalNumber(_ ctx: EvaluationContext) throws -> Double {
        let v = try evaluate(ctx)
        if case .number(let n) = v { return n }
        throw RuntimeError("Expected value to be of type number, but found \(v.type) instead.")
    }
    func evalString(_ ctx: EvaluationContext) throws -> String {
        let v = try evaluate(ctx)
        if case .string(let s) = v { return s }
        throw RuntimeError("Expected value to be of type string, but found \(v.type) instead.")
    }
    func evalBool(_ ctx: EvaluationContext) throws -> Bool {
        let v = try evaluate(ctx)
        if case .bool(let b) = v { return b }
        throw RuntimeError("Expected value to be of type boolean, but found \(v.type) instead.")
    }
}

/// A constant.
final class LiteralExpr: Expr {
    let type: ExprType
    let value: Value
    init(_ type: ExprType, _ value: Value) { self.type = type; self.value = value }
    func evaluate(_ ctx: EvaluationContext) throws -> Value { value }
    var children: [Expr] { [] }
}

/// A built-in operator with fixed-arity or variadic arguments ("+", "get", "rgb", ...).
final class CallExpr: Expr {
    let name: String
    let type: ExprType
    let args: [Expr]
    let fn: (EvaluationContext, [Expr]) throws -> Value
    init(_ name: String, _ type: ExprType, _ args: [Expr], _ fn: @escaping (EvaluationContext, [Expr]) throws -> Value) {
        self.name = name; self.type = type; self.args = args; self.fn = fn
    }
    func evaluate(_ ctx: EvaluationContext) throws -> Value { try fn(ctx, args) }
    var children: [Expr] { args }
}

/// `["var", name]`: re-evaluates the bound expression.
final class VarExpr: Expr {
    let name: String
    let bound: Expr
    init(_ name: String, _ bound: Expr) { self.name = name; self.bound = bound }
    var type: ExprType { bound.type }
    func evaluate(_ ctx: EvaluationContext) throws -> Value { try bound.evaluate(ctx) }
    var children: [Expr] { [] }
}

/// `["let", name, value, ..., body]`.
final class LetExpr: Expr {
    let bindings: [(String, Expr)]
    let body: Expr
    init(_ bindings: [(String, Expr)], _ body: Expr) { self.bindings = bindings; self.body = body }
    var type: ExprType { body.type }
    func evaluate(_ ctx: EvaluationContext) throws -> Value { try body.evaluate(ctx) }
    var children: [Expr] { bindings.map(\.1) + [body] }
}

enum ExprAnalysis {
    /// Gives every `global-state` node in `e` the style's default for its key.
    static func applyGlobalStateDefaults(_ e: Expr, _ defaults: [String: Value]) {
        guard !defaults.isEmpty else { return }
        if let g = e as? GlobalStateExpr { g.fallback = defaults[g.key] }
        for child in e.children { applyGlobalStateDefaults(child, defaults) }
    }

    static let featureOps: Set<String> = ["get", "has", "properties", "geometry-type", "id", "feature-state",
                                          "filter-type-in", "filter-id-in", "accumulated"]

    static func isFeatureConstant(_ e: Expr) -> Bool {
        if let c = e as? CallExpr {
            if (c.name == "get" || c.name == "has") && c.args.count == 1 { return false }
            if c.name != "get" && c.name != "has" && featureOps.contains(c.name) { return false }
        }
        if e is WithinExpr || e is DistanceExpr { return false }
        if let v = e as? VarExpr { return isFeatureConstant(v.bound) }
        return e.children.allSatisfy(isFeatureConstant)
    }

    static func isStateConstant(_ e: Expr) -> Bool {
        if let c = e as? CallExpr, c.name == "feature-state" { return false }
        if let v = e as? VarExpr { return isStateConstant(v.bound) }
        return e.children.allSatisfy(isStateConstant)
    }

    /// Whether `e` reads none of the named global inputs ("zoom", "heatmap-density", ...).
    static func isGlobalConstant(_ e: Expr, _ names: Set<String>) -> Bool {
        if let c = e as? CallExpr, names.contains(c.name) { return false }
        if e is GlobalStateExpr && names.contains("global-state") { return false }
        if let v = e as? VarExpr { return isGlobalConstant(v.bound, names) }
        return e.children.allSatisfy { isGlobalConstant($0, names) }
    }

    static let allGlobals: Set<String> = ["zoom", "heatmap-density", "elevation", "line-progress", "accumulated",
                                          "is-supported-script", "global-state"]

    /// Whether every value `e` can produce is written as a literal in it (what `text-font` needs:
    /// fonts must be known before any feature is seen).
    static func isOutputDefined(_ e: Expr) -> Bool {
        switch e {
        case is LiteralExpr: return true
        case let a as AssertionExpr: return a.args.allSatisfy(isOutputDefined)
        case let c as CoercionExpr: return c.args.allSatisfy(isOutputDefined)
        case let c as CaseExpr: return c.branches.allSatisfy { isOutputDefined($0.1) } && isOutputDefined(c.otherwise)
        case let m as MatchExpr: return m.outputs.allSatisfy(isOutputDefined) && isOutputDefined(m.otherwise)
        case let c as CoalesceExpr: return c.args.allSatisfy(isOutputDefined)
        case let s as StepExpr: return s.outputs.allSatisfy(isOutputDefined)
        case let i as InterpolateExpr: return i.outputs.allSatisfy(isOutputDefined)
        case let l as LetExpr: return isOutputDefined(l.body)
        case let v as VarExpr: return isOutputDefined(v.bound)
        default: return false
        }
    }

    /// Whether `e` can be folded to a literal at compile time.
    static func isConstant(_ e: Expr) -> Bool {
        if let v = e as? VarExpr { return isConstant(v.bound) }
        if let c = e as? CallExpr, c.name == "error" { return false }
        if e is CollatorExpr || e is WithinExpr || e is DistanceExpr || e is GlobalStateExpr { return false }
        if e is ImageExpr { return false }
        for child in e.children where !isConstant(child) { return false }
        return isFeatureConstant(e) && isGlobalConstant(e, allGlobals)
    }
}
