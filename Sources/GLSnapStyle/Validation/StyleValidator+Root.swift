/// The root object and its non-layer members: sources, light, terrain, sprite, glyphs, fonts.
extension StyleValidator {
    func validateRoot() {
        let root = ValidationNode(style, key: "")
        guard case .object(let o) = style else {
            report(root, "object expected, \(specTypeName(style)) found")
            return
        }
        validateObject(root, spec["$root"]?.objectValue ?? [:], validators: [
            "glyphs": { c in self.validateGlyphs(c) },
            "*": { _ in },
        ])
        if let c = o["constants"], c != .null, c != .bool(false) {
            report("constants", "constants", "constants have been deprecated as of v8")
        }
    }

    func validateGlyphs(_ n: ValidationNode) {
        guard case .string(let url) = n.value else {
            report(n, "string expected, \(specTypeName(n.value)) found")
            return
        }
        if !url.contains("{fontstack}") { report(n, "\"glyphs\" url must include a \"{fontstack}\" token") }
        if !url.contains("{range}") { report(n, "\"glyphs\" url must include a \"{range}\" token") }
    }

    func validateSource(_ n: ValidationNode) {
        guard let source = n.object, let typeValue = source["type"], typeValue != .null, typeValue != .string("") else {
            report(n, "\"type\" is required")
            return
        }
        let type = typeValue.stringValue ?? ""
        let promote: [String: ElementValidator] = ["promoteId": { c in self.validatePromoteID(c) }]
        switch type {
        case "vector", "raster", "raster-dem", "video", "image":
            let specName = "source_" + type.replacingOccurrences(of: "-", with: "_")
            validateObject(n, spec[specName]?.objectValue ?? [:], validators: type == "video" || type == "image" ? [:] : promote)
        case "geojson":
            validateObject(n, spec["source_geojson"]?.objectValue ?? [:], validators: promote)
            if let cluster = source["cluster"], cluster != .bool(false), cluster != .null,
               case .object(let props)? = source["clusterProperties"] {
                for (prop, v) in props.sorted(by: { $0.key < $1.key }) {
                    guard case .array(let pair) = v, pair.count >= 2 else { continue }
                    let loc = "\(n.loc).clusterProperties.\(prop)"
                    validateExpression(ValidationNode(pair[1], key: "\(n.key).\(prop).map", loc: loc + "[1]"), .object([:]), context: .clusterMap)
                    let reduce: JSON
                    if case .string = pair[0] {
                        reduce = .array([pair[0], .array([.string("accumulated")]), .array([.string("get"), .string(prop)])])
                    } else {
                        reduce = pair[0]
                    }
                    validateExpression(ValidationNode(reduce, key: "\(n.key).\(prop).reduce", loc: loc + "[0]"), .object([:]), context: .clusterReduce)
                }
            }
        case "canvas":
            report(n.key, nil, "Please use runtime APIs to add canvas sources, rather than including them in stylesheets.")
        default:
            validateEnum(n.member("type", typeValue), .object(["values": .array(["vector", "raster", "raster-dem", "geojson", "video", "image"].map(JSON.string))]))
        }
    }

    func validatePromoteID(_ n: ValidationNode) {
        if case .string = n.value { return }
        guard case .object(let o) = n.value else {
            report(n, "string expected, \(specTypeName(n.value)) found")
            return
        }
        for (k, v) in o.sorted(by: { $0.key < $1.key }) where specTypeName(v) != "string" {
            report(n.member(k, v), "string expected, \(specTypeName(v)) found")
        }
    }

    /// `light`, `sky` and `projection`: members reported by their bare names.
    func validatePropertyBag(_ n: ValidationNode, name: String, spec bagSpec: JSON?, transitions: Bool) {
        guard case .object(let o) = n.value else {
            report(name, n.loc, "object expected, \(specTypeName(n.value)) found")
            return
        }
        for (k, v) in o.sorted(by: { $0.key < $1.key }) {
            let child = ValidationNode(v, key: k, loc: "\(n.loc).\(k)")
            if transitions, k.hasSuffix("-transition"), bagSpec?[String(k.dropLast("-transition".count))]?["transition"]?.boolValue == true {
                validate(child, spec["transition"] ?? .null)
            } else if let s = bagSpec?[k] {
                validate(child, s)
            } else {
                report(child, "unknown property \"\(k)\"")
            }
        }
    }

