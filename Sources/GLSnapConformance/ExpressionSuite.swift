import Foundation
import GLSnapStyle

/// Runs every `<suiteDir>/**/test.json` expression case: compiles the expression (with its
/// `propertySpec` when given), compares the compile result, then each output to 6 significant
/// digits. Runtime error messages are compared without the `layers[0].paint.<prop>[...]: ` prefix the
/// reference adds. Prints one line per failing case, then `N passed, M failed`; returns 0 when all pass.
package func runExpressionSuite(suiteDir: String, reportPath: String?) -> Int32 {
    let root = URL(fileURLWithPath: suiteDir)
    guard let walker = FileManager.default.enumerator(atPath: root.path) else {
        print("cannot read expression suite at \(suiteDir)")
        return 1
    }
    var cases: [String] = []
    for case let rel as String in walker where rel.hasSuffix("/test.json") || rel == "test.json" { cases.append(rel) }
    cases.sort()
    let names = cases.map { rel in rel == "test.json" ? "" : String(rel.dropLast("/test.json".count)) }
    return runTextCases(names, reportPath: reportPath) { name in
        let rel = name.isEmpty ? "test.json" : name + "/test.json"
        return checkExpressionCase(try JSON.parse(Array(try Data(contentsOf: root.appendingPathComponent(rel)))))
    }
}

/// nil when the case passes; otherwise what differed.
package func checkExpressionCase(_ test: JSON) -> String? {
    guard let expression = test["expression"], let expected = test["expected"], let compiled = expected["compiled"] else {
        return "test.json lacks expression/expected"
    }
    let (expr, errors) = StyleExpression.compile(expression, propertySpec: test["propertySpec"])
    guard let expr else {
        guard compiled["result"]?.stringValue == "error" else {
            return "compile failed: " + errors.map(\.description).joined(separator: "; ")
        }
        let want = (compiled["errors"]?.arrayValue ?? []).map { e in
            (e["key"]?.stringValue ?? "") + ": " + (e["error"]?.stringValue ?? "")
        }
        let got = errors.map { $0.key + ": " + $0.message }
        return Set(want) == Set(got) ? nil : "compile errors \(got) != expected \(want)"
    }
    guard compiled["result"]?.stringValue == "success" else {
        return "compiled but expected errors \(compiled["errors"].map { "\($0)" } ?? "")"
    }
    if let t = compiled["type"]?.stringValue, t != expr.typeName { return "type \(expr.typeName) != \(t)" }
    if let f = compiled["isFeatureConstant"]?.boolValue, f != expr.isFeatureConstant { return "isFeatureConstant \(expr.isFeatureConstant) != \(f)" }
    if let z = compiled["isZoomConstant"]?.boolValue, z != expr.isZoomConstant { return "isZoomConstant \(expr.isZoomConstant) != \(z)" }
    guard let outputs = expected["outputs"]?.arrayValue else { return nil }
    let inputs = test["inputs"]?.arrayValue ?? []
    guard inputs.count == outputs.count else { return "\(inputs.count) inputs but \(outputs.count) outputs" }
    for (i, input) in inputs.enumerated() {
        guard let pair = input.arrayValue, pair.count == 2 else { return "input \(i) malformed" }
        var canonical: CanonicalTileID?
        if let c = pair[0]["canonicalID"], let z = c["z"]?.numberValue, let x = c["x"]?.numberValue, let y = c["y"]?.numberValue,
           z >= 0, z <= 30, x >= 0, y >= 0, x < 1e9, y < 1e9 {
            canonical = CanonicalTileID(z: Int(z), x: Int(x), y: Int(y))
        }
        var ctx = EvaluationContext(zoom: pair[0]["zoom"]?.numberValue ?? 0,
                                    feature: StyleExpression.feature(fromJSON: pair[1], canonicalID: canonical))
        ctx.canonicalID = canonical
        ctx.heatmapDensity = pair[0]["heatmapDensity"]?.numberValue
        ctx.featureState = pair[1]["featureState"]?.objectValue ?? [:]
        ctx.globalState = test["globalState"]?.objectValue ?? [:]
        if let images = pair[0]["availableImages"]?.arrayValue { ctx.availableImages = Set(images.compactMap(\.stringValue)) } else { ctx.availableImages = [] }
        let got: JSON
        do {
            got = outputJSON(try expr.evaluate(ctx), type: expr.typeName)
        } catch {
            got = .object(["error": .string("\(error)")])
        }
        if !outputsMatch(got, outputs[i]) { return "output \(i): got \(got) expected \(outputs[i])" }
    }
    return nil
}

/// A color as an `{r, g, b, a}` object (premultiplied), as the harness writes colors nested in
/// formatted text and color arrays.
package func colorObject(_ c: Color) -> JSON {
    .object(["r": .number(c.r), "g": .number(c.g), "b": .number(c.b), "a": .number(c.a)])
}

/// A value as the reference harness serializes it: colors as premultiplied [r, g, b, a]; values of
/// the types `padding`, `numberArray` and `colorArray` as `{"values": [...]}`.
package func outputJSON(_ v: Value, type: String) -> JSON {
    switch (type, v) {
    case ("padding", .padding(let p)): return .object(["values": .array(p.map(JSON.number))])
    case ("numberArray", .array(let a)): return .object(["values": .array(a.map { outputJSON($0) })])
    case ("colorArray", .array(let a)):
        return .object(["values": .array(a.map { $0.color.map(colorObject) ?? outputJSON($0) })])
    default: return outputJSON(v)
    }
}

/// A value as the reference harness serializes it: colors as premultiplied [r, g, b, a].
package func outputJSON(_ v: Value) -> JSON {
    switch v {
    case .color(let c): return .array([.number(c.r), .number(c.g), .number(c.b), .number(c.a)])
    case .array(let a): return .array(a.map(outputJSON))
    case .object(let o): return .object(o.mapValues(outputJSON))
    case .padding(let p): return .array(p.map(JSON.number))
    case .image(let img): return .object(["name": .string(img.name), "available": .bool(img.available)])
    case .formatted(let f):
        return .object(["sections": .array(f.sections.map { s in
            .object(["text": .string(s.text),
                     "image": s.image.map { .object(["name": .string($0.name), "available": .bool($0.available)]) } ?? .null,
                     "scale": s.scale.map(JSON.number) ?? .null,
                     "fontStack": s.fontStack.map(JSON.string) ?? .null,
                     "textColor": s.textColor.map(colorObject) ?? .null,
                     "verticalAlign": s.verticalAlign.map(JSON.string) ?? .null])
        })])
    case .collator: return .object([:])
    default: return v.json
    }
}

package func outputsMatch(_ got: JSON, _ want: JSON) -> Bool {
    switch (got, want) {
    case (.number(let a), .number(let b)):
        if a == b { return true }
        let scale = max(abs(a), abs(b))
        return abs(a - b) <= scale * 1e-5
    case (.array(let a), .array(let b)):
        return a.count == b.count && zip(a, b).allSatisfy(outputsMatch)
    case (.object(let a), .object(let b)):
        if case .string(let ge)? = a["error"], case .string(let we)? = b["error"], a.count == 1 {
            return stripKey(we) == ge
        }
        let keys = Set(a.keys).union(b.keys)
        return keys.allSatisfy { outputsMatch(a[$0] ?? .null, b[$0] ?? .null) }
    default:
        return got == want
    }
}

/// `layers[0].paint.some-property[2]: message` → `message`.
package func stripKey(_ message: String) -> String {
    guard message.hasPrefix("layers["), let r = message.range(of: ": ") else { return message }
    return String(message[r.upperBound...])
}
