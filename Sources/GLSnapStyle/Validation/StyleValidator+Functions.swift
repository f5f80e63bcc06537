/// Legacy style functions (`{"stops": ..., "property": ...}`).
extension StyleValidator {
    /// The running state of one function's stop checks (domain type, order, uniqueness).
    final class StopState {
        var keyType: String?
        var previousValue: Double?
        var previousZoom: Double?
        var seen = Set<String>()
    }

    func validateFunction(_ n: ValidationNode, _ valueSpec: JSON) {
        guard let f = n.object else {
            report(n, "object expected, \(specTypeName(n.value)) found")
            return
        }
        let type = f["type"]?.stringValue
        let isZoomFunction = type != "categorical" && f["property"] == nil
        let stops = f["stops"]?.arrayValue
        var isZoomAndProperty = false
        if let first = stops?.first?.arrayValue?.first, case .object = first { isZoomAndProperty = true }
        let state = StopState()
        validateObject(n, spec["function"]?.objectValue ?? [:], validators: [
            "stops": { c in self.validateStops(c, function: f, valueSpec: valueSpec, zoomAndProperty: isZoomAndProperty, state: state) },
            "default": { c in self.validate(c, valueSpec) },
        ])
        if type == "identity" && isZoomFunction { report(n, "missing required property \"property\"") }
        if type != "identity" && (f["stops"] == nil || f["stops"] == .null) { report(n, "missing required property \"stops\"") }
        let supportsInterpolation = valueSpec["expression"]?["interpolated"]?.boolValue ?? false
        if type == "exponential" && valueSpec["expression"] != nil && !supportsInterpolation {
            report(n, "exponential functions not supported")
        }
        let pt = valueSpec["property-type"]?.stringValue
        let dataDriven = pt == "data-driven" || pt == "cross-faded-data-driven"
        let zoomAllowed = valueSpec["expression"]?["parameters"]?.arrayValue?.contains(.string("zoom")) ?? false
        if !isZoomFunction && !dataDriven {
            report(n, "property functions not supported")
        } else if isZoomFunction && !zoomAllowed {
            report(n, "zoom functions not supported")
        }
        if (type == "categorical" || isZoomAndProperty) && f["property"] == nil {
            report(n, "\"property\" property is required")
        }
    }

    func validateStops(_ n: ValidationNode, function f: [String: JSON], valueSpec: JSON, zoomAndProperty: Bool, state: StopState) {
        if f["type"]?.stringValue == "identity" {
            report(n, "identity function may not have a \"stops\" property")
            return
        }
        validateArray(n, spec["function"]?["stops"] ?? .null) { c, _ in
            self.validateStop(c, function: f, valueSpec: valueSpec, zoomAndProperty: zoomAndProperty, state: state)
        }
        if case .array(let a) = n.value, a.isEmpty { report(n, "array must have at least one stop") }
    }

    func validateStop(_ n: ValidationNode, function f: [String: JSON], valueSpec: JSON, zoomAndProperty: Bool, state: StopState) {
        guard case .array(let stop) = n.value else {
            report(n, "array expected, \(specTypeName(n.value)) found")
            return
        }
        guard stop.count == 2 else {
            report(n, "array length 2 expected, length \(stop.count) found")
            return
        }
        let keyNode = n.item(0, stop[0])
        if zoomAndProperty {
            guard case .object(let k) = stop[0] else {
                report(n, "object expected, \(specTypeName(stop[0])) found")
                return
            }
            guard let zoom = k["zoom"] else { report(n, "object stop key must have zoom"); return }
            guard k["value"] != nil else { report(n, "object stop key must have value"); return }
            let z = zoom.numberValue
            if let p = state.previousZoom, p != 0, let z, p > z {
                report(n.key, keyNode.loc + ".zoom", "stop zoom values must appear in ascending order")
                return
            }
            if z != state.previousZoom {
                state.previousZoom = z
                state.previousValue = nil
                state.seen = []
            }
            validateObject(keyNode, ["zoom": .object([:])], validators: [
                "zoom": { c in self.validateNumber(c, .object([:])) },
                "value": { c in self.validateStopDomainValue(c, stop: n, function: f, valueSpec: valueSpec, state: state) },
            ])
        } else {
            validateStopDomainValue(keyNode, stop: n, function: f, valueSpec: valueSpec, state: state)
        }
        let out = n.item(1, stop[1])
        if LegacyFunction.isExpression(stop[1]) {
            report(out, "expressions are not allowed in function stops.")
            return
        }
        validate(out, valueSpec)
    }

    func validateStopDomainValue(_ n: ValidationNode, stop: ValidationNode, function f: [String: JSON], valueSpec: JSON, state: StopState) {
        let type = specTypeName(n.value)
        let loc = n.value == .null ? stop.loc : n.loc
        func fail(_ m: String) { report(n.key, loc, m) }
        let functionType = f["type"]?.stringValue
        if let keyType = state.keyType, keyType != type {
            return fail("\(type) stop domain type must match previous stop domain type \(keyType)")
        }
        if state.keyType == nil { state.keyType = type }
        guard type == "number" || type == "string" || type == "boolean" else {
            return fail("stop domain value must be a number, string, or boolean")
        }
        if type != "number" && functionType != "categorical" {
            var m = "number expected, \(type) found"
            let pt = valueSpec["property-type"]?.stringValue
            if (pt == "data-driven" || pt == "cross-faded-data-driven") && functionType == nil {
                m += "\nIf you intended to use a categorical function, specify `\"type\": \"categorical\"`."
            }
            return fail(m)
        }
        let number = n.value.numberValue
        if functionType == "categorical", let x = number, !x.isFinite || x.rounded(.down) != x {
            return fail("integer expected, found \(formatNumber(x))")
        }
        if functionType != "categorical", let x = number, let p = state.previousValue, x < p {
            return fail("stop domain values must appear in ascending order")
        }
        state.previousValue = number
        if functionType == "categorical" {
            let key = n.value.stringValue ?? jsonText(n.value)
            if state.seen.contains(key) { return fail("stop domain values must be unique") }
            state.seen.insert(key)
        }
    }
}
