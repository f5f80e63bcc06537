/// One property of a typed layer (`LineLayer.width`): the style's value or the spec default,
/// evaluated to its Swift type. Built once per layer, so reading one costs no lookup.
public struct LayerProperty<Output: PropertyOutput>: Sendable {
    /// The spec's name of the property (`line-width`).
    public let name: String
    /// The compiled value (the spec default when the style does not set it).
    public let value: PropertyValue
    /// Whether the style sets the property (rather than the spec default applying).
    public let isSet: Bool

    /// The property `name` of `values` (the layer's paint or layout), else of `defaults`.
    init(_ name: String, in values: [String: PropertyValue], defaults: [String: PropertyValue]) {
        self.name = name
        let set = values[name]
        value = set ?? defaults[name] ?? StyleLayer.missing
        isSet = set != nil
    }

    /// The value for `ctx`: a runtime error, null or NaN gives the spec default, as MapLibre does;
    /// an enum value outside the spec gives the spec default too.
    @inlinable public func evaluate(_ ctx: EvaluationContext) -> Output { Output.evaluate(value, ctx) }

    /// True when the value does not depend on the feature (properties, id, geometry type, state).
    @inlinable public var isFeatureConstant: Bool { value.isFeatureConstant }
    /// True when the value does not depend on zoom.
    @inlinable public var isZoomConstant: Bool { value.isZoomConstant }
}

/// What a typed layer property evaluates to.
public protocol PropertyOutput {
    /// The property value evaluated as this type.
    static func evaluate(_ value: PropertyValue, _ ctx: EvaluationContext) -> Self
}

extension Double: PropertyOutput {
    /// 0 when the value is not a number.
    @inlinable public static func evaluate(_ value: PropertyValue, _ ctx: EvaluationContext) -> Double { value.evaluateNumber(ctx) }
}

extension Bool: PropertyOutput {
    /// false when the value is not a boolean.
    @inlinable public static func evaluate(_ value: PropertyValue, _ ctx: EvaluationContext) -> Bool { value.evaluateBool(ctx) }
}

extension String: PropertyOutput {
    /// Formatted text and images flattened to their text/name; "" for null.
    @inlinable public static func evaluate(_ value: PropertyValue, _ ctx: EvaluationContext) -> String { value.evaluateString(ctx) }
}

extension Color: PropertyOutput {
    /// Transparent black when the value is not a color.
    @inlinable public static func evaluate(_ value: PropertyValue, _ ctx: EvaluationContext) -> Color { value.evaluateColor(ctx) }
}

extension Array: PropertyOutput where Element == Double {
    /// Arrays and padding; a single number gives one element.
    @inlinable public static func evaluate(_ value: PropertyValue, _ ctx: EvaluationContext) -> [Double] { value.evaluateNumbers(ctx) }
}

extension Value: PropertyOutput {
    /// The expression value as it is (formatted text, images, string arrays, color arrays).
    @inlinable public static func evaluate(_ value: PropertyValue, _ ctx: EvaluationContext) -> Value { value.evaluate(ctx) }
}

/// The values of an enum property of the spec (`LineLayer.Cap`), by their spec names.
public protocol SpecEnumValues: RawRepresentable, CaseIterable, Sendable where RawValue == String {}

/// An enum property's values with the spec's default, which a value outside them evaluates to.
public protocol SpecEnum: SpecEnumValues, PropertyOutput {
    static var specDefault: Self { get }
}

extension SpecEnum {
    public static func evaluate(_ value: PropertyValue, _ ctx: EvaluationContext) -> Self {
        Self(rawValue: value.evaluateString(ctx)) ?? specDefault
    }
}

/// An enum property without a spec default: nil when the style does not set it.
extension Optional: PropertyOutput where Wrapped: SpecEnumValues {
    public static func evaluate(_ value: PropertyValue, _ ctx: EvaluationContext) -> Wrapped? {
        Wrapped(rawValue: value.evaluateString(ctx))
    }
}

/// The spec defaults of one layer type by property name.
struct LayerDefaults {
    var paint: [String: PropertyValue] = [:]
    var layout: [String: PropertyValue] = [:]
}
