/// The static type of an expression, as the expression language's type checker sees it.
indirect enum ExprType: Equatable, Sendable, CustomStringConvertible {
    case null, number, string, boolean, color, object, value, error, collator, formatted
    case resolvedImage, padding, numberArray, colorArray, variableAnchorOffsetCollection, projectionDefinition
    case array(ExprType, Int?)

    static let anyArray = ExprType.array(.value, nil)

    var kind: String {
        switch self {
        case .null: return "null"
        case .number: return "number"
        case .string: return "string"
        case .boolean: return "boolean"
        case .color: return "color"
        case .object: return "object"
        case .value: return "value"
        case .error: return "error"
        case .collator: return "collator"
        case .formatted: return "formatted"
        case .resolvedImage: return "resolvedImage"
        case .padding: return "padding"
        case .numberArray: return "numberArray"
        case .colorArray: return "colorArray"
        case .variableAnchorOffsetCollection: return "variableAnchorOffsetCollection"
        case .projectionDefinition: return "projectionDefinition"
        case .array: return "array"
        }
    }

    var description: String {
        if case .array(let item, let n) = self {
            if let n { return "array<\(item), \(n)>" }
            if item == .value { return "array" }
            return "array<\(item)>"
        }
        return kind
    }

    var isArray: Bool { if case .array = self { return true }; return false }

    /// The types a `value` may hold.
    static let valueMembers: [ExprType] = [.null, .number, .string, .boolean, .color, .projectionDefinition, .formatted, .object,
                                          .array(.value, nil), .padding, .numberArray, .colorArray,
                                          .resolvedImage, .variableAnchorOffsetCollection]

    /// nil when `t` may be used where `self` is expected; otherwise the error message.
    func subtypeError(_ t: ExprType) -> String? {
        if case .array(let eItem, let eN) = self {
            if case .array(let tItem, let tN) = t,
               (tN == 0 && tItem == .value) || eItem.subtypeError(tItem) == nil,
               eN == nil || eN == tN {
                return nil
            }
        } else if kind == t.kind || t == .error {
            return nil
        } else if self == .value {
            for member in ExprType.valueMembers where member.subtypeError(t) == nil { return nil }
        }
        return "Expected \(self) but found \(t) instead."
    }
}
