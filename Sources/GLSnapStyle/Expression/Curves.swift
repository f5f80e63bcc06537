import Foundation

/// How `interpolate` blends between stops.
enum Interpolation: Equatable {
    case linear
    case exponential(Double)
    case cubicBezier(Double, Double, Double, Double)

    func factor(_ input: Double, _ lower: Double, _ upper: Double) -> Double {
        switch self {
        case .linear: return exponentialFactor(input, 1, lower, upper)
        case .exponential(let base): return exponentialFactor(input, base, lower, upper)
        case .cubicBezier(let x1, let y1, let x2, let y2):
            let t = exponentialFactor(input, 1, lower, upper)
            return UnitBezier(x1, y1, x2, y2).solve(t)
        }
    }
}

func exponentialFactor(_ input: Double, _ base: Double, _ lower: Double, _ upper: Double) -> Double {
    let diff = upper - lower
    let progress = input - lower
    if diff == 0 { return 0 }
    if base == 1 { return progress / diff }
    return (pow(base, progress) - 1) / (pow(base, diff) - 1)
}

/// A cubic Bézier easing curve from (0,0) to (1,1), solved for y given x.
struct UnitBezier {
    let cx, bx, ax, cy, by, ay: Double
    init(_ p1x: Double, _ p1y: Double, _ p2x: Double, _ p2y: Double) {
        cx = 3 * p1x; bx = 3 * (p2x - p1x) - cx; ax = 1 - cx - bx
        cy = 3 * p1y; by = 3 * (p2y - p1y) - cy; ay = 1 - cy - by
    }
    func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    func sampleDX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }
    func solveX(_ x: Double, epsilon: Double = 1e-6) -> Double {
        if x < 0 { return 0 }
        if x > 1 { return 1 }
        var t = x
        for _ in 0..<8 {
            let err = sampleX(t) - x
            if abs(err) < epsilon { return t }
            let d = sampleDX(t)
            if abs(d) < 1e-6 { break }
            t -= err / d
        }
        var lo = 0.0, hi = 1.0
        t = x
        for _ in 0..<64 {
            let v = sampleX(t)
            if abs(v - x) < epsilon { break }
            if x > v { lo = t } else { hi = t }
            t = (hi - lo) * 0.5 + lo
        }
        return t
    }
    func solve(_ x: Double) -> Double { sampleY(solveX(x)) }
}

/// Index i of the last stop with labels[i] <= value (labels ascending, value inside the range).
/// A NaN input is an evaluation error, as in MapLibre (the property then takes its default).
func stopIndex(_ labels: [Double], _ value: Double) throws -> Int {
    var lo = 0, hi = labels.count - 1
    while lo <= hi {
        let mid = (lo + hi) / 2
        let cur = labels[mid]
        let next = mid + 1 < labels.count ? labels[mid + 1] : .infinity
        if cur <= value {
            if value < next { return mid }
            lo = mid + 1
        } else if cur > value {
            hi = mid - 1
        } else {
            throw RuntimeError("Input is not a number.")
        }
    }
    return 0
}

final class StepExpr: Expr {
    let type: ExprType
    let input: Expr
    let labels: [Double]
    let outputs: [Expr]
    init(_ type: ExprType, _ input: Expr, _ labels: [Double], _ outputs: [Expr]) {
        self.type = type; self.input = input; self.labels = labels; self.outputs = outputs
    }
    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        if labels.count == 1 { return try outputs[0].evaluate(ctx) }
        let v = try input.evalNumber(ctx)
        if v <= labels[0] { return try outputs[0].evaluate(ctx) }
        let n = labels.count
        if v >= labels[n - 1] { return try outputs[n - 1].evaluate(ctx) }
        return try outputs[try stopIndex(labels, v)].evaluate(ctx)
    }
    var children: [Expr] { [input] + outputs }

    static func parse(_ args: [JSON], _ ctx: ParsingContext) -> Expr? {
        guard args.count - 1 >= 4 else { return ctx.error("Expected at least 4 arguments, but found only \(args.count - 1).") }
        guard (args.count - 1) % 2 == 0 else { return ctx.error("Expected an even number of arguments.") }
        guard let input = ctx.parse(args[1], 1, .number) else { return nil }
        var out = ControlParsers.outputType(ctx)
        // args[1] is the input: the first output's label is -∞.
        guard let (labels, outputs) = parseStops(args, from: 1, operator: "step", out: &out, ctx), let type = out else { return nil }
        return StepExpr(type, input, labels, outputs)
    }
}

