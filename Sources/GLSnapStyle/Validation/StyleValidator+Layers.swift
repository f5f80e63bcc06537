/// Layers, their paint and layout properties, filters and expressions.
extension StyleValidator {
    var layerList: [JSON] { style["layers"]?.arrayValue ?? [] }

    func validateLayer(_ n: ValidationNode, index: Int?) {
        guard let layer = n.object else {
            report(n, "object expected, \(specTypeName(n.value)) found")
            return
        }
        if layer["type"] == nil && layer["ref"] == nil { report(n, "either \"type\" or \"ref\" is required") }
        var type = layer["type"]?.stringValue
        let id = layer["id"]
        if let id, let index {
            for (i, other) in layerList.prefix(index).enumerated() where other["id"] == id {
                let previous = lines.line("layers[\(i)].id").map(String.init) ?? "?"
                report(n.key, n.loc + ".id", "duplicate layer id \(jsonText(id)), previously used at line \(previous)")
            }
        }
        let idText = id?.stringValue ?? (id.map(jsonText) ?? "undefined")
        if let ref = layer["ref"] {
            for p in ["type", "source", "source-layer", "filter", "layout"] where layer[p] != nil {
                report(n.key, "\(n.loc).\(p)", "\"\(p)\" is prohibited for ref layers")
            }
            let parent = layerList.first { $0["id"] == ref }
            if parent == nil {
                report(n.key, n.loc + ".ref", "ref layer \(jsonText(ref)) not found")
            } else if parent?["ref"] != nil {
                report(n.key, n.loc + ".ref", "ref cannot reference another ref layer")
            } else {
                type = parent?["type"]?.stringValue
            }
        } else if type != "background" {
            validateLayerSource(n, layer, type: type, id: idText)
        }
        if type == "raster", layer["paint"]?["resampling"] != nil, layer["paint"]?["raster-resampling"] != nil {
            report(n.key, n.loc + ".paint", "layer \"\(idText)\" redundantly specifies \"resampling\" and \"raster-resampling\" paint properties, but only one is allowed. It is advised to use \"resampling\".")
        }
        let layerSpec = spec["layer"]?.objectValue ?? [:]
        validateObject(n, layerSpec, validators: [
            "*": { _ in },
            "type": { c in self.validate(c, layerSpec["type"] ?? .null) },
            "filter": { c in self.validateFilter(c) },
            "layout": { c in self.validateProperties(c, kind: .layout, layerType: type) },
            "paint": { c in self.validateProperties(c, kind: .paint, layerType: type) },
        ])
    }

    func validateLayerSource(_ n: ValidationNode, _ layer: [String: JSON], type: String?, id: String) {
        guard let sourceValue = layer["source"], sourceValue != .string(""), sourceValue != .null, sourceValue != .bool(false) else {
            report(n, "missing required property \"source\"")
            return
        }
        let loc = n.loc + ".source"
        let name = sourceValue.stringValue ?? jsonText(sourceValue)
        guard let source = style["sources"]?[name] else {
            report(n.key, loc, "source \"\(name)\" not found")
            return
        }
        let sourceType = source["type"]?.stringValue
        if sourceType == "vector" && type == "raster" {
            report(n.key, loc, "layer \"\(id)\" requires a raster source")
        } else if sourceType != "raster-dem" && (type == "hillshade" || type == "color-relief") {
            report(n.key, loc, "layer \"\(id)\" requires a raster-dem source")
        } else if sourceType == "raster" && type != "raster" {
            report(n.key, loc, "layer \"\(id)\" requires a vector source")
        } else if sourceType == "vector" && (layer["source-layer"] == nil || layer["source-layer"] == .string("")) {
            report(n, "layer \"\(id)\" must specify a \"source-layer\"")
        } else if sourceType == "raster-dem" && type != "hillshade" && type != "color-relief" {
            report(n.key, loc, "raster-dem source can only be used with layer type 'hillshade' or 'color-relief'.")
        } else if type == "line", let g = layer["paint"]?["line-gradient"], g != .null,
                  sourceType != "geojson" || !(source["lineMetrics"]?.boolValue ?? false) {
            report(n, "layer \"\(id)\" specifies a line-gradient, which requires a GeoJSON source with `lineMetrics` enabled.")
        }
    }

    /// A layer's `paint` or `layout` object.
    func validateProperties(_ n: ValidationNode, kind: PropertyKind, layerType: String?) {
        validateObject(n, [:], validators: ["*": { c in
            self.validateProperty(c, name: String(c.key.split(separator: ".").last ?? ""), kind: kind, layerType: layerType)
        }])
    }

