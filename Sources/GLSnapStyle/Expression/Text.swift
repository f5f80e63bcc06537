import Foundation

/// `format`: sections of text or images with optional per-section overrides.
final class FormatExpr: Expr {
    struct Section { let content: Expr; var scale: Expr?; var font: Expr?; var color: Expr?; var verticalAlign: Expr? }
    let sections: [Section]
    init(_ sections: [Section]) { self.sections = sections }
    var type: ExprType { .formatted }
    var children: [Expr] { sections.flatMap { s in [s.content] + [s.scale, s.font, s.color, s.verticalAlign].compactMap { $0 } } }
    static let verticalAligns = ["bottom", "center", "top"]

    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        var out: [Formatted.Section] = []
        for s in sections {
            let v = try s.content.evaluate(ctx)
            var sec: Formatted.Section
            if case .image(let img) = v { sec = .init(text: "", image: img) } else { sec = .init(text: v.stringified) }
            if let e = s.verticalAlign, case .string(let a) = try e.evaluate(ctx), FormatExpr.verticalAligns.contains(a) {
                sec.verticalAlign = a
            }
            if sec.image != nil { out.append(sec); continue }
            if let e = s.scale { sec.scale = try e.evalNumber(ctx) }
            if let e = s.font, case .array(let fonts) = try e.evaluate(ctx) { sec.fontStack = fonts.map(\.stringified).joined(separator: ",") }
            if let e = s.color, case .color(let c) = try e.evaluate(ctx) { sec.textColor = c }
            out.append(sec)
        }
        return .formatted(Formatted(sections: out))
    }

    static func parse(_ args: [JSON], _ ctx: ParsingContext) -> Expr? {
        guard args.count >= 2 else { return ctx.error("Expected at least one argument.") }
        if case .object = args[1] { return ctx.error("First argument must be an image or text section.") }
        var sections: [Section] = []
        var mayBeObject = false
        for i in 1..<args.count {
            if mayBeObject, case .object(let o) = args[i] {
                mayBeObject = false
                guard var last = sections.popLast() else { return nil }
                if let s = o["font-scale"] { guard let e = ctx.parse(s, 1, .number) else { return nil }; last.scale = e }
                if let f = o["text-font"] { guard let e = ctx.parse(f, 1, .array(.string, nil)) else { return nil }; last.font = e }
                if let c = o["text-color"] { guard let e = ctx.parse(c, 1, .color) else { return nil }; last.color = e }
                if let a = o["vertical-align"] {
                    if case .string(let s) = a, !FormatExpr.verticalAligns.contains(s) {
                        return ctx.error("'vertical-align' must be one of: 'bottom', 'center', 'top' but found '\(s)' instead.")
                    }
                    guard let e = ctx.parse(a, 1, .string) else { return nil }
                    last.verticalAlign = e
                }
                sections.append(last)
            } else {
                guard let content = ctx.parse(args[i], 1, .value) else { return nil }
                guard ["string", "value", "null", "resolvedImage"].contains(content.type.kind) else {
                    return ctx.error("Formatted text type must be 'string', 'value', 'image' or 'null'.")
                }
                mayBeObject = true
                sections.append(Section(content: content))
            }
        }
        return FormatExpr(sections)
    }
}

/// `image`: an image name, checked against the style's images.
final class ImageExpr: Expr {
    let name: Expr
    let params: [(String, Expr)]
    init(_ name: Expr, _ params: [(String, Expr)]) { self.name = name; self.params = params }
    var type: ExprType { .resolvedImage }
    var children: [Expr] { [name] + params.map(\.1) }
    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        let n = try name.evaluate(ctx).stringified
        var colors: [String: Color] = [:]
        for (k, e) in params { if case .color(let c) = try e.evaluate(ctx) { colors[k] = c } }
        return .image(ResolvedImage(name: n, available: ctx.availableImages?.contains(n) ?? true, params: colors))
    }
    static func parse(_ args: [JSON], _ ctx: ParsingContext) -> Expr? {
        guard args.count >= 2 else { return ctx.error("Expected two or more arguments.") }
        guard let name = ctx.parse(args[1], 1, .string) else { return ctx.error("No image name provided.") }
        var params: [(String, Expr)] = []
        if args.count > 2, case .object(let o) = args[2], case .object(let p)? = o["params"] {
            for k in p.keys.sorted() {
                guard let v = p[k], let e = ctx.parse(v, 2, .color) else { return nil }
                params.append((k, e))
            }
        }
        return ImageExpr(name, params)
    }
}

