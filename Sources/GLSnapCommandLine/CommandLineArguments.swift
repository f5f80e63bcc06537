import Foundation
import GLSnap

/// A usage mistake on the command line: the front ends print it (with their usage text) and exit 2.
public struct UsageError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ message: String) { description = message }
}

/// The command-line reader of `glsnap` and `glsnap-conformance`: `--name value`, `--name=value`,
/// `-o value`, flags and positionals, with the same words for the same mistakes in both:
/// `--zoom needs a value`, `unknown option --bogus`, `--strict takes no value`,
/// `unexpected argument 'x'` (where positionals are refused), `--zoom expects a number, got 'abc'`,
/// `--workers must be a whole number within 1...64, got 0`.
///
/// A valued option takes the next argument whatever it looks like (`--center -87.65,41.87`); standing
/// alone, an argument that starts with '-' followed by a digit or '.' is a value, never an option.
public struct CommandLineArguments: Sendable {
    /// Every value of each valued option, in order (options may repeat: `--filter a --filter b`).
    public private(set) var values: [String: [String]] = [:]
    /// The last value of each valued option given.
    public private(set) var options: [String: String] = [:]
    public private(set) var flags: Set<String> = []
    public private(set) var positionals: [String] = []

    /// `valued` lists the options that take a value, `flags` those that do not; any other option is
    /// a usage error, and so is a positional argument when `positionals` is false.
    public init(_ args: some Sequence<String>, valued: Set<String>, flags knownFlags: Set<String>,
                positionals allowsPositionals: Bool = true) throws {
        var rest = args.makeIterator()
        while let arg = rest.next() {
            guard arg.hasPrefix("-"), !CommandLineArguments.looksNumeric(arg), arg != "-" else {
                guard allowsPositionals else { throw UsageError("unexpected argument '\(arg)'") }
                positionals.append(arg)
                continue
            }
            var name = arg
            var inline: String?
            if let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                inline = String(arg[arg.index(after: eq)...])
            }
            if valued.contains(name) {
                guard let value = inline ?? rest.next() else { throw UsageError("\(name) needs a value") }
                values[name, default: []].append(value)
                options[name] = value
            } else if knownFlags.contains(name) {
                guard inline == nil else { throw UsageError("\(name) takes no value") }
                flags.insert(name)
            } else {
                throw UsageError("unknown option \(name)")
            }
        }
    }

    /// Whether `s` is a negative number (`-87.65,41.87`, `-.5`) rather than an option.
    public static func looksNumeric(_ s: String) -> Bool {
        let u = Array(s.utf8)
        return u.count >= 2 && u[0] == UInt8(ascii: "-") && (u[1] == UInt8(ascii: ".") || (u[1] >= 48 && u[1] <= 57))
    }

    /// The last value given for `name`.
    public func value(_ name: String) -> String? { options[name] }

    /// Every value given for `name`, in order.
    public func all(_ name: String) -> [String] { values[name] ?? [] }

    /// Whether the flag was given.
    public func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// A value that must be present and not empty (`--suite is required`).
    public func required(_ name: String) throws -> String {
        guard let v = options[name], !v.isEmpty else { throw UsageError("\(name) is required") }
        return v
    }

    /// A finite number, or nil when the option is absent.
    public func double(_ name: String) throws -> Double? {
        guard let v = options[name] else { return nil }
        guard let d = Double(v), d.isFinite else { throw UsageError("\(name) expects a number, got '\(v)'") }
        return d
    }

    /// A number within `range`, or nil when the option is absent; anything else is a usage error.
    public func double(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let d = try double(name) else { return nil }
        do { return try CheckedNumber.double(d, name, in: range) } catch { throw UsageError(error.plainMessage) }
    }

    /// A whole number within `range`, or nil when the option is absent; anything else is a usage error.
    public func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let v = options[name] else { return nil }
        guard let d = Double(v) else { throw UsageError("\(name) expects a whole number, got '\(v)'") }
        do { return try CheckedNumber.int(d, name, in: range) } catch { throw UsageError(error.plainMessage) }
    }

    /// A list of `count` comma-separated numbers (e.g. `--center -87.65,41.87`).
    public func doubles(_ name: String, count: Int) throws -> [Double]? {
        guard let v = options[name] else { return nil }
        let parts = v.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == count, parts.allSatisfy({ $0 != nil && $0!.isFinite }) else {
            throw UsageError("\(name) expects \(count) comma-separated numbers, got '\(v)'")
        }
        return parts.compactMap { $0 }
    }

    /// An existing directory named by `name`, as an absolute path without a trailing slash.
    public func directory(_ name: String) throws -> String {
        let raw = try required(name)
        let absolute = raw.hasPrefix("/") ? raw
            : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(raw)
        let path = (absolute as NSString).standardizingPath
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw UsageError("\(name) \(raw): no such directory")
        }
        return path
    }
}

extension Error {
    /// The message of a `GLSnapError.invalidOptions` (or `.limit`) without its prefix, else the error's description.
    public var plainMessage: String {
        switch self as? GLSnapError {
        case .invalidOptions(let m)?, .limit(_, _, _, let m)?: return m
        default: return "\(self)"
        }
    }
}