    func validateProperty(_ n: ValidationNode, name: String, kind: PropertyKind, layerType: String?) {
        let group = kind == .paint ? "paint" : "layout"
        guard let layerType, let layerSpec = spec["\(group)_\(layerType)"] else { return }
        if kind == .paint, name.hasSuffix("-transition") {
            let base = String(name.dropLast("-transition".count))
            if layerSpec[base]?["transition"]?.boolValue == true {
                validate(n, spec["transition"] ?? .null)
                return
            }
        }
        guard let valueSpec = layerSpec[name] else {
            report(n, "unknown property \"\(name)\"")
            return
        }
        let pt = valueSpec["property-type"]?.stringValue
        let dataDriven = pt == "data-driven" || pt == "cross-faded-data-driven"
        if case .string(let s) = n.value, dataDriven, valueSpec["tokens"]?.boolValue != true,
           s.count > 2, s.hasPrefix("{"), s.hasSuffix("}"), !s.dropFirst().dropLast().contains("}") {
            let token = String(s.dropFirst().dropLast())
            report(n, "\"\(name)\" does not support interpolation syntax\nUse an identity property function instead: `{ \"type\": \"identity\", \"property\": \(jsonText(.string(token))) }`.")
            return
        }
        if layerType == "symbol", name == "text-font", case .object(let f) = n.value, f["type"] == .string("identity") {
            report(n, "\"text-font\" does not support identity functions")
        }
        validate(n, valueSpec, context: .property(kind: kind, name: name))
    }

    func validateFilter(_ n: ValidationNode) {
        if Filter.isExpressionFilter(n.value) {
            validateExpression(n, .object(["value": .string("boolean")]), context: .filter)
        } else {
            validateLegacyFilter(n)
        }
    }

    func validateLegacyFilter(_ n: ValidationNode) {
        guard case .array(let a) = n.value else {
            report(n, "array expected, \(specTypeName(n.value)) found")
            return
        }
        guard let op = a.first else {
            report(n, "filter array must have at least 1 element")
            return
        }
        validateEnum(n.item(0, op), spec["filter_operator"] ?? .null)
        let opText = op.stringValue ?? jsonText(op)
        switch op.stringValue ?? "" {
        case "<", "<=", ">", ">=", "==", "!=", "in", "!in":
            if ["<", "<=", ">", ">="].contains(opText), a.count >= 2, a[1] == .string("$type") {
                report(n, "\"$type\" cannot be use with operator \"\(opText)\"")
            }
            if !["in", "!in"].contains(opText), a.count != 3 {
                report(n, "filter array for operator \"\(opText)\" must have 3 elements")
            }
            if a.count >= 2, specTypeName(a[1]) != "string" {
                report(n.item(1, a[1]), "string expected, \(specTypeName(a[1])) found")
            }
            for i in 2..<max(a.count, 2) {
                if a[1] == .string("$type") {
                    validateEnum(n.item(i, a[i]), spec["geometry_type"] ?? .null)
                } else if !["string", "number", "boolean"].contains(specTypeName(a[i])) {
                    report(n.item(i, a[i]), "string, number, or boolean expected, \(specTypeName(a[i])) found")
                }
            }
        case "any", "all", "none":
            for i in 1..<max(a.count, 1) { validateLegacyFilter(n.item(i, a[i])) }
        case "has", "!has":
            if a.count != 2 {
                report(n, "filter array for \"\(opText)\" operator must have 2 elements")
            } else if specTypeName(a[1]) != "string" {
                report(n.item(1, a[1]), "string expected, \(specTypeName(a[1])) found")
            }
        default: break
        }
    }

    /// Compiles an expression in its context and reports compile errors under `key + error.key`.
    func validateExpression(_ n: ValidationNode, _ valueSpec: JSON, context: ExpressionContext?) {
        let root: Expr
        if case .property? = context {
            let info = PropertyTypeInfo(json: valueSpec)
            let (e, errors) = PropertyCompiler.compileExpression(n.value, info)
            guard let e else {
                for err in errors { report(n.key + err.key, n.loc, err.message) }
                return
            }
            root = e
        } else {
            let t = valueSpec["type"]?.stringValue
            let expected: ExprType? = t.map { PropertyTypeInfo.simple($0) }
            let (e, errors) = ExpressionCompiler.compile(n.value, expected: expected == .value ? nil : expected,
                                                         annotation: t == "string" ? .coerce : nil)
            guard let e else {
                for err in errors { report(n.key + err.key, n.loc, err.message) }
                return
            }
            root = e
        }
        switch context {
        case .property(let kind, let name)?:
            if name == "text-font" && !ExprAnalysis.isOutputDefined(root) {
                report(n, "Invalid data expression for \"\(name)\". Output values must be contained as literals within the expression.")
            } else if kind == .layout && !ExprAnalysis.isStateConstant(root) {
                report(n, "\"feature-state\" data expressions are not supported with layout properties.")
            }
        case .filter?:
            if !ExprAnalysis.isStateConstant(root) {
                report(n, "\"feature-state\" data expressions are not supported with filters.")
            }
        case .clusterMap?, .clusterReduce?:
            if !ExprAnalysis.isGlobalConstant(root, ["zoom"]) || !ExprAnalysis.isStateConstant(root) {
                report(n, "\"zoom\" and \"feature-state\" expressions are not supported with cluster properties.")
            }
        case nil: break
        }
    }
}
