import GLSnapStyle

/// What `metadata.test` of a render case's style asks for.
struct RenderCaseSpec {
    /// Defaults of the GL render-test harness.
    static let defaultSide = 512.0
    static let defaultAllowed = 0.00015

    var width = RenderCaseSpec.defaultSide
    var height = RenderCaseSpec.defaultSide
    var pixelRatio = 1.0
    /// The largest mismatched fraction that still passes.
    var allowed = RenderCaseSpec.defaultAllowed
    /// Runtime-styling steps, in order.
    var operations: [CaseOperation] = []
    /// Needs the runner cannot meet (debug drawing, operations the API lacks), in words; a case
    /// with any fails without being drawn.
    var unsupported: [String] = []

    /// Reads `metadata.test` of a parsed style; a missing block or a value of the wrong type
    /// keeps the default. Unknown or malformed operations end up in `unsupported`.
    init(style: JSON) {
        guard let test = style["metadata"]?["test"] else { return }
        if let w = test["width"]?.finiteNumber { width = w }
        if let h = test["height"]?.finiteNumber { height = h }
        if let r = test["pixelRatio"]?.finiteNumber { pixelRatio = r }
        if let a = test["allowed"]?.finiteNumber { allowed = a }
        if let d = test["diff"]?.finiteNumber { allowed = d }
        for flag in ["collisionDebug", "showOverdrawInspector", "debug"] where test[flag]?.boolValue == true {
            unsupported.append(flag)
        }
        if let ops = test["operations"]?.arrayValue {
            var names: [String] = []
            for op in ops {
                switch CaseOperation(op) {
                case .some(.unsupported(let name)): if !names.contains(name) { names.append(name) }
                case .some(let parsed): operations.append(parsed)
                case nil: if !names.contains("(malformed)") { names.append("(malformed)") }
                }
            }
            if !names.isEmpty { unsupported.append("operations not supported: " + names.joined(separator: ", ")) }
        } else if test["operations"] != nil {
            unsupported.append("operations not supported: (malformed)")
        }
    }
}

extension JSON {
    /// The number, when it is one and finite.
    var finiteNumber: Double? {
        guard let n = numberValue, n.isFinite else { return nil }
        return n
    }
}

/// One runtime-styling step the runner can carry out with the public snapshot API. A snapshot
/// shows the end state, so `wait` has nothing to do: there is no fading and loading is synchronous.
enum CaseOperation {
    case wait
    case setZoom(Double)
    case setCenter(longitude: Double, latitude: Double)
    case setBearing(Double)
    case setPitch(Double)
    /// A whole new style: inline JSON text, or a URL (e.g. `local://styles/x.json`).
    case setStyleJSON(String)
    case setStyleURL(String)
    /// Anything else, by name.
    case unsupported(String)

    /// nil when the step is not `[name, args…]`.
    init?(_ value: JSON) {
        guard let step = value.arrayValue, let name = step.first?.stringValue else { return nil }
        let args = step.dropFirst()
        let first = args.first
        switch name {
        case "wait":
            self = .wait
        case "setZoom":
            guard let z = first?.finiteNumber else { return nil }
            self = .setZoom(z)
        case "setBearing":
            guard let b = first?.finiteNumber else { return nil }
            self = .setBearing(b)
        case "setPitch":
            guard let p = first?.finiteNumber else { return nil }
            self = .setPitch(p)
        case "setCenter":
            guard let c = first?.arrayValue, c.count >= 2,
                  let lon = c[0].finiteNumber, let lat = c[1].finiteNumber else { return nil }
            self = .setCenter(longitude: lon, latitude: lat)
        case "setStyle":
            if let url = first?.stringValue {
                self = .setStyleURL(url)
            } else if let object = first, object.objectValue != nil {
                self = .setStyleJSON(JSONText.encode(object))
            } else {
                return nil
            }
        default:
            self = .unsupported(name)
        }
    }
}