/// The label/output stops of `step` and `interpolate`, read from `args[first...]` in pairs:
/// literal labels in strictly ascending order, outputs of one type (`out`, or the first output's).
/// Stops starting at index 1 are a step's: args[1] is its input, so the first output's label is -∞.
func parseStops(_ args: [JSON], from first: Int, operator op: String, out: inout ExprType?,
                _ ctx: ParsingContext) -> (labels: [Double], outputs: [Expr])? {
    var labels: [Double] = [], outputs: [Expr] = []
    var i = first
    while i < args.count {
        let label: Double
        if i == 1 {
            label = -.infinity
        } else if case .number(let n) = args[i] {
            label = n
        } else {
            _ = ctx.error("Input/output pairs for \"\(op)\" expressions must be defined using literal numeric values (not computed expressions) for the input values.", i)
            return nil
        }
        if let last = labels.last, last >= label {
            _ = ctx.error("Input/output pairs for \"\(op)\" expressions must be arranged with input values in strictly ascending order.", i)
            return nil
        }
        guard let p = ctx.parse(args[i + 1], i + 1, out) else { return nil }
        out = out ?? p.type
        labels.append(label); outputs.append(p)
        i += 2
    }
    return (labels, outputs)
}

/// The color space `interpolate` blends colors in.
enum ColorSpace { case rgb, hcl, lab }

final class InterpolateExpr: Expr {
    let type: ExprType
    let interpolation: Interpolation
    let space: ColorSpace
    let input: Expr
    let labels: [Double]
    let outputs: [Expr]
    init(_ type: ExprType, _ interpolation: Interpolation, _ space: ColorSpace, _ input: Expr, _ labels: [Double], _ outputs: [Expr]) {
        self.type = type; self.interpolation = interpolation; self.space = space; self.input = input; self.labels = labels; self.outputs = outputs
    }
    var children: [Expr] { [input] + outputs }

    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        if labels.count == 1 { return try outputs[0].evaluate(ctx) }
        let v = try input.evalNumber(ctx)
        if v <= labels[0] { return try outputs[0].evaluate(ctx) }
        let n = labels.count
        if v >= labels[n - 1] { return try outputs[n - 1].evaluate(ctx) }
        let i = try stopIndex(labels, v)
        let t = interpolation.factor(v, labels[i], labels[i + 1])
        let lower = try outputs[i].evaluate(ctx)
        let upper = try outputs[i + 1].evaluate(ctx)
        return interpolateValues(lower, upper, t, space)
    }

    static func parse(_ args: [JSON], _ ctx: ParsingContext) -> Expr? {
        guard case .string(let op) = args[0] else { return nil }
        guard args.count > 1, case .array(let interp) = args[1], let kind = interp.first else {
            return ctx.error("Expected an interpolation type expression.", 1)
        }
        let interpolation: Interpolation
        switch kind {
        case .string("linear"): interpolation = .linear
        case .string("exponential"):
            guard interp.count > 1, case .number(let base) = interp[1] else {
                return ctx.error("Exponential interpolation requires a numeric base.", 1, 1)
            }
            interpolation = .exponential(base)
        case .string("cubic-bezier"):
            let cps = interp.dropFirst().compactMap { $0.numberValue }
            guard interp.count == 5, cps.count == 4, cps.allSatisfy({ $0 >= 0 && $0 <= 1 }) else {
                return ctx.error("Cubic bezier interpolation requires four numeric arguments with values between 0 and 1.", 1)
            }
            interpolation = .cubicBezier(cps[0], cps[1], cps[2], cps[3])
        default:
            let name: String
            if case .string(let s) = kind { name = s } else { name = Value(kind).stringified }
            return ctx.error("Unknown interpolation type \(name)", 1, 0)
        }
        guard args.count - 1 >= 4 else { return ctx.error("Expected at least 4 arguments, but found only \(args.count - 1).") }
        guard (args.count - 1) % 2 == 0 else { return ctx.error("Expected an even number of arguments.") }
        guard let input = ctx.parse(args[2], 2, .number) else { return nil }
        var out: ExprType?
        let space: ColorSpace = op == "interpolate-hcl" ? .hcl : (op == "interpolate-lab" ? .lab : .rgb)
        if space != .rgb && ctx.expectedType != .colorArray { out = .color } else { out = ControlParsers.outputType(ctx) }
        guard let (labels, outputs) = parseStops(args, from: 3, operator: "interpolate", out: &out, ctx), let type = out else { return nil }
        let ok: Bool
        switch type {
        case .number, .color, .padding, .numberArray, .colorArray, .variableAnchorOffsetCollection, .projectionDefinition: ok = true
        case .array(let item, let n): ok = item == .number && n != nil
        default: ok = false
        }
        guard ok else { return ctx.error("Type \(type) is not interpolatable.") }
        return InterpolateExpr(type, interpolation, space, input, labels, outputs)
    }
}

func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double { a + t * (b - a) }

