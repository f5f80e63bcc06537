/// What the property-level compiler needs to know about a property (from the spec tables, or from
/// an expression test's `propertySpec`).
struct PropertyTypeInfo {
    var expectedType: ExprType?
    var isDataDriven: Bool
    var allowsZoom: Bool
    var isInterpolated: Bool
    var isStringType: Bool
    var enumValues: [String]?
    var usesTokens: Bool
    var defaultValue: Value
    /// The spec default as written, for legacy functions without their own `default`.
    var defaultJSON: JSON?
    /// The spec's type name ("number", "enum", "array", ...) and, for arrays, item type and length.
    var specTypeName = "value"
    var arrayItem: String?
    var arrayLength: Int?

    init(spec: PropertySpec) {
        expectedType = PropertyTypeInfo.exprType(spec.type)
        isDataDriven = spec.propertyType == "data-driven" || spec.propertyType == "cross-faded-data-driven"
        allowsZoom = spec.allowsZoom
        isInterpolated = spec.isInterpolated
        if case .enumeration(let values) = spec.type { enumValues = values; isStringType = false } else { enumValues = nil; isStringType = spec.type == .string }
        usesTokens = spec.usesTokens
        defaultValue = PropertyTypeInfo.defaultValue(spec.defaultValue, expectedType)
        defaultJSON = spec.defaultValue
        switch spec.type {
        case .number: specTypeName = "number"
        case .string: specTypeName = "string"
        case .boolean: specTypeName = "boolean"
        case .color: specTypeName = "color"
        case .enumeration: specTypeName = "enum"
        case .array(let item, let length): specTypeName = "array"; arrayItem = item; arrayLength = length
        case .formatted: specTypeName = "formatted"
        case .resolvedImage: specTypeName = "resolvedImage"
        case .padding: specTypeName = "padding"
        case .numberArray: specTypeName = "numberArray"
        case .colorArray: specTypeName = "colorArray"
        case .variableAnchorOffsetCollection: specTypeName = "variableAnchorOffsetCollection"
        case .projectionDefinition: specTypeName = "projectionDefinition"
        }
    }

    /// From an expression test's `propertySpec` object.
    init(json p: JSON) {
        let type = p["type"]?.stringValue ?? "value"
        var t: ExprType
        switch type {
        case "array":
            let item = PropertyTypeInfo.simple(p["value"]?.stringValue ?? "value")
            t = .array(item, p["length"]?.numberValue.map { Int($0) })
        default: t = PropertyTypeInfo.simple(type)
        }
        expectedType = t
        let pt = p["property-type"]?.stringValue ?? "data-constant"
        isDataDriven = pt == "data-driven" || pt == "cross-faded-data-driven"
        let params = p["expression"]?["parameters"]?.arrayValue?.compactMap(\.stringValue) ?? []
        allowsZoom = params.contains("zoom")
        isInterpolated = p["expression"]?["interpolated"]?.boolValue ?? false
        isStringType = type == "string"
        enumValues = type == "enum" ? p["values"]?.objectValue.map { Array($0.keys) } ?? p["values"]?.arrayValue?.compactMap(\.stringValue) : nil
        usesTokens = p["tokens"]?.boolValue ?? false
        defaultValue = PropertyTypeInfo.defaultValue(p["default"], t)
        defaultJSON = p["default"]
        specTypeName = type
        arrayItem = p["value"]?.stringValue
        arrayLength = p["length"]?.numberValue.map { Int($0) }
    }

    /// The checks the reference harness applies when a case gives no property spec.
    static let unconstrained: PropertyTypeInfo = {
        var i = PropertyTypeInfo(json: .object(["property-type": .string("data-driven")]))
        i.expectedType = nil
        i.allowsZoom = true
        i.isInterpolated = true
        return i
    }()

    static func simple(_ name: String) -> ExprType {
        switch name {
        case "number": return .number
        case "string", "enum": return .string
        case "boolean": return .boolean
        case "color": return .color
        case "formatted": return .formatted
        case "resolvedImage": return .resolvedImage
        case "padding": return .padding
        case "numberArray": return .numberArray
        case "colorArray": return .colorArray
        case "variableAnchorOffsetCollection": return .variableAnchorOffsetCollection
        case "projectionDefinition": return .projectionDefinition
        case "object": return .object
        default: return .value
        }
    }

