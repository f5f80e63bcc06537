/// Converts legacy style functions (`{"stops": ..., "base": ..., "type": ..., "property": ...}`) and
/// `{token}` strings into expression JSON, so one engine evaluates everything.
enum LegacyFunction {
    static func isExpression(_ json: JSON) -> Bool {
        guard case .array(let a) = json, case .string(let op)? = a.first else { return false }
        return ExpressionRegistry.parsers[op] != nil
    }

    /// `"{name} road"` → `["concat", ["get", "name"], " road"]`; a string without tokens stays itself.
    static func tokenString(_ s: String) -> JSON {
        var parts: [JSON] = []
        var literal = ""
        var i = s.startIndex
        var matched = false
        while i < s.endIndex {
            if s[i] == "{", let close = s[s.index(after: i)...].firstIndex(where: { $0 == "}" || $0 == "{" }), s[close] == "}",
               close > s.index(after: i) {
                if !literal.isEmpty { parts.append(.string(literal)); literal = "" }
                parts.append(.array([.string("get"), .string(String(s[s.index(after: i)..<close]))]))
                matched = true
                i = s.index(after: close)
            } else {
                literal.append(s[i])
                i = s.index(after: i)
            }
        }
        guard matched else { return .string(s) }
        if !literal.isEmpty { parts.append(.string(literal)) } else if parts.count == 1 { return .array([.string("to-string"), parts[0]]) }
        return .array([.string("concat")] + parts)
    }

    static func literal(_ v: JSON, _ info: PropertyTypeInfo) -> JSON {
        switch v {
        case .array, .object: return .array([.string("literal"), v])
        case .string(let s) where info.usesTokens: return tokenString(s)
        default: return v
        }
    }

    /// The expression equivalent of a legacy function object.
    static func convert(_ params: [String: JSON], _ info: PropertyTypeInfo) -> JSON {
        let stops = params["stops"]?.arrayValue ?? []
        let stopPairs: [(JSON, JSON)] = stops.compactMap { s in
            guard let a = s.arrayValue, a.count == 2 else { return nil }
            return (a[0], a[1])
        }
        let zoomAndFeature = stopPairs.first.map { if case .object = $0.0 { return true } else { return false } } ?? false
        let featureDependent = zoomAndFeature || params["property"] != nil
        if zoomAndFeature { return zoomAndProperty(params, info, stopPairs) }
        if featureDependent { return property(params, info, stopPairs) }
        return zoom(params, info, stopPairs)
    }

    static func functionType(_ params: [String: JSON], _ info: PropertyTypeInfo) -> String {
        if let t = params["type"]?.stringValue { return t }
        return info.isInterpolated ? "exponential" : "interval"
    }

    static func interpolateOp(_ params: [String: JSON]) -> JSON {
        switch params["colorSpace"]?.stringValue {
        case "hcl": return .string("interpolate-hcl")
        case "lab": return .string("interpolate-lab")
        default: return .string("interpolate")
        }
    }

    static func curve(_ params: [String: JSON], _ type: String, input: JSON, stops: [(Double, JSON)], base: Double) -> JSON {
        if type == "exponential" {
            var e: [JSON] = [interpolateOp(params), base == 1 ? .array([.string("linear")]) : .array([.string("exponential"), .number(base)]), input]
            for (z, v) in stops { e.append(.number(z)); e.append(v) }
            return .array(e)
        }
        var e: [JSON] = [.string("step"), input]
        var last: Double?
        for (i, (z, v)) in stops.enumerated() {
            // A repeated stop input keeps its first output.
            if let last, z == last { continue }
            if i > 0 { e.append(.number(z)) }
            e.append(v)
            last = z
        }
        if e.count == 3 { e.append(.number(0)); e.append(e[2]) }
        return .array(e)
    }

