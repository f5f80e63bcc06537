import Foundation

/// A usage mistake on the command line: printed with the usage text, exit code 2.
struct ConformanceUsageError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}

/// The options of one subcommand: `--name value`, `--name=value` and flags. Positionals are refused
/// because every input of the runner is named.
struct ConformanceArguments {
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []

    /// `valued` names the options that take a value (they may repeat); `flags` those that do not.
    init(_ args: ArraySlice<String>, valued: Set<String>, flags knownFlags: Set<String>) throws {
        var rest = args
        while let arg = rest.popFirst() {
            guard arg.hasPrefix("--") else { throw ConformanceUsageError("unexpected argument '\(arg)'") }
            var name = arg
            var inline: String?
            if let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                inline = String(arg[arg.index(after: eq)...])
            }
            if valued.contains(name) {
                guard let value = inline ?? rest.popFirst() else { throw ConformanceUsageError("\(name) needs a value") }
                values[name, default: []].append(value)
            } else if knownFlags.contains(name), inline == nil {
                flags.insert(name)
            } else {
                throw ConformanceUsageError("unknown option \(name)")
            }
        }
    }

    /// The last value given for `name`.
    func value(_ name: String) -> String? { values[name]?.last }

    /// Every value given for `name`, in order.
    func all(_ name: String) -> [String] { values[name] ?? [] }

    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// A value that must be present.
    func required(_ name: String) throws -> String {
        guard let v = value(name), !v.isEmpty else { throw ConformanceUsageError("\(name) is required") }
        return v
    }

    /// An existing directory named by `name`, as an absolute path without a trailing slash.
    func directory(_ name: String) throws -> String {
        let raw = try required(name)
        let absolute = raw.hasPrefix("/") ? raw
            : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(raw)
        let path = (absolute as NSString).standardizingPath
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ConformanceUsageError("\(name) \(raw): no such directory")
        }
        return path
    }
}