    static func exprType(_ t: SpecValueType) -> ExprType {
        switch t {
        case .number: return .number
        case .string, .enumeration: return .string
        case .boolean: return .boolean
        case .color: return .color
        case .formatted: return .formatted
        case .resolvedImage: return .resolvedImage
        case .padding: return .padding
        case .numberArray: return .numberArray
        case .colorArray: return .colorArray
        case .variableAnchorOffsetCollection: return .variableAnchorOffsetCollection
        case .projectionDefinition: return .projectionDefinition
        case .array(let item, let length): return .array(simple(item), length)
        }
    }

    static func defaultValue(_ json: JSON?, _ t: ExprType?) -> Value {
        guard let json, let t else { return .null }
        switch (t, json) {
        case (.color, .string(let s)): return Color.parse(s).map(Value.color) ?? .null
        case (.padding, .number(let n)): return .padding([n, n, n, n])
        case (.padding, .array(let a)): return .padding(a.compactMap(\.numberValue))
        case (.formatted, .string(let s)): return .formatted(Formatted(sections: [.init(text: s)]))
        default: return Value(json)
        }
    }
}

extension Formatted.Section {
    init(text: String, image: ResolvedImage? = nil) {
        self.init(text: text, image: image, scale: nil, fontStack: nil, textColor: nil, verticalAlign: nil)
    }
}

enum PropertyCompiler {
    static let zoomMessage = "\"zoom\" expression may only be used as input to a top-level \"step\" or \"interpolate\" expression."

    /// Compiles a property expression (already in expression form) with the property-level checks.
    static func compileExpression(_ json: JSON, _ info: PropertyTypeInfo) -> (Expr?, [ExpressionError]) {
        let (root, errors) = ExpressionCompiler.compile(json, expected: info.expectedType, annotation: info.isStringType ? .coerce : nil)
        guard let root else { return (nil, errors) }
        if !info.isDataDriven && !ExprAnalysis.isFeatureConstant(root) {
            return (nil, [ExpressionError(key: "", message: "data expressions not supported")])
        }
        let zoomConstant = ExprAnalysis.isGlobalConstant(root, ["zoom"])
        if !zoomConstant && !info.allowsZoom {
            return (nil, [ExpressionError(key: "", message: "zoom expressions not supported")])
        }
        switch findZoomCurve(root) {
        case .none:
            if !zoomConstant { return (nil, [ExpressionError(key: "", message: zoomMessage)]) }
        case .error(let m):
            return (nil, [ExpressionError(key: "", message: m)])
        case .curve(let c):
            if c is InterpolateExpr && !info.isInterpolated {
                return (nil, [ExpressionError(key: "", message: "\"interpolate\" expressions cannot be used with this property")])
            }
        }
        return (root, [])
    }

    enum ZoomCurve { case none, curve(Expr), error(String) }

    static func findZoomCurve(_ e: Expr) -> ZoomCurve {
        var result = ZoomCurve.none
        if let l = e as? LetExpr {
            result = findZoomCurve(l.body)
        } else if let c = e as? CoalesceExpr {
            for a in c.args {
                result = findZoomCurve(a)
                if case .none = result { continue }
                break
            }
        } else if let s = e as? StepExpr, (s.input as? CallExpr)?.name == "zoom" {
            result = .curve(e)
        } else if let i = e as? InterpolateExpr, (i.input as? CallExpr)?.name == "zoom" {
            result = .curve(e)
        }
        if case .error = result { return result }
        for child in e.children {
            let r = findZoomCurve(child)
            switch (r, result) {
            case (.error, _): result = r
            case (.curve, .none): result = .error(zoomMessage)
            case (.curve(let a), .curve(let b)) where a !== b:
                result = .error("Only one zoom-based \"step\" or \"interpolate\" subexpression may be used in an expression.")
            default: break
            }
        }
        return result
    }
}
