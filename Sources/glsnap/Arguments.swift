import Foundation
import GLSnap

/// A small command-line reader: `--name value`, `--name=value`, `-o value`, flags, and positionals.
/// A value that starts with '-' followed by a digit (like `-87.65,41.87`) is a value, never an option.
struct Arguments {
    private(set) var options: [String: String] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []

    /// `valued` lists the options that take a value; any other `--x` is a flag.
    init(_ args: [String], valued: Set<String>, flags knownFlags: Set<String>) throws {
        var i = 0
        while i < args.count {
            let a = args[i]
            if a.hasPrefix("-"), !Arguments.looksNumeric(a), a != "-" {
                var name = a
                var inline: String?
                if let eq = a.firstIndex(of: "=") {
                    name = String(a[..<eq])
                    inline = String(a[a.index(after: eq)...])
                }
                if valued.contains(name) {
                    if let inline {
                        options[name] = inline
                    } else {
                        guard i + 1 < args.count else { throw UsageError("\(name) needs a value") }
                        options[name] = args[i + 1]
                        i += 1
                    }
                } else if knownFlags.contains(name) {
                    flags.insert(name)
                } else {
                    throw UsageError("unknown option \(name)")
                }
            } else {
                positionals.append(a)
            }
            i += 1
        }
    }

    static func looksNumeric(_ s: String) -> Bool {
        let u = Array(s.utf8)
        return u.count >= 2 && u[0] == UInt8(ascii: "-") && (u[1] == UInt8(ascii: ".") || (u[1] >= 48 && u[1] <= 57))
    }

    func double(_ name: String) throws -> Double? {
        guard let v = options[name] else { return nil }
        guard let d = Double(v), d.isFinite else { throw UsageError("\(name) expects a number, got '\(v)'") }
        return d
    }

    /// A number within `range`, or nil when the option is absent; anything else is a usage error.
    func double(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let d = try double(name) else { return nil }
        do { return try CheckedNumber.double(d, name, in: range) } catch { throw UsageError("\(error.plainMessage)") }
    }

    /// A whole number within `range`, or nil when the option is absent; anything else is a usage error.
    func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let v = options[name] else { return nil }
        guard let d = Double(v) else { throw UsageError("\(name) expects a whole number, got '\(v)'") }
        do { return try CheckedNumber.int(d, name, in: range) } catch { throw UsageError("\(error.plainMessage)") }
    }

    /// A list of `count` comma-separated numbers (e.g. `--center -87.65,41.87`).
    func doubles(_ name: String, count: Int) throws -> [Double]? {
        guard let v = options[name] else { return nil }
        let parts = v.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == count, parts.allSatisfy({ $0 != nil && $0!.isFinite }) else {
            throw UsageError("\(name) expects \(count) comma-separated numbers, got '\(v)'")
        }
        return parts.compactMap { $0 }
    }
}

struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}

extension Error {
    /// The message of a `GLSnapError.invalidOptions` (or `.limit`) without its prefix, else the error's description.
    var plainMessage: String {
        switch self as? GLSnapError {
        case .invalidOptions(let m)?, .limit(_, _, _, let m)?: return m
        default: return "\(self)"
        }
    }
}

extension GLSnapError {
    /// Options out of range or past a limit: usage errors of the command line (exit 2).
    var isInvalidOptions: Bool {
        switch self {
        case .invalidOptions, .limit: return true
        default: return false
        }
    }
}
