/// Checks style bytes against the style specification (v8) and returns every problem found, each
/// with its JSON path (`layers[3].paint.line-width`) and the line its value starts on.
///
/// The checks and their wording follow the style-spec reference validator: unknown keys and layer
/// types, value types, ranges, enum values, source and layer references, legacy functions and
/// filters, and expressions in the context they are used in. Bytes that are not JSON give one
/// problem naming the line of the syntax error. An empty result means the style is valid.
/// Problems come sorted by line (problems without a line first).
public func validateStyle(_ bytes: [UInt8]) -> [StyleProblem] {
    let json: JSON, lines: JSONLineMap
    do { (json, lines) = try JSON.parseWithLines(bytes) } catch let e as JSONParseError {
        return [StyleProblem(path: "", message: "the style is not valid JSON: \(e.message) (column \(e.column))", line: e.line)]
    } catch {
        return [StyleProblem(path: "", message: "the style is not valid JSON: \(error)")]
    }
    return validateStyle(json: json, lines: lines)
}

/// Checks a parsed style; `lines` (from `JSON.parseWithLines`) supplies line numbers when given.
public func validateStyle(json: JSON, lines: JSONLineMap = JSONLineMap()) -> [StyleProblem] {
    let v = StyleValidator(style: json, lines: lines)
    v.validateRoot()
    return v.problems.enumerated().sorted { a, b in
        let la = a.element.line ?? 0, lb = b.element.line ?? 0
        return la != lb ? la < lb : a.offset < b.offset
    }.map(\.element)
}

/// A value under validation: the JSON, the key problems are reported under, and the path its line
/// is looked up by (they differ only for `light`, `terrain`, `sky` and `projection`, whose keys
/// the reference validator reports without the parent's name).
struct ValidationNode {
    let value: JSON
    let key: String
    let loc: String

    init(_ value: JSON, key: String, loc: String? = nil) {
        self.value = value; self.key = key; self.loc = loc ?? key
    }

    func member(_ name: String, _ v: JSON) -> ValidationNode {
        ValidationNode(v, key: key.isEmpty ? name : "\(key).\(name)", loc: loc.isEmpty ? name : "\(loc).\(name)")
    }

    func item(_ i: Int, _ v: JSON) -> ValidationNode {
        ValidationNode(v, key: "\(key)[\(i)]", loc: "\(loc)[\(i)]")
    }

    var object: [String: JSON]? { value.objectValue }
}

/// The JSON type name as the reference validator prints it.
func specTypeName(_ j: JSON?) -> String {
    switch j {
    case nil: return "undefined"
    case .null?: return "null"
    case .bool?: return "boolean"
    case .number?: return "number"
    case .string?: return "string"
    case .array?: return "array"
    case .object?: return "object"
    }
}

/// `JSON.stringify` of a value, for messages.
func jsonText(_ j: JSON) -> String { Value(j).jsonText }

/// Where an expression is validated, which adds context-specific rules.
enum ExpressionContext {
    case property(kind: PropertyKind, name: String)
    case filter
    case clusterMap, clusterReduce
}

/// The recursive validator. Each `validate…` method appends to `problems`.
final class StyleValidator {
    static var schema: JSON { SpecTables.schema }

    let style: JSON
    let lines: JSONLineMap
    var problems: [StyleProblem] = []
    var spec: JSON { StyleValidator.schema }

    init(style: JSON, lines: JSONLineMap) { self.style = style; self.lines = lines }

    /// Records `message` under `key`, with the line of the value at `loc` (nil: no line).
    func report(_ key: String, _ loc: String?, _ message: String) {
        problems.append(StyleProblem(path: key, message: message, line: loc.flatMap { lines.line($0) }))
    }

    func report(_ n: ValidationNode, _ message: String) { report(n.key, n.loc, message) }

    typealias ElementValidator = (ValidationNode) -> Void

    /// The generic dispatcher: legacy functions and expressions where the spec allows them, then
    /// the validator for the spec's type, else the spec taken as an object schema.
    func validate(_ n: ValidationNode, _ valueSpec: JSON, context: ExpressionContext? = nil) {
        if valueSpec["expression"] != nil, case .object = n.value {
            validateFunction(n, valueSpec)
            return
        }
        if valueSpec["expression"] != nil, LegacyFunction.isExpression(n.value) {
            validateExpression(n, valueSpec, context: context)
            return
        }
        if let type = valueSpec["type"]?.stringValue {
            if validateByType(type, n, valueSpec, context: context) { return }
            validateObject(n, spec[type]?.objectValue ?? [:])
            return
        }
        validateObject(n, valueSpec.objectValue ?? [:])
    }