    static func zoom(_ params: [String: JSON], _ info: PropertyTypeInfo, _ pairs: [(JSON, JSON)]) -> JSON {
        let type = functionType(params, info)
        let stops = pairs.compactMap { p in p.0.numberValue.map { ($0, literal(p.1, info)) } }
        guard !stops.isEmpty else { return .null }
        let kind = (type == "exponential") ? "exponential" : "interval"
        return curve(params, kind, input: .array([.string("zoom")]), stops: stops, base: params["base"]?.numberValue ?? 1)
    }

    static func property(_ params: [String: JSON], _ info: PropertyTypeInfo, _ pairs: [(JSON, JSON)]) -> JSON {
        let name = params["property"] ?? .string("")
        let get = JSON.array([.string("get"), name])
        let type = pairs.isEmpty ? "identity" : functionType(params, info)
        // Property functions do not expand `{token}`s in their stop values.
        var plain = info
        plain.usesTokens = false
        let fallback: JSON = (params["default"] ?? info.defaultJSON).map { literal($0, plain) } ?? .null
        switch type {
        case "identity":
            guard let d = params["default"] else {
                return info.specTypeName == "string" ? .array([.string("string"), get]) : get
            }
            let dflt = literal(d, plain)
            switch info.specTypeName {
            case "enum":
                let values = JSON.array((info.enumValues ?? []).map(JSON.string))
                return .array([.string("match"), get, values, get, dflt])
            case "color": return .array([.string("to-color"), get, dflt])
            case "array":
                return .array([.string("array"), .string(info.arrayItem ?? "value"), info.arrayLength.map { .number(Double($0)) } ?? .null, get, dflt])
            case "number", "string", "boolean": return .array([.string(info.specTypeName), get, dflt])
            default: return .array([.string("coalesce"), get, dflt])
            }
        case "categorical":
            if case .bool = pairs.first?.0 {
                var e: [JSON] = [.string("case")]
                for (k, v) in pairs { e.append(.array([.string("=="), get, k])); e.append(literal(v, plain)) }
                e.append(fallback)
                return .array(e)
            }
            var e: [JSON] = [.string("match"), get]
            var seen = Set<JSON>()
            for (k, v) in pairs where !seen.contains(k) {
                seen.insert(k)
                e.append(k); e.append(literal(v, plain))
            }
            e.append(fallback)
            if e.count == 3 { return fallback }
            return .array(e)
        default:
            let stops = pairs.compactMap { p in p.0.numberValue.map { ($0, literal(p.1, plain)) } }
            guard !stops.isEmpty else { return fallback }
            let kind = type == "exponential" ? "exponential" : "interval"
            let c = curve(params, kind, input: .array([.string("number"), get]), stops: stops, base: params["base"]?.numberValue ?? 1)
            if params["default"] == nil { return c }
            return .array([.string("case"), .array([.string("=="), .array([.string("typeof"), get]), .string("number")]), c, fallback])
        }
    }

    static func zoomAndProperty(_ params: [String: JSON], _ info: PropertyTypeInfo, _ pairs: [(JSON, JSON)]) -> JSON {
        var zooms: [Double] = []
        var byZoom: [Double: [JSON]] = [:]
        for (k, v) in pairs {
            guard let z = k["zoom"]?.numberValue, let value = k["value"] else { continue }
            if byZoom[z] == nil { zooms.append(z); byZoom[z] = [] }
            byZoom[z]?.append(.array([value, v]))
        }
        var inner: [(Double, JSON)] = []
        for z in zooms {
            var p: [String: JSON] = [:]
            p["type"] = params["type"]; p["property"] = params["property"]; p["default"] = params["default"]
            p["stops"] = .array(byZoom[z] ?? [])
            let ps = (byZoom[z] ?? []).compactMap { s -> (JSON, JSON)? in
                guard let a = s.arrayValue, a.count == 2 else { return nil }
                return (a[0], a[1])
            }
            inner.append((z, property(p, info, ps)))
        }
        let outerType = info.isInterpolated ? "exponential" : "interval"
        return curve(params, outerType, input: .array([.string("zoom")]), stops: inner, base: 1)
    }
}
