import GLSnapCommandLine
import GLSnap

// The command-line reader and its usage error are GLSnapCommandLine's, shared with glsnap-conformance.
typealias Arguments = CommandLineArguments
typealias UsageError = GLSnapCommandLine.UsageError

extension GLSnapError {
    /// Options out of range or past a limit: usage errors of the command line (exit 2).
    var isInvalidOptions: Bool {
        switch self {
        case .invalidOptions, .limit: return true
        default: return false
        }
    }
}