/// `tag` when it has the shape of a BCP 47 language tag (`en`, `de-CH`, `zh-Hant-TW`,
/// `en-US-u-co-phonebk`): subtags of 1-8 ASCII letters or digits joined by `-` (or `_`), the first
/// 2-8 letters, 64 bytes at most. Anything else throws, as `Intl` throws a RangeError in GL JS;
/// Foundation's `Locale` crashed on identifiers that are not ASCII.
func checkedLocale(_ tag: String) throws -> String {
    let maxBytes = 64, maxSubtag = 8
    let subtags = tag.utf8.split(omittingEmptySubsequences: false) { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    let isLetter = { (c: UInt8) in (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") }
    let isDigit = { (c: UInt8) in c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
    guard tag.utf8.count <= maxBytes, let first = subtags.first, (2...maxSubtag).contains(first.count), first.allSatisfy(isLetter),
          subtags.dropFirst().allSatisfy({ (1...maxSubtag).contains($0.count) && $0.allSatisfy { isLetter($0) || isDigit($0) } }) else {
        throw RuntimeError("Incorrect locale information provided: \(JSON.quote(String(tag.prefix(maxBytes))))")
    }
    return tag
}

/// `collator`: string comparison options.
final class CollatorExpr: Expr {
    let caseSensitive: Expr, diacriticSensitive: Expr, locale: Expr?
    init(_ c: Expr, _ d: Expr, _ l: Expr?) { caseSensitive = c; diacriticSensitive = d; locale = l }
    var type: ExprType { .collator }
    var children: [Expr] { [caseSensitive, diacriticSensitive] + (locale.map { [$0] } ?? []) }
    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        .collator(Collator(caseSensitive: try caseSensitive.evalBool(ctx), diacriticSensitive: try diacriticSensitive.evalBool(ctx),
                           locale: try locale.map { try checkedLocale($0.evalString(ctx)) }))
    }
    static func parse(_ args: [JSON], _ ctx: ParsingContext) -> Expr? {
        guard args.count == 2 else { return ctx.error("Expected one argument.") }
        guard case .object(let o) = args[1] else { return ctx.error("Collator options argument must be an object.") }
        guard let c = ctx.parse(o["case-sensitive"] ?? .bool(false), 1, .boolean),
              let d = ctx.parse(o["diacritic-sensitive"] ?? .bool(false), 1, .boolean) else { return nil }
        var l: Expr?
        if let lj = o["locale"] { guard let e = ctx.parse(lj, 1, .string) else { return nil }; l = e }
        return CollatorExpr(c, d, l)
    }
}

/// `number-format`: locale-aware number text (decimal, currency or unit style, as `Intl.NumberFormat`).
final class NumberFormatExpr: Expr {
    let number: Expr
    let locale: Expr?, currency: Expr?, unit: Expr?, minFraction: Expr?, maxFraction: Expr?
    init(_ n: Expr, locale: Expr?, currency: Expr?, unit: Expr?, minFraction: Expr?, maxFraction: Expr?) {
        number = n; self.locale = locale; self.currency = currency; self.unit = unit
        self.minFraction = minFraction; self.maxFraction = maxFraction
    }
    var type: ExprType { .string }
    var children: [Expr] { [number] + [locale, currency, unit, minFraction, maxFraction].compactMap { $0 } }

    /// Short English unit symbols of the units `Intl.NumberFormat` sanctions; `true` when the symbol
    /// follows the number without a space.
    static let unitSymbols: [String: (String, Bool)] = [
        "acre": ("ac", false), "bit": ("bit", false), "byte": ("byte", false), "celsius": ("°C", true),
        "centimeter": ("cm", false), "day": ("day", false), "degree": ("deg", false), "fahrenheit": ("°F", true),
        "fluid-ounce": ("fl oz", false), "foot": ("ft", false), "gallon": ("gal", false), "gigabit": ("Gb", false),
        "gigabyte": ("GB", false), "gram": ("g", false), "hectare": ("ha", false), "hour": ("hr", false),
        "inch": ("in", false), "kilobit": ("kb", false), "kilobyte": ("kB", false), "kilogram": ("kg", false),
        "kilometer": ("km", false), "liter": ("L", false), "megabit": ("Mb", false), "megabyte": ("MB", false),
        "meter": ("m", false), "microsecond": ("μs", false), "mile": ("mi", false), "mile-scandinavian": ("smi", false),
        "milliliter": ("mL", false), "millimeter": ("mm", false), "millisecond": ("ms", false), "minute": ("min", false),
        "month": ("mth", false), "nanosecond": ("ns", false), "ounce": ("oz", false), "percent": ("%", true),
        "petabyte": ("PB", false), "pound": ("lb", false), "second": ("sec", false), "stone": ("st", false),
        "terabit": ("Tb", false), "terabyte": ("TB", false), "week": ("wk", false), "yard": ("yd", false),
        "year": ("yr", false), "kilometer-per-hour": ("km/h", false), "meter-per-second": ("m/s", false),
        "mile-per-hour": ("mph", false),
    ]

    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        let n = try number.evalNumber(ctx)
        let code = try currency.map { try $0.evalString(ctx) }
        let unitName = try unit.map { try $0.evalString(ctx) }
        let localeID = try locale.map { try checkedLocale($0.evalString(ctx)).replacingOccurrences(of: "-", with: "_") } ?? "en_US"
        let f = NumberFormatter()
        f.locale = Locale(identifier: localeID)
        f.roundingMode = .halfUp
        if let code {
            f.numberStyle = .currency
            f.currencyCode = code.uppercased()
        } else {
            f.numberStyle = .decimal
            f.minimumFractionDigits = 0
            f.maximumFractionDigits = 3
        }
        if let minF = try minFraction.map({ try $0.evalNumber(ctx) }), minF.isFinite {
            f.minimumFractionDigits = Int(min(max(minF, 0), 20))
            if f.maximumFractionDigits < f.minimumFractionDigits { f.maximumFractionDigits = f.minimumFractionDigits }
        }
        if let maxF = try maxFraction.map({ try $0.evalNumber(ctx) }), maxF.isFinite {
            f.maximumFractionDigits = max(Int(min(max(maxF, 0), 20)), f.minimumFractionDigits)
        }
        var text = f.string(from: NSNumber(value: n)) ?? formatNumber(n)
        if let unitName {
            let (symbol, tight) = Self.unitSymbols[unitName] ?? (unitName, false)
            text += (tight ? "" : " ") + symbol
        }
        return .string(text)
    }

    static func parse(_ args: [JSON], _ ctx: ParsingContext) -> Expr? {
        guard args.count == 3 else { return ctx.error("Expected two arguments.") }
        guard let n = ctx.parse(args[1], 1, .number) else { return nil }
        guard case .object(let o) = args[2] else { return ctx.error("NumberFormat options argument must be an object.") }
        if o["currency"] != nil && o["unit"] != nil {
            return ctx.error("NumberFormat options `currency` and `unit` are mutually exclusive")
        }
        func opt(_ key: String, _ t: ExprType) -> (Bool, Expr?) {
            guard let j = o[key] else { return (true, nil) }
            guard let e = ctx.parse(j, 1, t) else { return (false, nil) }
            return (true, e)
        }
        let loc = opt("locale", .string), cur = opt("currency", .string), unit = opt("unit", .string)
        let minF = opt("min-fraction-digits", .number), maxF = opt("max-fraction-digits", .number)
        guard loc.0, cur.0, unit.0, minF.0, maxF.0 else { return nil }
        return NumberFormatExpr(n, locale: loc.1, currency: cur.1, unit: unit.1, minFraction: minF.1, maxFraction: maxF.1)
    }
}

/// `global-state`: a value from the map's global state.
final class GlobalStateExpr: Expr {
    let key: String
    /// The style's `state.<key>.default`, used when the context's global state lacks the key.
    var fallback: Value?
    init(_ key: String) { self.key = key }
    var type: ExprType { .value }
    var children: [Expr] { [] }
    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        if let v = ctx.globalState[key] { return Value(v) }
        return fallback ?? .null
    }
    static func parse(_ args: [JSON], _ ctx: ParsingContext) -> Expr? {
        guard args.count == 2 else { return ctx.error("Expected 1 argument, but found \(args.count - 1) instead.") }
        guard case .string(let k) = args[1] else {
            return ctx.error("Global state property must be string, but found \(jsTypeName(args[1])) instead.")
        }
        return GlobalStateExpr(k)
    }
}

typealias ExpressionParser = ([JSON], ParsingContext) -> Expr?

enum ExpressionRegistry {
    static let parsers: [String: ExpressionParser] = {
        var d: [String: ExpressionParser] = [:]
        for name in Builtins.definitions.keys { d[name] = Builtins.parse }
        d["literal"] = ControlParsers.literal
        d["let"] = ControlParsers.letExpr
        d["var"] = ControlParsers.varExpr
        d["case"] = ControlParsers.caseExpr
        d["match"] = ControlParsers.matchExpr
        d["coalesce"] = ControlParsers.coalesce
        d["all"] = ControlParsers.logical
        d["any"] = ControlParsers.logical
        d["step"] = StepExpr.parse
        for n in ["interpolate", "interpolate-hcl", "interpolate-lab"] { d[n] = InterpolateExpr.parse }
        for n in ["array", "string", "number", "boolean", "object"] { d[n] = AssertionExpr.parse }
        for n in CoercionExpr.names.keys { d[n] = CoercionExpr.parse }
        for n in ["==", "!=", "<", "<=", ">", ">="] { d[n] = ComparisonExpr.parse }
        d["at"] = CollectionParsers.at
        d["in"] = CollectionParsers.isIn
        d["index-of"] = CollectionParsers.indexOf
        d["slice"] = CollectionParsers.slice
        d["length"] = CollectionParsers.length
        d["format"] = FormatExpr.parse
        d["image"] = ImageExpr.parse
        d["collator"] = CollatorExpr.parse
        d["number-format"] = NumberFormatExpr.parse
        d["global-state"] = GlobalStateExpr.parse
        d["within"] = WithinExpr.parse
        d["distance"] = DistanceExpr.parse
        d["semiliteral"] = SemiliteralExpr.parse
        return d
    }()
}