    func validateTerrain(_ n: ValidationNode) {
        validatePropertyBag(n, name: "terrain", spec: spec["terrain"], transitions: false)
    }

    func validateProjectionDefinition(_ n: ValidationNode, _ s: JSON) {
        switch n.value {
        case .string: return
        case .array(let a):
            if a.count == 3, case .string = a[0], case .string = a[1], case .number = a[2] { return }
            if LegacyFunction.isExpression(n.value) { validateExpression(n, s, context: nil); return }
            report(n, "projection expected, invalid array \(jsonText(n.value)) found")
        default:
            report(n, "projection expected, invalid type \"\(specTypeName(n.value))\" found")
        }
    }

    func validatePadding(_ n: ValidationNode, _ s: JSON) {
        switch n.value {
        case .number: validateNumber(n, s)
        case .array(let a):
            if a.isEmpty || a.count > 4 {
                report(n, "padding requires 1 to 4 values; \(a.count) values found")
                return
            }
            for (i, v) in a.enumerated() { validateNumber(n.item(i, v), s) }
        default:
            report(n, "number expected, \(specTypeName(n.value)) found")
        }
    }

    func validateNumberArray(_ n: ValidationNode, _ s: JSON) {
        guard case .array(let a) = n.value else { validateNumber(n, s); return }
        if a.isEmpty { report(n, "array length at least 1 expected, length 0 found"); return }
        for (i, v) in a.enumerated() { validateNumber(n.item(i, v), s) }
    }

    func validateColorArray(_ n: ValidationNode) {
        guard case .array(let a) = n.value else { validateColor(n); return }
        if a.isEmpty { report(n, "array length at least 1 expected, length 0 found"); return }
        for (i, v) in a.enumerated() { validateColor(n.item(i, v)) }
    }

    func validateAnchorOffsets(_ n: ValidationNode) {
        guard case .array(let a) = n.value, !a.isEmpty, a.count % 2 == 0 else {
            report(n, "variableAnchorOffsetCollection requires a non-empty array of even length")
            return
        }
        let anchorSpec = spec["layout_symbol"]?["text-anchor"] ?? .null
        for i in stride(from: 0, to: a.count, by: 2) {
            validateEnum(n.item(i, a[i]), anchorSpec)
            validateArray(n.item(i + 1, a[i + 1]), .object(["length": .number(2), "value": .string("number")]))
        }
    }

    func validateSprite(_ n: ValidationNode) {
        switch n.value {
        case .string: return
        case .array(let a):
            var ids = Set<String>()
            let entrySpec: [String: JSON] = ["id": .object(["type": .string("string"), "required": .bool(true)]),
                                             "url": .object(["type": .string("string"), "required": .bool(true)])]
            for (i, v) in a.enumerated() {
                let c = n.item(i, v)
                validateObject(c, entrySpec)
                if let id = v["id"]?.stringValue {
                    if ids.contains(id) { report(c.key, c.loc + ".id", "all the sprites' ids must be unique, but \(id) is duplicated") }
                    ids.insert(id)
                }
            }
        default:
            report(n, "string expected, \(specTypeName(n.value)) found")
        }
    }

    func validateFontFaces(_ n: ValidationNode) {
        guard case .object(let o) = n.value else {
            report(n, "object expected, \(specTypeName(n.value)) found")
            return
        }
        let faceSpec: [String: JSON] = ["url": .object(["type": .string("string"), "required": .bool(true)]),
                                        "unicode-range": .object(["type": .string("array"), "value": .string("string")])]
        for (name, v) in o.sorted(by: { $0.key < $1.key }) {
            let c = n.member(name, v)
            switch v {
            case .string: break
            case .array(let faces): for (i, face) in faces.enumerated() { validateObject(c.item(i, face), faceSpec) }
            default: report(c, "string or array expected, \(specTypeName(v)) found")
            }
        }
    }
}