    /// Runs the validator for `type`; false when there is none (the type names a schema object).
    func validateByType(_ type: String, _ n: ValidationNode, _ s: JSON, context: ExpressionContext?) -> Bool {
        switch type {
        case "*": break
        case "array": validateArray(n, s)
        case "boolean": expectType(n, "boolean")
        case "string": expectType(n, "string")
        case "number": validateNumber(n, s)
        case "color": validateColor(n)
        case "enum": validateEnum(n, s)
        case "filter": validateFilter(n)
        case "function": validateFunction(n, s)
        case "layer": validateLayer(n, index: nil)
        case "source": validateSource(n)
        case "light": validatePropertyBag(n, name: "light", spec: spec["light"], transitions: true)
        case "sky": validatePropertyBag(n, name: "sky", spec: spec["sky"], transitions: true)
        case "terrain": validateTerrain(n)
        case "projection": validatePropertyBag(n, name: "projection", spec: spec["projection"], transitions: false)
        case "projectionDefinition": validateProjectionDefinition(n, s)
        case "formatted", "resolvedImage":
            if case .string = n.value { break }
            validateExpression(n, s, context: context)
        case "padding": validatePadding(n, s)
        case "numberArray": validateNumberArray(n, s)
        case "colorArray": validateColorArray(n)
        case "variableAnchorOffsetCollection": validateAnchorOffsets(n)
        case "sprite": validateSprite(n)
        case "state": if n.object == nil { report(n, "object expected, \(specTypeName(n.value)) found") }
        case "fontFaces": validateFontFaces(n)
        case "constants": break
        case "object": if n.object == nil { report(n, "object expected, \(specTypeName(n.value)) found") }
        default: return false
        }
        return true
    }

    /// Checks an object's members against `specs` (a member with its own validator in `validators`
    /// uses that; `"*"` matches any name), then the required members.
    func validateObject(_ n: ValidationNode, _ specs: [String: JSON], validators: [String: ElementValidator] = [:]) {
        guard let object = n.object else {
            report(n, "object expected, \(specTypeName(n.value)) found")
            return
        }
        for (name, v) in object.sorted(by: { $0.key < $1.key }) {
            let specKey = name.split(separator: ".", omittingEmptySubsequences: false).first.map(String.init) ?? name
            let child = n.member(name, v)
            if let f = validators[specKey] {
                f(child)
            } else if let s = specs[specKey] {
                validate(child, s)
            } else if let f = validators["*"] {
                f(child)
            } else if let s = specs["*"] {
                validate(child, s)
            } else {
                report(n.key, child.loc, "unknown property \"\(name)\"")
            }
        }
        for (name, s) in specs.sorted(by: { $0.key < $1.key }) where validators[name] == nil {
            if s["required"]?.boolValue == true, s["default"] == nil, object[name] == nil {
                report(n, "missing required property \"\(name)\"")
            }
        }
    }

    func validateArray(_ n: ValidationNode, _ s: JSON, element: ((ValidationNode, Int) -> Void)? = nil) {
        guard case .array(let items) = n.value else {
            report(n, "array expected, \(specTypeName(n.value)) found")
            return
        }
        if let length = s["length"]?.numberValue, Double(items.count) != length {
            report(n, "array length \(formatNumber(length)) expected, length \(items.count) found")
            return
        }
        var itemSpec: JSON = .object(["type": s["value"] ?? .null, "values": s["values"] ?? .null])
        if case .object = s["value"] { itemSpec = s["value"] ?? .null }
        if case .null? = itemSpec["type"] { itemSpec = .object([:]) }
        for (i, v) in items.enumerated() {
            let child = n.item(i, v)
            if let element { element(child, i) } else if itemSpec["type"]?.stringValue == "layer" {
                validateLayer(child, index: i)
            } else {
                validate(child, itemSpec)
            }
        }
    }

    func expectType(_ n: ValidationNode, _ type: String) {
        let t = specTypeName(n.value)
        if t != type { report(n, "\(type) expected, \(t) found") }
    }

    func validateNumber(_ n: ValidationNode, _ s: JSON) {
        guard case .number(let x) = n.value else {
            report(n, "number expected, \(specTypeName(n.value)) found")
            return
        }
        if let lo = s["minimum"]?.numberValue, x < lo {
            report(n, "\(formatNumber(x)) is less than the minimum value \(formatNumber(lo))")
        } else if let hi = s["maximum"]?.numberValue, x > hi {
            report(n, "\(formatNumber(x)) is greater than the maximum value \(formatNumber(hi))")
        }
    }

    func validateColor(_ n: ValidationNode) {
        guard case .string(let s) = n.value else {
            report(n, "color expected, \(specTypeName(n.value)) found")
            return
        }
        if Color.parse(s) == nil { report(n, "color expected, \(jsonText(n.value)) found") }
    }

    func validateEnum(_ n: ValidationNode, _ s: JSON) {
        let values = s["values"]?.arrayValue ?? []
        if !values.contains(n.value) {
            let names = values.map { $0.stringValue ?? jsonText($0) }.joined(separator: ", ")
            report(n, "expected one of [\(names)], \(jsonText(n.value)) found")
        }
    }
}