func interpolateValues(_ a: Value, _ b: Value, _ t: Double, _ space: ColorSpace) -> Value {
    switch (a, b) {
    case (.number(let x), .number(let y)): return .number(lerp(x, y, t))
    case (.color(let x), .color(let y)): return .color(interpolateColor(x, y, t, space))
    case (.array(let x), .array(let y)) where x.count == y.count:
        return .array(zip(x, y).map { interpolateValues($0, $1, t, space) })
    case (.padding(let x), .padding(let y)) where x.count == y.count:
        return .padding(zip(x, y).map { lerp($0, $1, t) })
    case (.string(let from), .string(let to)):
        // Projection definitions: a transition between two named projections.
        return .object(["from": .string(from), "to": .string(to), "transition": .number(t)])
    default: return a
    }
}

func interpolateColor(_ x: Color, _ y: Color, _ t: Double, _ space: ColorSpace) -> Color {
    switch space {
    case .rgb:
        // Blend straight channels, as MapLibre does, then store premultiplied.
        let a = x.unpremultiplied, b = y.unpremultiplied
        return Color(straightR: lerp(a.r, b.r, t), g: lerp(a.g, b.g, t), b: lerp(a.b, b.b, t), a: lerp(a.a, b.a, t))
    case .lab:
        let a = LabColor(x), b = LabColor(y)
        return LabColor(l: lerp(a.l, b.l, t), a: lerp(a.a, b.a, t), b: lerp(a.b, b.b, t), alpha: lerp(a.alpha, b.alpha, t)).color
    case .hcl:
        let a = LabColor(x).hcl, b = LabColor(y).hcl
        var h: Double
        let d = b.h - a.h
        if a.h.isNaN && b.h.isNaN { h = .nan } else if a.h.isNaN { h = b.h } else if b.h.isNaN { h = a.h } else {
            h = a.h + t * (d > 180 || d < -180 ? d - 360 * (d / 360).rounded() : d)
        }
        let c = lerp(a.c, b.c, t), l = lerp(a.l, b.l, t)
        if h.isNaN { h = 0 }
        let rad = h * .pi / 180
        return LabColor(l: l, a: cos(rad) * c, b: sin(rad) * c, alpha: lerp(a.alpha, b.alpha, t)).color
    }
}

/// CIE L*a*b* (D50, as d3-color and MapLibre use) with alpha.
struct LabColor {
    var l, a, b, alpha: Double
    static let xn = 0.96422, yn = 1.0, zn = 0.82521
    static let t0 = 4.0 / 29, t1 = 6.0 / 29, t2 = 3 * t1 * t1, t3 = t1 * t1 * t1

    init(l: Double, a: Double, b: Double, alpha: Double) { self.l = l; self.a = a; self.b = b; self.alpha = alpha }

    init(_ c: Color) {
        let u = c.unpremultiplied
        func toLinear(_ x: Double) -> Double { x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4) }
        func xyz2lab(_ t: Double) -> Double { t > LabColor.t3 ? pow(t, 1.0 / 3) : t / LabColor.t2 + LabColor.t0 }
        let r = toLinear(u.r), g = toLinear(u.g), bl = toLinear(u.b)
        let y = xyz2lab((0.2225045 * r + 0.7168786 * g + 0.0606169 * bl) / LabColor.yn)
        var x = y, z = y
        if !(r == g && g == bl) {
            x = xyz2lab((0.4360747 * r + 0.3850649 * g + 0.1430804 * bl) / LabColor.xn)
            z = xyz2lab((0.0139322 * r + 0.0971045 * g + 0.7141733 * bl) / LabColor.zn)
        }
        l = 116 * y - 16; a = 500 * (x - y); b = 200 * (y - z); alpha = u.a
    }

    var hcl: (h: Double, c: Double, l: Double, alpha: Double) {
        var h = atan2(b, a) * 180 / .pi
        if h < 0 { h += 360 }
        let c = (a * a + b * b).squareRoot()
        return (c == 0 ? .nan : h, c, l, alpha)
    }

    var color: Color {
        func lab2xyz(_ t: Double) -> Double { t > LabColor.t1 ? t * t * t : LabColor.t2 * (t - LabColor.t0) }
        func fromLinear(_ x: Double) -> Double { x <= 0.0031308 ? 12.92 * x : 1.055 * pow(x, 1 / 2.4) - 0.055 }
        var y = (l + 16) / 116
        var x = a.isNaN ? y : y + a / 500
        var z = b.isNaN ? y : y - b / 200
        y = LabColor.yn * lab2xyz(y); x = LabColor.xn * lab2xyz(x); z = LabColor.zn * lab2xyz(z)
        let r = fromLinear(3.1338561 * x - 1.6168667 * y - 0.4906146 * z)
        let g = fromLinear(-0.9787684 * x + 1.9161415 * y + 0.0334540 * z)
        let bl = fromLinear(0.0719453 * x - 0.2289914 * y + 1.4052427 * z)
        func clamp(_ v: Double) -> Double { min(max(v, 0), 1) }
        return Color(straightR: clamp(r), g: clamp(g), b: clamp(bl), a: alpha)
    }
}
