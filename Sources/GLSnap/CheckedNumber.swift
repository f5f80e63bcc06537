/// Numbers from outside (command lines, requests, files) become sizes, counts and indices through
/// here: a value that is not finite, not whole where a whole number is asked for, or outside its
/// range is an error naming it, never a trap (`Int(1e20)` stops the process with SIGILL).
public enum CheckedNumber {
    /// `value` as an Int within `range`, or `GLSnapError.invalidOptions` naming `name`.
    public static func int(_ value: Double, _ name: String, in range: ClosedRange<Int>) throws -> Int {
        guard value.isFinite, value == value.rounded(), value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            throw GLSnapError.invalidOptions("\(name) must be a whole number within \(range.lowerBound)...\(range.upperBound), got \(describe(value))")
        }
        return Int(value)
    }

    /// `value` when it is finite and within `range`, else `GLSnapError.invalidOptions` naming `name`.
    public static func double(_ value: Double, _ name: String, in range: ClosedRange<Double>) throws -> Double {
        guard value.isFinite, range.contains(value) else {
            throw GLSnapError.invalidOptions("\(name) must be within \(describe(range.lowerBound))...\(describe(range.upperBound)), got \(describe(value))")
        }
        return value
    }

    /// A number for a message: whole numbers without ".0" where they fit an Int, others as Swift prints them.
    public static func describe(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }
}
